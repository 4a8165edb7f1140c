/**
 * The rpc-compat runner: sends every case's request to one node, in lexical path order, one at a time, and
 * compares each response with the expected one (compare.ts).
 *
 * The request body is the case's `>>` line verbatim (Content-Type application/json), so the node sees
 * exactly what the reference harness sends. Requests are strictly sequential because some cases have side
 * effects later cases depend on (eth_sendRawTransaction fills the pool, README rule 1). Skip-listed cases
 * are run too: a skip only excuses a failure, and a skipped case that passes must be noticed. The HTTP
 * status is recorded but not judged (the body is what the rules compare); a transport error, a timeout or
 * a body that is not JSON fails the case with that reason instead of a difference.
 */

import { type Case, loadCases } from './cases.ts'
import { type Difference, firstDifference, formatDifference } from './compare.ts'
import { SKIP } from './skip.ts'

export interface RunOptions {
  /** Run only the cases it accepts (order is kept). */
  filter?: (c: Case) => boolean
  /** The cases to run; default: all of ../shared/rpc-compat/tests. */
  cases?: readonly Case[]
  /** Case path → skip reason; default: skip.ts. */
  skip?: Readonly<Record<string, string>>
  /** Per-request timeout; default 60 s. */
  timeoutMs?: number
}

export interface Result {
  readonly case: Case
  readonly passed: boolean
  /** The first structural difference, when the response was JSON but did not match. */
  readonly difference?: Difference
  /** A transport problem (connection, timeout, non-JSON body) when there was no response to compare. */
  readonly error?: string
  /** The parsed response body, when there was one. */
  readonly actual?: unknown
  readonly httpStatus?: number
  /** The skip-list reason, when the case is on it (whether or not it passed). */
  readonly skipReason?: string
  readonly ms: number
}

const DEFAULT_TIMEOUT_MS = 60_000

async function runOne(url: string, c: Case, timeoutMs: number, skipReason: string | undefined): Promise<Result> {
  const started = performance.now()
  const base = { case: c, ...(skipReason !== undefined ? { skipReason } : {}) }
  const elapsed = (): number => Math.round(performance.now() - started)
  let httpStatus: number
  let body: string
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: c.request,
      signal: AbortSignal.timeout(timeoutMs),
    })
    httpStatus = res.status
    body = await res.text()
  } catch (err) {
    const e = err as Error & { cause?: unknown }
    const cause = e.cause instanceof Error ? ` (${e.cause.message})` : ''
    const what = e.name === 'TimeoutError' ? `no response within ${timeoutMs} ms` : `${e.message}${cause}`
    return { ...base, passed: false, error: `request failed: ${what}`, ms: elapsed() }
  }
  let actual: unknown
  try {
    actual = JSON.parse(body)
  } catch {
    const error = `HTTP ${httpStatus}, body is not JSON: ${JSON.stringify(truncate(body))}`
    return { ...base, passed: false, httpStatus, error, ms: elapsed() }
  }
  const difference = firstDifference(c.expected, actual)
  return difference
    ? { ...base, passed: false, difference, actual, httpStatus, ms: elapsed() }
    : { ...base, passed: true, actual, httpStatus, ms: elapsed() }
}

/** Runs the cases against the node at `url` (an HTTP JSON-RPC endpoint), sequentially, in order. */
export async function runConformance(url: string, opts: RunOptions = {}): Promise<Result[]> {
  const all = opts.cases ?? loadCases()
  const selected = opts.filter ? all.filter(opts.filter) : all
  const skip = opts.skip ?? SKIP
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const results: Result[] = []
  for (const c of selected) {
    const reason = Object.prototype.hasOwnProperty.call(skip, c.path) ? skip[c.path] : undefined
    results.push(await runOne(url, c, timeoutMs, reason))
  }
  return results
}

function truncate(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max)}…` : text
}

/** Why a failed result failed, in one line. */
export function describeFailure(r: Result): string {
  if (r.passed) return 'passed'
  if (r.difference) {
    // An unexpected error envelope shows up as "missing $.result" first; say what came instead.
    const got = r.actual as { error?: unknown } | null
    const expected = r.case.expected as { error?: unknown } | null
    const unexpectedError =
      typeof got === 'object' && got !== null && got.error !== undefined &&
      !(typeof expected === 'object' && expected !== null && expected.error !== undefined)
    const extra = unexpectedError ? ` (the node answered with error ${truncate(JSON.stringify(got.error))})` : ''
    return formatDifference(r.difference) + extra
  }
  return r.error ?? 'failed'
}

export interface MethodTally {
  readonly method: string
  readonly passed: number
  readonly total: number
}

/** Pass counts per method, in the order methods first appear in `results`. */
export function tallyByMethod(results: readonly Result[]): MethodTally[] {
  const tallies = new Map<string, { passed: number; total: number }>()
  for (const r of results) {
    const t = tallies.get(r.case.method) ?? { passed: 0, total: 0 }
    t.total++
    if (r.passed) t.passed++
    tallies.set(r.case.method, t)
  }
  return [...tallies].map(([method, t]) => ({ method, ...t }))
}

/** The summary printSummary prints: per-method counts, a total, then each failure with its first difference. */
export function formatSummary(results: readonly Result[]): string {
  const lines: string[] = []
  const tallies = tallyByMethod(results)
  for (const t of tallies) lines.push(`${t.method}: ${t.passed}/${t.total} passed`)
  const passed = results.filter((r) => r.passed).length
  const skippedFailing = results.filter((r) => !r.passed && r.skipReason !== undefined).length
  lines.push(`total: ${passed}/${results.length} passed${skippedFailing ? ` (${skippedFailing} failing on the skip list)` : ''}`)
  const failures = results.filter((r) => !r.passed)
  if (failures.length > 0) {
    lines.push('', `failures (${failures.length}):`)
    for (const r of failures) {
      const skipped = r.skipReason !== undefined ? ` [skipped: ${r.skipReason}]` : ''
      lines.push(`  ${r.case.method}/${r.case.name}${skipped}`, `    ${describeFailure(r)}`)
    }
  }
  return lines.join('\n')
}

/** Prints formatSummary(results) to stdout. */
export function printSummary(results: readonly Result[]): void {
  console.log(formatSummary(results))
}
