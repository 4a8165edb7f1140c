/**
 * The 2048-bit logs bloom (yellow paper, section 4.3.1): three bits per address and topic, taken from the
 * first three byte pairs of its keccak hash.
 */

import { keccak256 } from './keccak.ts'

export const BLOOM_BYTES = 256

export function addToBloom(bloom: Uint8Array, item: Uint8Array): void {
  const h = keccak256(item)
  for (let i = 0; i < 6; i += 2) {
    const bit = ((h[i]! << 8) | h[i + 1]!) & 2047
    bloom[BLOOM_BYTES - 1 - (bit >> 3)]! |= 1 << (bit & 7)
  }
}

/**
 * The bloom bytes `item` sets, as flat pairs [byteIndex, bits, …] (at most three), for callers that OR an
 * item in many times. `scratch` is a zeroed bloom-sized buffer, left zeroed.
 */
export function bloomBitsOf(item: Uint8Array, scratch: Uint8Array): number[] {
  addToBloom(scratch, item)
  const bits: number[] = []
  for (let i = 0; i < BLOOM_BYTES; i++) {
    if (scratch[i] !== 0) {
      bits.push(i, scratch[i]!)
      scratch[i] = 0
    }
  }
  return bits
}

export function logsBloom(logs: readonly { address: Uint8Array; topics: readonly Uint8Array[] }[]): Uint8Array {
  const bloom = new Uint8Array(BLOOM_BYTES)
  for (const log of logs) {
    addToBloom(bloom, log.address)
    for (const t of log.topics) addToBloom(bloom, t)
  }
  return bloom
}

/** Adds every bit of `other` to `bloom` (a block's bloom is the union of its receipts'). */
export function orBloom(bloom: Uint8Array, other: Uint8Array): void {
  for (let i = 0; i < BLOOM_BYTES; i++) bloom[i]! |= other[i]!
}

/** True when every bit of `item`'s bloom is set in `bloom` (the item may be present). */
export function bloomMayContain(bloom: Uint8Array, item: Uint8Array): boolean {
  const h = keccak256(item)
  for (let i = 0; i < 6; i += 2) {
    const bit = ((h[i]! << 8) | h[i + 1]!) & 2047
    if ((bloom[BLOOM_BYTES - 1 - (bit >> 3)]! & (1 << (bit & 7))) === 0) return false
  }
  return true
}
