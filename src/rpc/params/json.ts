/**
 * JSON shape helpers shared by the param parsers: the kind names geth's decoder uses in its type errors, and
 * object field lookup with Go's encoding/json rules (an exact key match, else a case-insensitive one; the last
 * matching key wins; unknown keys are ignored; `null` means absent).
 */

import { ParamError } from './param-error.ts'

export type JsonKind = 'string' | 'number' | 'bool' | 'array' | 'object' | 'null'

export function jsonKind(raw: unknown): JsonKind {
  if (raw === null || raw === undefined) return 'null'
  if (Array.isArray(raw)) return 'array'
  switch (typeof raw) {
    case 'string':
      return 'string'
    case 'number':
    case 'bigint':
      return 'number'
    case 'boolean':
      return 'bool'
    default:
      return 'object'
  }
}

/** geth's `json: cannot unmarshal <kind> into Go value of type <goType>`. */
export function typeError(kind: string, goType: string): ParamError {
  return new ParamError(`json: cannot unmarshal ${kind} into Go value of type ${goType}`)
}

export function isPlainObject(raw: unknown): raw is Record<string, unknown> {
  return typeof raw === 'object' && raw !== null && !Array.isArray(raw)
}

/**
 * Picks `names` out of a JSON object the way Go decodes a struct. Absent and `null` fields are left out, since
 * geth's pointer fields read both as "not given". Pass a module constant as `names`: its index is built on
 * the first call and kept (a list made per call is indexed per call).
 */
export function readFields<const N extends string>(obj: Record<string, unknown>, names: readonly N[]): Partial<Record<N, unknown>> {
  const { exact, byFold } = indexOf(names)
  const out: Partial<Record<N, unknown>> = {}
  for (const key of Object.keys(obj)) {
    const name = (exact.has(key) ? key : byFold.get(key.toLowerCase())) as N | undefined
    if (name === undefined) continue
    const value = obj[key]
    if (value === null || value === undefined) delete out[name]
    else out[name] = value
  }
  return out
}

interface FieldIndex {
  readonly exact: ReadonlySet<string>
  /** Lower-cased name → name. */
  readonly byFold: ReadonlyMap<string, string>
}

/** Field lists are module constants: each is indexed once, not per request. */
const fieldIndexes = new WeakMap<readonly string[], FieldIndex>()

function indexOf(names: readonly string[]): FieldIndex {
  let index = fieldIndexes.get(names)
  if (index === undefined) {
    index = { exact: new Set(names), byFold: new Map(names.map((n) => [n.toLowerCase(), n])) }
    fieldIndexes.set(names, index)
  }
  return index
}

/** The value's JSON text, as geth quotes it in some messages. */
export function jsonText(raw: unknown): string {
  if (typeof raw === 'string') return raw
  if (raw === undefined) return 'null'
  return JSON.stringify(raw) ?? 'null'
}

/** Go's `%q` for the ASCII inputs that reach our messages (control bytes as \xNN). */
export function goQuote(s: string): string {
  let out = '"'
  for (const ch of s) {
    const c = ch.codePointAt(0)!
    if (ch === '"' || ch === '\\') out += `\\${ch}`
    else if (ch === '\n') out += '\\n'
    else if (ch === '\r') out += '\\r'
    else if (ch === '\t') out += '\\t'
    else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`
    else out += ch
  }
  return `${out}"`
}
