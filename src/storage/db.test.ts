/**
 * LmdbStore over a real directory: any directory name opens as a directory, including one whose name looks
 * like a file with an extension (`chain.v2`, mkdtemp's `tmp.Xa81`), and what was committed is there after a
 * reopen.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { tempDir } from '../../test/support/temp-dir.ts'
import { LmdbStore } from './db.ts'

for (const name of ['chain.v2', 'tmp.Xa81', '.flashnode', 'plain']) {
  test(`a data directory named ${name} opens, keeps its data inside it, and reopens`, async (t) => {
    const dir = join(tempDir(t), name)
    const key = new Uint8Array([1, 2, 3])
    const first = new LmdbStore(dir)
    const batch = first.batch()
    batch.put(key, new Uint8Array([42]))
    first.commit(batch)
    await first.close()

    assert.ok(statSync(dir).isDirectory())
    assert.ok(readdirSync(dir).includes('data.mdb'), `the database file is inside ${name}/`)
    const again = new LmdbStore(dir)
    t.after(() => again.close())
    assert.deepEqual([...(again.get(key) ?? [])], [42])
  })
}

test('floor answers the greatest key in [low, high], low and high included, whether low ends in a zero byte or not', async (t) => {
  const kv = new LmdbStore(tempDir(t))
  t.after(() => kv.close())
  const key = (...bytes: number[]) => new Uint8Array([7, 7, ...bytes])
  const batch = kv.batch()
  for (const k of [key(0, 0), key(0, 5), key(1, 0), key(2, 9), [7, 6, 255, 255], [7, 8]]) batch.put(new Uint8Array(k), new Uint8Array([k.at(-2)!, k.at(-1)!]))
  kv.commit(batch)
  const floor = (low: Uint8Array, high: Uint8Array) => {
    const hit = kv.floor(low, high)
    return hit === undefined ? undefined : [...hit.key]
  }
  assert.deepEqual(floor(key(0, 0), key(0, 0)), [...key(0, 0)], 'only low, low ends in zero')
  assert.deepEqual(floor(key(0, 0), key(0, 4)), [...key(0, 0)])
  assert.deepEqual(floor(key(0, 0), key(0, 200)), [...key(0, 5)])
  assert.deepEqual(floor(key(0, 0), key(3, 0)), [...key(2, 9)])
  assert.deepEqual(floor(key(0, 1), key(0, 4)), undefined, 'low ends in a non-zero byte, nothing in range')
  assert.deepEqual(floor(key(0, 5), key(0, 9)), [...key(0, 5)], 'only low, low ends in a non-zero byte')
  assert.deepEqual(floor(key(1, 1), key(2, 8)), undefined, 'nothing between, keys on both sides')
  assert.deepEqual(floor(key(1, 0), key(1, 0)), [...key(1, 0)])
  assert.deepEqual(floor(new Uint8Array([7, 7, 0]), key(0, 0)), [...key(0, 0)], 'a shorter low ending in zero')
  assert.deepEqual(floor(key(0, 0), key(0, 0).subarray(0, 3)), undefined, 'high below every key in the range')
})
