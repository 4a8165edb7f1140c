/**
 * Storage words and accounts at one sealed block by bigint address (and slot), as the EVM asks for them.
 *
 * Why: a slot read through the byte-keyed path converts the address and slot to bytes, builds a ~60-character
 * string key and looks it up in the history cache (history-cache.ts), then converts the value back: ~3 µs a
 * read on this machine, 15% of a worker's time in a multicall of 50 balanceOf. A Map lookup by bigint (V8
 * hashes a BigInt by its low digit) answers a read seen before in ~0.1-0.2 µs. An account read the same way
 * also skips decoding its RLP and copying it twice (the accounts are shared: their readers never mutate them).
 *
 * Safe for the history-cache's reason: the state at a block that exists never changes, and callers ask only
 * for blocks in their own view of the database. Bounded: entries go in halves (young and old generations,
 * as primitives/lru.ts does), and each thread keeps the caches of its few newest-asked blocks per database.
 */

import { Lru } from '../primitives/lru.ts'
import { registerGauge } from '../primitives/memory-gauges.ts'
import type { KvStore } from '../storage/db.ts'
import type { AccountWord } from './state-reader.ts'

/** Entries per block (both generations): ~120 bytes of heap each, so ~4 MB a block at most. */
const ENTRIES = 32_768
/** Blocks whose words a thread keeps per database (a sealed head, the one before it, an archive read or two). */
const BLOCKS = 4

type Words = Map<bigint, Map<bigint, bigint>>

/**
 * primitives/lru.ts's generations over words nested by address (a lookup makes no combined key) and counted
 * per word, so one contract's many slots cannot grow it past its bound.
 */
export class WordCache {
  private young: Words = new Map()
  private old: Words = new Map()
  private youngCount = 0
  private oldCount = 0

  constructor(private readonly half = ENTRIES / 2) {}

  /** Words held (both generations; a word moved up from the old one counts twice until that is dropped). */
  get size(): number {
    return this.youngCount + this.oldCount
  }

  /** The most words it holds. */
  get capacity(): number {
    return 2 * this.half
  }

  get(address: bigint, slot: bigint): bigint | undefined {
    const v = this.young.get(address)?.get(slot)
    if (v !== undefined) return v
    const aged = this.old.get(address)?.get(slot)
    // moved up: an entry read again stays when the old generation is dropped (it is never deleted from it)
    if (aged !== undefined) this.set(address, slot, aged)
    return aged
  }

  set(address: bigint, slot: bigint, value: bigint): void {
    let slots = this.young.get(address)
    if (slots === undefined) this.young.set(address, (slots = new Map()))
    if (slots.has(slot)) return
    slots.set(slot, value)
    if (++this.youngCount >= this.half) {
      this.old = this.young
      this.oldCount = this.youngCount
      this.young = new Map()
      this.youngCount = 0
    }
  }
}

/** Accounts per block (both generations): ~400 bytes of heap each (the library's Account), ~6 MB a block at most. */
const ACCOUNTS = 16_384

/** What a thread keeps of one block. */
export interface BlockWords {
  readonly slots: WordCache
  /** By bigint address (null: absent), in halves as primitives/lru.ts keeps them. */
  readonly accounts: Lru<bigint, AccountWord | null>
}

const perStore = new WeakMap<KvStore, { block: bigint; words: BlockWords }[]>()

/** The words of `block` in `store` on this thread (most recently asked blocks first). */
export function wordsAt(store: KvStore, block: bigint): BlockWords {
  let list = perStore.get(store)
  if (list === undefined) {
    perStore.set(store, (list = []))
    registerGauge('word-cache slots', list, (blocks) => ({
      entries: blocks.reduce((n, e) => n + e.words.slots.size, 0),
      maxEntries: BLOCKS * ENTRIES,
    }))
    registerGauge('word-cache accounts', list, (blocks) => ({
      entries: blocks.reduce((n, e) => n + e.words.accounts.size, 0),
      maxEntries: BLOCKS * ACCOUNTS,
    }))
  }
  const first = list[0]
  if (first !== undefined && first.block === block) return first.words
  const i = list.findIndex((e) => e.block === block)
  const entry = i >= 0 ? list.splice(i, 1)[0]! : { block, words: { slots: new WordCache(), accounts: new Lru<bigint, AccountWord | null>(ACCOUNTS) } }
  list.unshift(entry)
  if (list.length > BLOCKS) list.pop()
  return entry.words
}
