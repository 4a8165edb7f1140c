/**
 * The latest-state tables: for every account, storage slot and wipe, a copy of its newest history entry
 * under a key without a block number (storage/keys.ts: latestAccount, latestStorage, latestWipe), holding
 * that entry's block number and value.
 *
 * Why: a state read at block N is "the newest history entry at or below N", an ordered-key floor in LMDB
 * (~6 µs through lmdb-js's range iterator). Nearly every read is at the head or the block under the open
 * one, where the newest entry of the item is the answer: one point lookup (~2 µs). A read at an older block
 * whose item changed since falls back to the floor. An item without a latest entry was never written: the
 * answer is "absent" at every block, without a floor either.
 *
 * Invariants: written by writeStateHistory in the same batch as the history entry it mirrors (blocks are
 * only appended, so the newest entry only moves forward), with meta 'latestState' = the number of the block
 * whose history the tables mirror through. At open (`buildLatestState`), tables that do not mirror through
 * the head (a database from before the tables, or one an older version of the node sealed blocks in since)
 * are rebuilt from the history in one commit. Readers use the tables only when the flag is set
 * (archive-reader.ts); without it they read floors, which are always right.
 */

import type { KvStore, WriteBatch } from '../storage/db.ts'
import { historyKeyBlock, keys, latestKeyOfHistoryKey, readU64, sameHistoryItem, u64 } from '../storage/keys.ts'

const FLAG = keys.meta('latestState')

/** The block number of a latest-state value. */
export const latestBlock = (entry: Uint8Array): bigint => readU64(entry, 0)

/** The value of a latest-state value (a view). */
export const latestValue = (entry: Uint8Array): Uint8Array => entry.subarray(8)

const known = new WeakMap<KvStore, boolean>()

/** Whether `store` has the latest-state tables (read once per store: the flag is never unset). */
export function hasLatestState(store: KvStore): boolean {
  let has = known.get(store)
  if (has === undefined) known.set(store, (has = store.get(FLAG) !== undefined))
  return has
}

/** Records, in a block's batch, that the tables mirror the history through `block`. */
export function markLatestThrough(batch: WriteBatch, block: bigint): void {
  batch.put(FLAG, u64(block))
}

/** Whether the tables mirror the history through `head` (or there is no chain yet): nothing to build. */
export function latestStateReaches(store: KvStore, head: bigint | undefined): boolean {
  if (head === undefined) return true
  const flag = store.get(FLAG)
  return flag !== undefined && readU64(flag) === head
}

/**
 * Makes the latest-state tables mirror the history through `head` (the chain's head block; undefined: no
 * chain yet, and its genesis will write them): when they do not, every item's newest history entry is
 * copied (one scan of the three history tables) with the flag, in one commit. Returns the number of items
 * copied. Called once at open, before anything reads state.
 */
export function buildLatestState(store: KvStore, head: bigint | undefined): number {
  if (head === undefined || latestStateReaches(store, head)) return 0
  const batch = store.batch()
  let items = 0
  for (const table of ['account', 'storage', 'wipe'] as const) {
    const { start, end } = keys.historyTable(table)
    // Keys sort by item, then block: an item's newest entry is the last before the next item begins.
    let previous: { key: Uint8Array; value: Uint8Array } | undefined
    const flush = (): void => {
      if (previous === undefined) return
      writeLatest(batch, latestKeyOfHistoryKey(previous.key), historyKeyBlock(previous.key), previous.value)
      items++
    }
    for (const entry of store.range(start, end)) {
      if (previous !== undefined && !sameHistoryItem(previous.key, entry.key)) flush()
      previous = { key: new Uint8Array(entry.key), value: new Uint8Array(entry.value) }
    }
    flush()
  }
  markLatestThrough(batch, head)
  store.commit(batch)
  known.delete(store)
  return items
}

/**
 * Puts the latest-state entry `key` (keys.latestAccount / latestStorage / latestWipe): `value` as of `block`,
 * stored as the block number (8 bytes) followed by the value.
 */
export function writeLatest(batch: WriteBatch, key: Uint8Array, block: bigint, value: Uint8Array): void {
  const entry = new Uint8Array(8 + value.length)
  entry.set(u64(block))
  entry.set(value, 8)
  batch.put(key, entry)
}
