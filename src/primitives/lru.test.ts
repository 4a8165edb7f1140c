import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Lru, SizedLru } from './lru.ts'

test('Lru keeps the most recently used entries up to its count', () => {
  const lru = new Lru<string, number>(2)
  lru.set('a', 1)
  lru.set('b', 2)
  assert.equal(lru.get('a'), 1) // a is now the most recent
  lru.set('c', 3)
  assert.equal(lru.get('b'), undefined)
  assert.equal(lru.get('a'), 1)
  assert.equal(lru.size, 2)
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
