/**
 * A binary min-heap whose items remember their own position, so that an item whose key changed can be
 * re-sifted, or removed, in O(log n) without a search.
 *
 * Invariant: an item is in at most one IndexedHeap at a time; `heapIndex` is its position there, -1 outside.
 * The order is whatever `before(a, b)` says (true: a comes out first); if the ordering itself changes
 * (e.g. it reads a base fee that moved), call `rebuild()`.
 */

export interface HeapItem {
  heapIndex: number
}

export class IndexedHeap<T extends HeapItem> {
  private readonly items: T[] = []

  constructor(private readonly before: (a: T, b: T) => boolean) {}

  get size(): number {
    return this.items.length
  }

  peek(): T | undefined {
    return this.items[0]
  }

  /** The items in heap order of storage (not sorted); do not mutate. */
  values(): readonly T[] {
    return this.items
  }

  has(item: T): boolean {
    return item.heapIndex >= 0 && this.items[item.heapIndex] === item
  }

  push(item: T): void {
    item.heapIndex = this.items.length
    this.items.push(item)
    this.up(item.heapIndex)
  }

  pop(): T | undefined {
    const top = this.items[0]
    if (top !== undefined) this.removeAt(0)
    return top
  }

  remove(item: T): void {
    if (this.has(item)) this.removeAt(item.heapIndex)
  }

  /** Restores the order after `item`'s key changed. */
  update(item: T): void {
    if (!this.has(item)) return
    if (!this.up(item.heapIndex)) this.down(item.heapIndex)
  }

  rebuild(): void {
    for (let i = (this.items.length >> 1) - 1; i >= 0; i--) this.down(i)
  }

  private removeAt(i: number): void {
    const items = this.items
    const removed = items[i]!
    const last = items.pop()!
    removed.heapIndex = -1
    if (i === items.length) return
    items[i] = last
    last.heapIndex = i
    if (!this.up(i)) this.down(i)
  }

  /** Returns whether the item moved. */
  private up(i: number): boolean {
    const items = this.items
    const item = items[i]!
    const start = i
    while (i > 0) {
      const parent = (i - 1) >> 1
      const p = items[parent]!
      if (!this.before(item, p)) break
      items[i] = p
      p.heapIndex = i
      i = parent
    }
    items[i] = item
    item.heapIndex = i
    return i !== start
  }

  private down(i: number): void {
    const items = this.items
    const n = items.length
    const item = items[i]!
    for (;;) {
      const l = 2 * i + 1
      if (l >= n) break
      const r = l + 1
      const child = r < n && this.before(items[r]!, items[l]!) ? r : l
      const c = items[child]!
      if (!this.before(c, item)) break
      items[i] = c
      c.heapIndex = i
      i = child
    }
    items[i] = item
    item.heapIndex = i
  }
}
