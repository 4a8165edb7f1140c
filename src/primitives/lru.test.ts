import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Lru, SizedLru } from './lru.ts'

test('Lru keeps at least the most recent half of its count and never more than its count', () => {
  const lru = new Lru<number, number>(10)
  for (let i = 0; i < 1000; i++) {
    lru.set(i, i * 2)
    assert.ok(lru.size <= 10, `${lru.size} entries after ${i + 1} insertions`)
    for (let back = 0; back < 5 && back <= i; back++) assert.equal(lru.get(i - back), (i - back) * 2, `entry ${i - back} after inserting ${i}`)
  }
  assert.equal(lru.get(0), undefined)
})

test('Lru keeps an entry that is read while others come and go, and drops one that is not', () => {
  const lru = new Lru<string, number>(4)
  lru.set('hot', 1)
  lru.set('cold', 2)
  for (let i = 0; i < 100; i++) {
    lru.set(`k${i}`, i)
    assert.equal(lru.get('hot'), 1, `after ${i + 1} more`)
  }
  assert.equal(lru.get('cold'), undefined)
  lru.set('hot', 5) // a new value replaces the old, wherever it was kept
  lru.set('x', 0)
  lru.set('y', 0)
  assert.equal(lru.get('hot'), 5)
  lru.clear()
  assert.equal(lru.size, 0)
  assert.equal(lru.get('hot'), undefined)
})

test('SizedLru evicts the least recently used until both its count and its byte budget hold', () => {
  const lru = new SizedLru<string, string>({ maxEntries: 10, maxBytes: 10 }, (v) => v.length)
  lru.set('a', 'xxxx')
  lru.set('b', 'yyyy')
  assert.equal(lru.bytes, 8)
  lru.get('a')
  lru.set('c', 'zzz') // 11 bytes: b, the least recent, goes
  assert.deepEqual([lru.get('a'), lru.get('b'), lru.get('c')], ['xxxx', undefined, 'zzz'])
  assert.equal(lru.bytes, 7)
  lru.set('a', 'x') // replacing an entry re-weighs it
  assert.equal(lru.bytes, 4)
  const counted = new SizedLru<number, string>({ maxEntries: 2, maxBytes: 100 }, (v) => v.length)
  for (let i = 0; i < 5; i++) counted.set(i, 'v')
  assert.deepEqual([counted.size, counted.get(3), counted.get(4), counted.get(2)], [2, 'v', 'v', undefined])
})

test('SizedLru does not keep an entry heavier than its whole budget, and keeps the others', () => {
  const lru = new SizedLru<string, string>({ maxEntries: 10, maxBytes: 5 }, (v) => v.length)
  lru.set('small', 'ab')
  lru.set('huge', 'abcdefgh')
  assert.equal(lru.get('huge'), undefined)
  assert.equal(lru.get('small'), 'ab')
  assert.equal(lru.bytes, 2)
})

test('SizedLru holds its count and budget under churn, and keeps the newest entries and the ones read', () => {
  const lru = new SizedLru<number, string>({ maxEntries: 8, maxBytes: 40 }, (v) => v.length)
  lru.set(-1, 'hot')
  for (let i = 0; i < 500; i++) {
    lru.set(i, 'x'.repeat(1 + (i % 9)))
    assert.ok(lru.size <= 8 && lru.bytes <= 40, `${lru.size} entries, ${lru.bytes} bytes after ${i + 1}`)
    assert.equal(lru.get(i), 'x'.repeat(1 + (i % 9)))
    assert.equal(lru.get(-1), 'hot', `the entry read every time, after ${i + 1}`)
  }
  lru.set(1000, 'y'.repeat(30)) // more than half the budget: kept, with what fits beside it
  assert.equal(lru.get(1000), 'y'.repeat(30))
  assert.ok(lru.bytes <= 40)
  lru.delete(1000)
  assert.equal(lru.get(1000), undefined)
})
