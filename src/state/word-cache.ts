/**
 * Storage words at one sealed block by bigint address and slot, as the EVM asks for them.
 *
 * Why: a slot read through the byte-keyed path converts the address and slot to bytes, builds a ~60-character
 * string key and looks it up in the history cache (history-cache.ts), then converts the value back: ~3 µs a
 * read on this machine, 15% of a worker's time in a multicall of 50 balanceOf. A Map lookup by bigint (V8
 * hashes a BigInt by its low digit) answers a read seen before in ~0.1-0.2 µs.
 *
 * Safe for the history-cache's reason: the state at a block that exists never changes, and callers ask only
 * for blocks in their own view of the database. Bounded: entries go in halves (young and old generations,
 * as primitives/lru.ts does), and each thread keeps the caches of its few newest-asked blocks per database.
 */

import type { KvStore } from '../storage/db.ts'

/** Entries per block (both generations): ~120 bytes of heap each, so ~4 MB a block at most. */
const ENTRIES = 32_768
/** Blocks whose words a thread keeps per database (a sealed head, the one before it, an archive read or two). */
const BLOCKS = 4

type Words = Map<bigint, Map<bigint, bigint>>

export class WordCache {
  private young: Words = new Map()
  private old: Words = new Map()
  private youngCount = 0

  constructor(private readonly half = ENTRIES / 2) {}

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
      this.young = new Map()
      this.youngCount = 0
    }
  }
}

const perStore = new WeakMap<KvStore, { block: bigint; words: WordCache }[]>()

/** The word cache of `block` in `store` on this thread (most recently asked blocks first). */
export function wordsAt(store: KvStore, block: bigint): WordCache {
  let list = perStore.get(store)
  if (list === undefined) perStore.set(store, (list = []))
  const first = list[0]
  if (first !== undefined && first.block === block) return first.words
  const i = list.findIndex((e) => e.block === block)
  const entry = i >= 0 ? list.splice(i, 1)[0]! : { block, words: new WordCache() }
  list.unshift(entry)
  if (list.length > BLOCKS) list.pop()
  return entry.words
}
