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
 * It keeps the exact order of use (its caches hold a few thousand entries at most).
 */

export class Lru<K, V> {
  private young = new Map<K, V>()
  private old = new Map<K, V>()
  private readonly half: number

  constructor(capacity: number) {
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
}

export interface SizedLruLimits {
  /** Most entries kept. */
  readonly maxEntries: number
  /** Most bytes kept, as `sizeOf` weighs the entries. */
  readonly maxBytes: number
}

export class SizedLru<K, V> {
  private readonly map = new Map<K, { readonly value: V; readonly bytes: number }>()
  private total = 0

  constructor(
    readonly limits: SizedLruLimits,
    private readonly sizeOf: (value: V, key: K) => number,
  ) {}

  get(key: K): V | undefined {
    const entry = this.map.get(key)
    if (entry === undefined) return undefined
    this.map.delete(key)
    this.map.set(key, entry)
    return entry.value
  }

  set(key: K, value: V): void {
    this.delete(key)
    const bytes = this.sizeOf(value, key)
    if (bytes > this.limits.maxBytes) return
    this.map.set(key, { value, bytes })
    this.total += bytes
    while (this.map.size > this.limits.maxEntries || this.total > this.limits.maxBytes) {
      this.delete(this.map.keys().next().value as K)
    }
  }

  delete(key: K): void {
    const entry = this.map.get(key)
    if (entry === undefined) return
    this.map.delete(key)
    this.total -= entry.bytes
  }

  clear(): void {
    this.map.clear()
    this.total = 0
  }

  get size(): number {
    return this.map.size
  }

  /** The weight of the entries kept, in bytes. */
  get bytes(): number {
    return this.total
  }
}
