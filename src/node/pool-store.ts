/**
 * The pool's durable copies: what lets a transaction the node accepted survive a restart before it is
 * pre-confirmed. Each admitted transaction is written under the number of its arrival (storage/keys.ts
 * `poolArrival`), so writes append at the end of the table and deletes, in nearly the same order, take its
 * front. Under its hash (the key versions before this one used) every write and every delete landed on a leaf
 * page of its own in LMDB's tree, and once the database held a million transactions each of them dirtied and
 * wrote a page: the pool's writes became the sequencer's largest cost (docs/performance.md, issue 42).
 *
 * Owns the arrival counter and the map from a pooled transaction's hash to its arrival, and writes only its
 * own keys, always into a batch its caller commits. It never decides what the pool holds: admission writes a
 * copy when the pool took a transaction, the pool port deletes it when the pool let it go. Copies written under
 * the hash by earlier versions are read back at restore (`stored`, oldest format first) and moved.
 */

import type { KvStore, WriteBatch } from '../storage/db.ts'
import { keys, readU64 } from '../storage/keys.ts'

/** A stored copy: its key, its bytes, and its arrival (undefined: written under its hash by an earlier version). */
export interface StoredCopy {
  readonly key: Uint8Array
  readonly raw: Uint8Array
  readonly arrival: bigint | undefined
}

const LAST_ARRIVAL = 2n ** 64n - 1n

export class PoolStore {
  private next: bigint
  /** The arrival of every copy written or restored and not deleted, by transaction hash (0x-hex). */
  private readonly arrivals = new Map<string, bigint>()

  constructor(private readonly kv: KvStore) {
    const last = kv.floor(keys.poolArrival(0n), keys.poolArrival(LAST_ARRIVAL))
    this.next = last === undefined ? 0n : readU64(last.key, 1) + 1n
  }

  /** Copies held (written or restored, not deleted). */
  get size(): number {
    return this.arrivals.size
  }

  /** Writes the copy of transaction `hash` (0x-hex), bytes `raw`, into `batch`. */
  put(batch: WriteBatch, hash: string, raw: Uint8Array): void {
    const arrival = this.next++
    this.arrivals.set(hash, arrival)
    batch.put(keys.poolArrival(arrival), raw)
  }

  /** Deletes the copy of transaction `hash` (0x-hex) in `batch`, if this store holds one. */
  delete(batch: WriteBatch, hash: string): void {
    const arrival = this.arrivals.get(hash)
    if (arrival === undefined) return
    this.arrivals.delete(hash)
    batch.del(keys.poolArrival(arrival))
  }

  /** Every copy on disk: an earlier version's (under their hashes) first, then this one's in arrival order. */
  *stored(): Iterable<StoredCopy> {
    for (const { key, value } of this.kv.range(keys.pool(new Uint8Array(0)), keys.poolEnd())) yield { key, raw: value, arrival: undefined }
    for (const { key, value } of this.kv.range(keys.poolArrival(0n), keys.poolArrivalEnd())) yield { key, raw: value, arrival: readU64(key, 1) }
  }

  /** A copy `stored` gave back belongs to transaction `hash` (0x-hex), which the pool took again. */
  restored(hash: string, arrival: bigint): void {
    this.arrivals.set(hash, arrival)
  }
}
