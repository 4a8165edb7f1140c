/**
 * The trie node store of a state-root computation: nodes put are read back at once from its buffer, reach
 * the database only when flushed into a block's batch (and then read from there), and the buffer is empty
 * after a flush.
 */

import assert from 'node:assert/strict'
import { test } from 'node:test'
import { tempDir } from '../../test/support/temp-dir.ts'
import { keccak256 } from '../primitives/keccak.ts'
import { LmdbStore } from '../storage/db.ts'
import { keys } from '../storage/keys.ts'
import { BufferedTrieDb } from './trie-db.ts'

test('put nodes read back from the buffer, reach the database only through flushInto, and read from there', async (t) => {
  const kv = new LmdbStore(tempDir(t))
  t.after(() => kv.close())
  const node = Uint8Array.of(0xc2, 0x01, 0x02)
  const hash = keccak256(node)
  const key = Buffer.from(hash).toString('hex')
  const db = new BufferedTrieDb(kv)
  await db.put(key, node)
  assert.deepEqual(await db.get(key), node)
  assert.equal(kv.get(keys.trie(hash)), undefined, 'not stored before the flush')
  const batch = kv.batch()
  db.flushInto(batch)
  assert.equal(db.pending.size, 0)
  kv.commit(batch)
  assert.deepEqual(new Uint8Array(kv.get(keys.trie(hash))!), node)
  assert.deepEqual(new Uint8Array((await new BufferedTrieDb(kv).get(key))!), node, 'a new store reads it from the database')
  assert.equal(await new BufferedTrieDb(kv).get('00'.repeat(32)), undefined)
})
