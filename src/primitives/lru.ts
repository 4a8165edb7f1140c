/**
 * Least-recently-used maps: Map insertion order is the recency order.
 *
 * `Lru` is bounded by its number of entries: for entries of about one size. `SizedLru` is bounded by entry
 * count AND by a byte budget, each entry weighed once when it is set (by the caller's `sizeOf`, an estimate
 * of what the entry keeps alive): for caches whose entries range from bytes to megabytes (a block's
 * transactions, a call's return data). An entry heavier than the whole budget is not kept.
 */

export class Lru<K, V> {
  private readonly map = new Map<K, V>()

  constructor(private readonly capacity: number) {}

  get(key: K): V | undefined {
    const v = this.map.get(key)
    if (v !== undefined) {
      this.map.delete(key)
      this.map.set(key, v)
    }
    return v
  }

  set(key: K, value: V): void {
    this.map.delete(key)
    this.map.set(key, value)
    if (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value as K)
  }

  clear(): void {
    this.map.clear()
  }

  get size(): number {
    return this.map.size
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
