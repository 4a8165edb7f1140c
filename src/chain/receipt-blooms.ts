/**
 * The logs blooms of one block's receipts, hashing each distinct address and topic once.
 *
 * A bloom costs three keccak hashes' worth of bits per address and topic, and keccak dominates loading a
 * block's receipts; yet a block repeats the same few items (a token's address, an event signature, a busy
 * sender) across many logs. One `ReceiptBlooms` serves one block: it remembers, per item, which bloom bytes
 * the item sets, and ORs them in on every later sighting. The bits come from primitives/bloom.ts itself (an
 * item's own bloom, scanned once), so the bloom definition stays in one place.
 *
 * Invariant: `bloomOf(logs)` equals `logsBloom(logs)` for any logs. Memory is bounded by the block's items.
 */

import { bloomBitsOf, BLOOM_BYTES } from '../primitives/bloom.ts'

/** Flat pairs [byteIndex, bits, byteIndex, bits, …]: the bloom bytes one item sets (at most three). */
type ItemBits = readonly number[]

export class ReceiptBlooms {
  private readonly items = new Map<string, ItemBits>()
  private readonly scratch = new Uint8Array(BLOOM_BYTES)

  bloomOf(logs: readonly { readonly address: Uint8Array; readonly topics: readonly Uint8Array[] }[]): Uint8Array {
    const bloom = new Uint8Array(BLOOM_BYTES)
    for (const log of logs) {
      this.add(bloom, log.address)
      for (const topic of log.topics) this.add(bloom, topic)
    }
    return bloom
  }

  private add(bloom: Uint8Array, item: Uint8Array): void {
    const key = String.fromCharCode.apply(null, item as unknown as number[])
    let bits = this.items.get(key)
    if (bits === undefined) {
      bits = this.bitsOf(item)
      this.items.set(key, bits)
    }
    for (let i = 0; i < bits.length; i += 2) bloom[bits[i]!]! |= bits[i + 1]!
  }

  private bitsOf(item: Uint8Array): ItemBits {
    return bloomBitsOf(item, this.scratch)
  }
}
