/**
 * Structural comparison of a JSON-RPC response with a case's expected response, by the rpc-compat rules
 * (../shared/rpc-compat/README.md, "How a case passes"):
 *
 * - object key order is free; a missing or an extra field is a difference;
 * - strings are compared exactly (hex byte for byte: `0x01` is not `0x1`, `0xAB` is not `0xab`);
 *   numbers, booleans and null by value and type; arrays element by element, length included;
 * - wherever BOTH sides have an `error` field holding an object (at any depth), that object's `message` is
 *   left out on both sides; its `code` and `data` (and anything else) must still match.
 *
 * The walk stops at the first difference and reports where it is (a JSONPath-like `$.result[0].status`),
 * what was expected and what came back. At each object the shape is checked before the values (missing
 * fields in expected order, then extra fields), and at each array the length before the elements, so the
 * report names the outermost problem.
 */

export type DifferenceKind = 'missing' | 'extra' | 'type' | 'value' | 'length'

export interface Difference {
  /** Where, e.g. `$.result.calls[1].error.code`. */
  readonly path: string
  readonly kind: DifferenceKind
  /** The expected value there (a length for `length`; undefined for `extra`). */
  readonly expected: unknown
  /** The actual value there (a length for `length`; undefined for `missing`). */
  readonly actual: unknown
}

type JsonKind = 'null' | 'array' | 'object' | 'string' | 'number' | 'boolean' | 'other'

function kindOf(value: unknown): JsonKind {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  switch (typeof value) {
    case 'object':
      return 'object'
    case 'string':
      return 'string'
    case 'number':
      return 'number'
    case 'boolean':
      return 'boolean'
    default:
      return 'other'
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return kindOf(value) === 'object'
}

function childPath(path: string, key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`
}

const hasOwn = (obj: object, key: string): boolean => Object.prototype.hasOwnProperty.call(obj, key)

const NO_IGNORED: ReadonlySet<string> = new Set()
const ERROR_IGNORED: ReadonlySet<string> = new Set(['message'])

function walk(expected: unknown, actual: unknown, path: string, ignored: ReadonlySet<string>): Difference | undefined {
  const ek = kindOf(expected)
  const ak = kindOf(actual)
  if (ek !== ak) return { path, kind: 'type', expected, actual }
  if (ek === 'array') {
    const e = expected as unknown[]
    const a = actual as unknown[]
    if (e.length !== a.length) return { path, kind: 'length', expected: e.length, actual: a.length }
    for (let i = 0; i < e.length; i++) {
      const d = walk(e[i], a[i], `${path}[${i}]`, NO_IGNORED)
      if (d) return d
    }
    return undefined
  }
  if (ek === 'object') {
    const e = expected as Record<string, unknown>
    const a = actual as Record<string, unknown>
    const eKeys = Object.keys(e).filter((k) => !ignored.has(k))
    const aKeys = Object.keys(a).filter((k) => !ignored.has(k))
    for (const k of eKeys) {
      if (!hasOwn(a, k)) return { path: childPath(path, k), kind: 'missing', expected: e[k], actual: undefined }
    }
    for (const k of aKeys) {
      if (!hasOwn(e, k)) return { path: childPath(path, k), kind: 'extra', expected: undefined, actual: a[k] }
    }
    for (const k of eKeys) {
      // Rule 3: an `error` object on both sides is compared without its `message`.
      const bothErrors = k === 'error' && isPlainObject(e[k]) && isPlainObject(a[k])
      const d = walk(e[k], a[k], childPath(path, k), bothErrors ? ERROR_IGNORED : NO_IGNORED)
      if (d) return d
    }
    return undefined
  }
  // Scalars: strict equality is exactly right for JSON strings, numbers, booleans and null.
  return expected === actual ? undefined : { path, kind: 'value', expected, actual }
}

/** The first difference between `expected` and `actual` under the rpc-compat rules, or undefined if none. */
export function firstDifference(expected: unknown, actual: unknown): Difference | undefined {
  return walk(expected, actual, '$', NO_IGNORED)
}

/** True when `actual` matches `expected` under the rpc-compat rules. */
export function matches(expected: unknown, actual: unknown): boolean {
  return firstDifference(expected, actual) === undefined
}

function show(value: unknown, max = 200): string {
  const text = value === undefined ? '(absent)' : JSON.stringify(value)
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text
}

/** One line, e.g. `$.result: value differs: expected "0x01", got "0x1"`. Long values are truncated. */
export function formatDifference(d: Difference): string {
  switch (d.kind) {
    case 'missing':
      return `${d.path}: missing field (expected ${show(d.expected)})`
    case 'extra':
      return `${d.path}: extra field (got ${show(d.actual)})`
    case 'length':
      return `${d.path}: array length differs: expected ${String(d.expected)}, got ${String(d.actual)}`
    case 'type':
      return `${d.path}: type differs: expected ${kindOf(d.expected)} ${show(d.expected)}, got ${kindOf(d.actual)} ${show(d.actual)}`
    case 'value':
      return `${d.path}: value differs: expected ${show(d.expected)}, got ${show(d.actual)}`
  }
}
