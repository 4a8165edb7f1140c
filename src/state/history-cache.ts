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
 *
 * Kept per block, for the few blocks most recently asked (as word-cache.ts keeps words): an answer is by
 * block, and reads come at the head, which moves every block, so entries of a block the head has left are
 * almost never asked again. One cache keyed by block and item (as before issue 43) filled with those dead
 * entries up to its bound, which at a few hundred reads a second took the better part of an hour: the node's
 * memory rose that long. Now a block's caches go when it leaves the few most recently asked, and a node's
 * memory follows its read rate within a few blocks; the bound over all blocks is what one cache had.
 *
 * It serves the byte reads (archive-reader.ts getAccount, getStorage). The EVM's reads by word go to the word
 * cache (word-cache.ts), whose misses read the tables directly: this cache is smaller, so it missed them too.
 */

import { bytesKey } from '../primitives/bytes-key.ts'
import { Lru, SizedLru } from '../primitives/lru.ts'
import { registerGauge } from '../primitives/memory-gauges.ts'
import type { KvStore } from '../storage/db.ts'

/** Blocks whose answers a thread keeps per database (the head, the one before it, an archive read or two). */
const BLOCKS = 4
/** Accounts per block: ~430 bytes of heap an entry (key, RLP, arrays): ~14 MB per thread over BLOCKS when full. */
const ACCOUNTS = 8_192
/** Slots per block: ~280 bytes an entry: ~18 MB per thread over BLOCKS when full. */
const SLOTS = 16_384
/** A contract's newest storage wipe at or below a block, read once for all its slots: ~150 bytes an entry. */
const WIPES = 4_096
/** Code is content-addressed (by its hash), so it never changes either; kept for hot contracts only, across blocks. */
const CODES = 1_024
const CODE_BYTES = 8 * 1024 * 1024

/** `undefined` = never read; `null` = read, and absent. */
export type Remembered = Uint8Array | null

/** What a thread keeps of one block, by item (keys: `itemKey`). */
export interface BlockHistory {
  readonly accounts: Lru<string, Remembered>
  readonly slots: Lru<string, Remembered>
  /** The block of an account's newest storage wipe at or below this block; null: none. */
  readonly wipes: Lru<string, bigint | null>
}

interface StoreHistory {
  /** Most recently asked first, at most BLOCKS. */
  readonly blocks: { block: bigint; history: BlockHistory }[]
  /** Contract code by code hash (bytesKey), at most CODE_BYTES of it. */
  readonly codes: SizedLru<string, Uint8Array>
}

const perStore = new WeakMap<KvStore, StoreHistory>()

function storeHistory(store: KvStore): StoreHistory {
  let h = perStore.get(store)
  if (h === undefined) {
    h = { blocks: [], codes: new SizedLru({ maxEntries: CODES, maxBytes: CODE_BYTES }, (code) => code.length + 128) }
    perStore.set(store, h)
    const sum = (pick: (b: BlockHistory) => Lru<string, unknown>) => (x: StoreHistory) => x.blocks.reduce((n, e) => n + pick(e.history).size, 0)
    const accounts = sum((b) => b.accounts)
    const slots = sum((b) => b.slots)
    const wipes = sum((b) => b.wipes)
    registerGauge('history accounts', h, (x) => ({ entries: accounts(x), maxEntries: BLOCKS * ACCOUNTS }))
    registerGauge('history slots', h, (x) => ({ entries: slots(x), maxEntries: BLOCKS * SLOTS }))
    registerGauge('history wipes', h, (x) => ({ entries: wipes(x), maxEntries: BLOCKS * WIPES }))
    registerGauge('history codes', h.codes, (c) => c.gauge())
  }
  return h
}

/** The answers kept for `block` in `store` on this thread (made when first asked). */
export function historyAt(store: KvStore, block: bigint): BlockHistory {
  const list = storeHistory(store).blocks
  const first = list[0]
  if (first !== undefined && first.block === block) return first.history
  const i = list.findIndex((e) => e.block === block)
  const entry = i >= 0 ? list.splice(i, 1)[0]! : { block, history: { accounts: new Lru<string, Remembered>(ACCOUNTS), slots: new Lru<string, Remembered>(SLOTS), wipes: new Lru<string, bigint | null>(WIPES) } }
  list.unshift(entry)
  if (list.length > BLOCKS) list.pop()
  return entry.history
}

/** The code cache of `store` on this thread (every block's). */
export function codesOf(store: KvStore): SizedLru<string, Uint8Array> {
  return storeHistory(store).codes
}

/** The cache key of an item of a block: its bytes (primitives/bytes-key.ts; an address is always 20 bytes and
 * a slot 32, so the parts never run into each other). */
export function itemKey(address: Uint8Array, slot?: Uint8Array): string {
  return slot === undefined ? bytesKey(address) : bytesKey(address) + bytesKey(slot)
}
