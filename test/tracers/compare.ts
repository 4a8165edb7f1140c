/**
 * How geth's tracetest compares a tracer's JSON with a fixture's `result`, and a readable diff when they
 * differ. callTracer: both decoded into geth's callTrace shape (unknown fields dropped, absent ones at their
 * zero value) and compared; flatCallTracer: each entry decoded into geth's flatCallTrace shape (block and
 * transaction fields ignored); every other tracer: the JSON values exactly (key order aside). Hex strings are
 * compared as the values they encode (quantities as numbers, data and addresses lowercase).
 */

type Json = Record<string, unknown>

const obj = (v: unknown): Json => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {})
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])
const qty = (v: unknown): string => (v === undefined || v === null || v === '' ? '0' : BigInt(v as string | number).toString())
const bytes = (v: unknown): string => (typeof v === 'string' ? v.toLowerCase() : '0x')
const addr = (v: unknown): string => (typeof v === 'string' ? '0x' + v.toLowerCase().replace(/^0x/, '').padStart(40, '0') : '0x' + '0'.repeat(40))
const str = (v: unknown): string => (typeof v === 'string' ? v : '')

function callTrace(v: unknown): Json {
  const f = obj(v)
  const out: Json = {
    from: addr(f.from),
    gas: f.gas === undefined ? null : qty(f.gas),
    gasUsed: f.gasUsed === undefined ? null : qty(f.gasUsed),
    input: bytes(f.input),
    type: str(f.type),
  }
  if (f.to !== undefined && f.to !== null) out.to = addr(f.to)
  if (bytes(f.output) !== '0x') out.output = bytes(f.output)
  if (str(f.error) !== '') out.error = f.error
  if (str(f.revertReason) !== '') out.revertReason = f.revertReason
  if (arr(f.calls).length > 0) out.calls = arr(f.calls).map(callTrace)
  if (arr(f.logs).length > 0) {
    out.logs = arr(f.logs).map((l) => {
      const log = obj(l)
      return { address: addr(log.address), topics: arr(log.topics).map((t) => bytes(t)), data: bytes(log.data), index: qty(log.index), position: qty(log.position) }
    })
  }
  if (f.value !== undefined && f.value !== null) out.value = qty(f.value)
  return out
}

function flatTrace(v: unknown): Json {
  const f = obj(v)
  const a = obj(f.action)
  const r = obj(f.result)
  return {
    action: {
      author: addr(a.author), rewardType: str(a.rewardType), address: addr(a.address), balance: qty(a.balance), callType: str(a.callType),
      creationMethod: str(a.creationMethod), from: addr(a.from), gas: qty(a.gas), init: bytes(a.init), input: bytes(a.input),
      refundAddress: addr(a.refundAddress), to: addr(a.to), value: qty(a.value),
    },
    error: str(f.error),
    result: { address: addr(r.address), code: bytes(r.code), gasUsed: qty(r.gasUsed), output: bytes(r.output) },
    subtraces: Number(f.subtraces ?? 0),
    traceAddress: arr(f.traceAddress),
    type: str(f.type),
  }
}

/** The two values as geth's runner compares them for `tracer`. */
export function normalise(tracer: string, value: unknown): unknown {
  if (tracer === 'callTracer') return callTrace(value)
  if (tracer === 'flatCallTracer') return arr(value).map(flatTrace)
  return value
}

/** Leaf-level differences between `want` and `have`, as `path: want … have …` lines (at most `limit`). */
export function diff(want: unknown, have: unknown, limit = 20): string[] {
  const out: string[] = []
  const walk = (w: unknown, h: unknown, path: string): void => {
    if (out.length >= limit) return
    const wo = w !== null && typeof w === 'object'
    const ho = h !== null && typeof h === 'object'
    if (wo && ho && Array.isArray(w) === Array.isArray(h)) {
      const keys = new Set([...Object.keys(w as Json), ...Object.keys(h as Json)])
      for (const k of [...keys].sort()) walk((w as Json)[k], (h as Json)[k], `${path}${Array.isArray(w) ? `[${k}]` : `.${k}`}`)
      return
    }
    if (JSON.stringify(w) !== JSON.stringify(h)) out.push(`${path || '.'}: want ${short(w)}, have ${short(h)}`)
  }
  walk(want, have, '')
  return out
}

const short = (v: unknown): string => {
  const s = v === undefined ? '(absent)' : JSON.stringify(v)
  return s.length > 120 ? s.slice(0, 117) + '...' : s
}

/** Whether our result passes geth's comparison for `tracer`. */
export function matches(tracer: string, want: unknown, have: unknown): boolean {
  return diff(normalise(tracer, want), normalise(tracer, have), 1).length === 0
}
