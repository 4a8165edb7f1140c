import { test } from 'node:test'
import assert from 'node:assert/strict'
import { IndexedHeap } from './heap.ts'

interface Item {
  key: number
  heapIndex: number
}

function rng(seed: number): () => number {
  let s = seed
  return () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648
}

test('pops in order through pushes, key updates and removals', () => {
  const random = rng(7)
  const heap = new IndexedHeap<Item>((a, b) => a.key < b.key)
  const live = new Set<Item>()
  for (let i = 0; i < 2000; i++) {
    const r = random()
    if (r < 0.5 || live.size === 0) {
      const item = { key: Math.floor(random() * 1000), heapIndex: -1 }
      heap.push(item)
      live.add(item)
    } else if (r < 0.7) {
      const item = [...live][Math.floor(random() * live.size)]!
      item.key = Math.floor(random() * 1000)
      heap.update(item)
    } else if (r < 0.85) {
      const item = [...live][Math.floor(random() * live.size)]!
      heap.remove(item)
      live.delete(item)
      assert.equal(item.heapIndex, -1)
      assert.equal(heap.has(item), false)
    } else {
      const min = Math.min(...[...live].map((x) => x.key))
      const top = heap.pop()!
      assert.equal(top.key, min)
      live.delete(top)
    }
    assert.equal(heap.size, live.size)
  }
  const rest: number[] = []
  for (let x = heap.pop(); x !== undefined; x = heap.pop()) rest.push(x.key)
  assert.deepEqual(rest, [...live].map((x) => x.key).sort((a, b) => a - b))
})

test('rebuild restores the order after the ordering itself changed', () => {
  let sign = 1
  const heap = new IndexedHeap<Item>((a, b) => sign * a.key < sign * b.key)
  for (const key of [5, 1, 9, 3, 7]) heap.push({ key, heapIndex: -1 })
  assert.equal(heap.peek()!.key, 1)
  sign = -1
  heap.rebuild()
  assert.deepEqual([heap.pop()!.key, heap.pop()!.key, heap.pop()!.key], [9, 7, 5])
})
