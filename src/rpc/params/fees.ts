/**
 * eth_feeHistory's own argument types.
 *
 * - block count: geth's math.HexOrDecimal64: a JSON number or a string, hex with `0x` or decimal, leading
 *   zeros allowed, `""` is 0; else `invalid hex or decimal integer "…"`. Counts past 2^53 clamp (the node caps
 *   the range far below that anyway).
 * - reward percentiles: a JSON array of numbers, at most 100, each in [0, 100], strictly ascending, with
 *   geth's messages (`invalid reward percentile: 101.000000`, `… #0:50.000000 >= #1:40.000000`).
 */

import { fail } from './param-error.ts'
import { goQuote, jsonKind, jsonText, typeError } from './json.ts'

const MAX_PERCENTILES = 100
const MAX_UINT64 = 0xffff_ffff_ffff_ffffn

export function parseBlockCount(raw: unknown): number {
  const text = typeof raw === 'string' ? raw : jsonText(raw)
  let value: bigint | undefined
  if (text === '') value = 0n
  else if (/^0[xX][0-9a-fA-F]+$/.test(text)) value = BigInt(`0x${text.slice(2)}`)
  else if (/^[0-9]+$/.test(text)) value = BigInt(text)
  if (value === undefined || value > MAX_UINT64) fail(`invalid hex or decimal integer ${goQuote(text)}`)
  return value > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(value)
}

/** Go's `%f`. */
const goFloat = (p: number): string => p.toFixed(6)

export function parseRewardPercentiles(raw: unknown): number[] {
  if (!Array.isArray(raw)) throw typeError(jsonKind(raw), '[]float64')
  const ps = (raw as unknown[]).map((p) => {
    if (typeof p !== 'number') throw typeError(jsonKind(p), 'float64')
    return p
  })
  if (ps.length > MAX_PERCENTILES) fail(`invalid reward percentile: over the query limit ${MAX_PERCENTILES}`)
  ps.forEach((p, i) => {
    if (p < 0 || p > 100) fail(`invalid reward percentile: ${goFloat(p)}`)
    if (i > 0 && p <= ps[i - 1]!) {
      fail(`invalid reward percentile: #${i - 1}:${goFloat(ps[i - 1]!)} >= #${i}:${goFloat(p)}`)
    }
  })
  return ps
}
