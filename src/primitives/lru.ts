/**
 * Caches that drop what was least recently used.
 *
 * `Lru` is bounded by its number of entries (for entries of about one size) and drops in halves: it fills a
 * young generation up to half its count, then that generation becomes the old one (the previous old one is
 * dropped whole) and a new young one starts; reading an entry of the old generation moves it to the young one.
 * It holds the most recently used half of its count at least, its count at most. Why not an exact LRU over one
 * Map (delete and re-insert on use, drop the first key when full): V8's Map leaves a hole per deleted entry,
 * and `keys().next()` walks the holes from the start, so once such a cache was full every insertion paid for
 * thousands of holes: ~33 µs a miss at 65,536 entries on this machine against ~1 µs here
 * (`node --import tsx bench/cache-miss.ts`).
 *
 * `SizedLru` is bounded by entry count AND by a byte budget, each entry weighed once when it is set (by the
 * caller's `sizeOf`, an estimate of what the entry keeps alive): for caches whose entries range from bytes to
 * megabytes (a block's transactions, a call's return data). An entry heavier than the whole budget is not kept.
 * It drops in halves too: a generation closes at half the count or half the budget (the call-result cache, 10,000
 * entries, paid ~12 µs a miss with the one-Map order on this machine).
 */

export class Lru<K, V> {
  private young = new Map<K, V>()
  private old = new Map<K, V>()
  private readonly half: number

  constructor(readonly capacity: number) {
    this.half = Math.max(1, Math.floor(capacity / 2))
  }

  get(key: K): V | undefined {
    const v = this.young.get(key)
    if (v !== undefined) return v
    const aged = this.old.get(key)
    if (aged !== undefined) {
      // a deleted entry of the old generation is never walked over: that Map only shrinks until it is dropped
      this.old.delete(key)
      this.put(key, aged)
    }
    return aged
  }

  set(key: K, value: V): void {
    this.old.delete(key)
    this.put(key, value)
  }

  private put(key: K, value: V): void {
    this.young.set(key, value)
    if (this.young.size >= this.half) {
      this.old = this.young
      this.young = new Map()
    }
  }

  clear(): void {
    this.young = new Map()
    this.old = new Map()
  }

  get size(): number {
    return this.young.size + this.old.size
  }

  /** Every value held (young generation first), for reports; no recency change. */
  *values(): IterableIterator<V> {
    yield* this.young.values()
    yield* this.old.values()
  }

  /** Its figures for primitives/memory-gauges.ts. */
  gauge(): { entries: number; maxEntries: number } {
    return { entries: this.size, maxEntries: this.capacity }
  }
}

export interface SizedLruLimits {
  /** Most entries kept. */
  readonly maxEntries: number
  /** Most bytes kept, as `sizeOf` weighs the entries. */
  readonly maxBytes: number
}

export class SizedLru<K, V> {
  private young = new Generation<K, V>()
  private old = new Generation<K, V>()
  private readonly halfEntries: number
  private readonly halfBytes: number

  constructor(
    readonly limits: SizedLruLimits,
    private readonly sizeOf: (value: V, key: K) => number,
  ) {
    this.halfEntries = Math.max(1, Math.floor(limits.maxEntries / 2))
    this.halfBytes = limits.maxBytes / 2
  }

  get(key: K): V | undefined {
    const entry = this.young.map.get(key)
    if (entry !== undefined) return entry.value
    const aged = this.old.map.get(key)
    if (aged === undefined) return undefined
    this.old.remove(key, aged)
    this.put(key, aged)
    return aged.value
  }

  set(key: K, value: V): void {
    this.delete(key)
    const bytes = this.sizeOf(value, key)
    if (bytes > this.limits.maxBytes) return
    this.put(key, { value, bytes })
  }

  private put(key: K, entry: Weighed<V>): void {
    const young = this.young
    if (young.map.size > 0 && (young.map.size >= this.halfEntries || young.bytes + entry.bytes > this.halfBytes)) {
      this.old = young
      this.young = new Generation()
    }
    this.young.add(key, entry)
    // one entry may weigh more than half the budget: then the old generation goes too if both exceed it
    if (this.young.bytes + this.old.bytes > this.limits.maxBytes) this.old = new Generation()
  }

  delete(key: K): void {
    const y = this.young.map.get(key)
    if (y !== undefined) this.young.remove(key, y)
    const o = this.old.map.get(key)
    if (o !== undefined) this.old.remove(key, o)
  }

  clear(): void {
    this.young = new Generation()
    this.old = new Generation()
  }

  get size(): number {
    return this.young.map.size + this.old.map.size
  }

  /** The weight of the entries kept, in bytes. */
  get bytes(): number {
    return this.young.bytes + this.old.bytes
  }

  /** Its figures for primitives/memory-gauges.ts. */
  gauge(): { entries: number; maxEntries: number; bytes: number; maxBytes: number } {
    return { entries: this.size, maxEntries: this.limits.maxEntries, bytes: this.bytes, maxBytes: this.limits.maxBytes }
  }
}

interface Weighed<V> {
  readonly value: V
  readonly bytes: number
}

/** One generation of a SizedLru: its entries and their weight. */
class Generation<K, V> {
  readonly map = new Map<K, Weighed<V>>()
  bytes = 0

  add(key: K, entry: Weighed<V>): void {
    this.map.set(key, entry)
    this.bytes += entry.bytes
  }

  remove(key: K, entry: Weighed<V>): void {
    this.map.delete(key)
    this.bytes -= entry.bytes
  }
}
