/**
 * One block's log items (the addresses and topics of its logs, as the EVM hands them: bigints), each turned
 * into its bytes and its bloom bits once. A block's logs repeat a few items (a token's address, an event's
 * signature, the busy senders and recipients): a receipt's bloom and its logs' bytes then cost a lookup per
 * item instead of a conversion and a keccak hash. The bits come from primitives/bloom.ts (an item's own bloom,
 * scanned once: bloomBitsOf), so the bloom's definition stays in one place.
 *
 * The bytes handed out are shared by every log that names the item: callers must never write into them.
 * Memory is bounded by the block's distinct items (one cache serves one block).
 */

import { bloomBitsOf, BLOOM_BYTES } from '../primitives/bloom.ts'
import { bigIntToFixedBytes } from '../primitives/hex.ts'

interface Item {
  readonly bytes: Uint8Array
  /** Flat pairs [byteIndex, bits, …]: the bloom bytes the item sets (at most three). */
  readonly bits: readonly number[]
}

export class LogItems {
  private readonly addresses = new Map<bigint, Item>()
  private readonly topics = new Map<bigint, Item>()
  private readonly scratch = new Uint8Array(BLOOM_BYTES)

  /** The log's address as 20 bytes; its bits are set in `bloom`. */
  address(value: bigint, bloom: Uint8Array): Uint8Array {
    return this.take(this.addresses, value, 20, bloom)
  }

  /** The topic as 32 bytes; its bits are set in `bloom`. */
  topic(value: bigint, bloom: Uint8Array): Uint8Array {
    return this.take(this.topics, value, 32, bloom)
  }

  private take(items: Map<bigint, Item>, value: bigint, length: number, bloom: Uint8Array): Uint8Array {
    let item = items.get(value)
    if (item === undefined) {
      item = this.itemOf(bigIntToFixedBytes(value, length))
      items.set(value, item)
    }
    const bits = item.bits
    for (let i = 0; i < bits.length; i += 2) bloom[bits[i]!]! |= bits[i + 1]!
    return item.bytes
  }

  private itemOf(bytes: Uint8Array): Item {
    return { bytes, bits: bloomBitsOf(bytes, this.scratch) }
  }
}
