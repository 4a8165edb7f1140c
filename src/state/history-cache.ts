/**
 * Remembered answers of the flat history tables, per database: "the account / slot as of block N".
 *
 * Why: every state read at a sealed block is an ordered-key floor lookup in LMDB (~10 µs, two for a storage
 * slot because of wipes), and the same hot accounts and slots are read over and over at the same head.
 *
 * Invariant that makes it safe: the history at or below a block that exists never changes (blocks are only
 * ever appended; a block's history lands in the same atomic batch that makes the block exist). Callers ask
 * only for blocks that exist in their own view of the database (the resolver, the builder's parent, a
 * worker's job target once its view holds it: execution/worker-main.ts), so an answer, once read, is the
 * answer forever. Entries are raw stored bytes; readers copy or decode them, so nothing shared is ever
 * handed out to be mutated. Bounded: least recently used entries go first (primitives/lru.ts: in halves).
 */

import { bytesKey } from '../primitives/bytes-key.ts'
import { Lru, SizedLru } from '../primitives/lru.ts'
import { registerGauge } from '../primitives/memory-gauges.ts'
import type { KvStore } from '../storage/db.ts'

/** ~430 bytes of heap an entry (key, RLP, arrays): ~14 MB per thread when full. */
const ACCOUNTS = 32_768
/** ~280 bytes an entry: ~18 MB per thread when full. */
const SLOTS = 65_536
/** A contract's newest storage wipe at or below a block, read once for all its slots: ~150 bytes an entry. */
const WIPES = 16_384
/** Code is content-addressed (by its hash), so it never changes either; kept for hot contracts only. */
const CODES = 1_024
const CODE_BYTES = 8 * 1024 * 1024

/** `undefined` = never read; `null` = read, and absent. */
export type Remembered = Uint8Array | null

export interface HistoryCache {
  readonly accounts: Lru<string, Remembered>
  readonly slots: Lru<string, Remembered>
  /** The block of an account's newest storage wipe at or below the key's block; null: none. */
  readonly wipes: Lru<string, bigint | null>
  /** Contract code by code hash (bytesKey), at most CODE_BYTES of it. */
  readonly codes: SizedLru<string, Uint8Array>
}

const perStore = new WeakMap<KvStore, HistoryCache>()

export function historyCacheOf(store: KvStore): HistoryCache {
  let cache = perStore.get(store)
  if (cache === undefined) {
    cache = {
      accounts: new Lru(ACCOUNTS),
      slots: new Lru(SLOTS),
      wipes: new Lru(WIPES),
      codes: new SizedLru({ maxEntries: CODES, maxBytes: CODE_BYTES }, (code) => code.length + 128),
    }
    perStore.set(store, cache)
    registerGauge('history accounts', cache.accounts, (c) => c.gauge())
    registerGauge('history slots', cache.slots, (c) => c.gauge())
    registerGauge('history wipes', cache.wipes, (c) => c.gauge())
    registerGauge('history codes', cache.codes, (c) => c.gauge())
  }
  return cache
}

/** The part of every cache key at a block that names the block (a reader makes it once). */
export function blockPrefix(block: bigint): string {
  return block.toString(36)
}

/** The cache key of an item at a block: the block's prefix, then the item's bytes (primitives/bytes-key.ts;
 * an address is always 20 bytes and a slot 32, so the parts never run into each other). */
export function itemKey(prefix: string, address: Uint8Array, slot?: Uint8Array): string {
  return slot === undefined ? prefix + ':' + bytesKey(address) : prefix + ':' + bytesKey(address) + ':' + bytesKey(slot)
}
