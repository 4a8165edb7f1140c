/**
 * The stream's sequence numbers: one per message, increasing by one, and never reused across restarts, so
 * that a subscriber's resume point can never name another message after the node restarted.
 *
 * The node reserves numbers in chunks and writes the end of the reservation to its database (one durable
 * write per RESERVE_CHUNK messages); a restarted node starts after the last reservation, leaving a gap. The
 * first message of a run therefore has no previous sequence (docs/stream.md: `previous_sequence` null).
 * A sequencer group's leader continues the replicated stream's numbering instead (`continueAfter`).
 */

import type { KvStore } from '../storage/db.ts'
import { keys, readU64, u64 } from '../storage/keys.ts'

/** Numbers reserved by one durable write (about 55 hours of messages at 5 flashblocks a second). */
export const RESERVE_CHUNK = 1_000_000

const KEY = keys.meta('streamSequenceReserved')

export class SequenceNumbers {
  private next: number
  private reserved: number

  constructor(private readonly kv: KvStore) {
    const stored = kv.get(KEY)
    this.reserved = stored === undefined ? 0 : Number(readU64(stored))
    this.next = this.reserved + 1
  }

  /** The number the next message gets (not yet taken). */
  peek(): number {
    return this.next
  }

  /**
   * The next number is `last + 1`: a group leader continues the replicated stream's numbering, which another
   * leader may have carried past (or not as far as) this node's own reservation. The reservation restarts
   * there and is written at once, so this node never hands out again, after a restart, a number it may have
   * published from here on.
   */
  continueAfter(last: number): void {
    if (!(Number.isSafeInteger(last) && last >= 0)) throw new RangeError(`a sequence is a non-negative integer (got ${last})`)
    this.next = last + 1
    this.reserved = last
    this.take()
    this.next = last + 1
  }

  take(): number {
    if (this.next > this.reserved) {
      this.reserved = this.next + RESERVE_CHUNK - 1
      const batch = this.kv.batch()
      batch.put(KEY, u64(BigInt(this.reserved)))
      this.kv.commit(batch)
    }
    return this.next++
  }
}
