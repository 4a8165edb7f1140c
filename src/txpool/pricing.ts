/**
 * How transactions compare on price, for ordering (best first) and for eviction (cheapest first).
 *
 * The effective tip at a base fee is min(tipCap, feeCap - baseFee); it is negative when the fee cap is
 * below the base fee. Equal prices are broken by arrival (earlier is better). Pure functions only.
 */

import type { PooledTx } from './decode.ts'

export function effectiveTip(tx: PooledTx, baseFee: bigint): bigint {
  const headroom = tx.feeCap - baseFee
  return headroom < tx.tipCap ? headroom : tx.tipCap
}

/** Sign of (a - b) on price alone: effective tip, then fee cap, then tip cap. */
export function comparePrice(a: PooledTx, b: PooledTx, baseFee: bigint): number {
  const ta = effectiveTip(a, baseFee)
  const tb = effectiveTip(b, baseFee)
  if (ta !== tb) return ta < tb ? -1 : 1
  if (a.feeCap !== b.feeCap) return a.feeCap < b.feeCap ? -1 : 1
  if (a.tipCap !== b.tipCap) return a.tipCap < b.tipCap ? -1 : 1
  return 0
}

/** True when `a` should be evicted before `b`: cheaper, or as cheap and newer. */
export function evictsBefore(a: PooledTx, b: PooledTx, baseFee: bigint): boolean {
  const c = comparePrice(a, b, baseFee)
  return c !== 0 ? c < 0 : a.seq > b.seq
}

/** True when `a` should be executed before `b`: a higher effective tip, or as high and earlier. */
export function ranksBefore(a: PooledTx, b: PooledTx, baseFee: bigint): boolean {
  const ta = effectiveTip(a, baseFee)
  const tb = effectiveTip(b, baseFee)
  if (ta !== tb) return ta > tb
  if (a.arrivedAt !== b.arrivedAt) return a.arrivedAt < b.arrivedAt
  return a.seq < b.seq
}
