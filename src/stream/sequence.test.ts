/**
 * Sequence numbers continued after another leader's (a group takeover): the next number follows the given
 * one, whether ahead of or behind this node's own reservation, and the new reservation is durable, so a
 * restart on the same database never hands out again a number from there on.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { LmdbStore } from '../storage/db.ts'
import { tempDir } from '../../test/support/temp-dir.ts'
import { RESERVE_CHUNK, SequenceNumbers } from './sequence.ts'

test('continueAfter: the numbering goes on after the given number, and a restart starts past it', async (t) => {
  const kv = new LmdbStore(tempDir(t))
  t.after(() => kv.close())
  const own = new SequenceNumbers(kv)
  assert.equal(own.take(), 1)
  own.continueAfter(5_000_000)
  assert.equal(own.take(), 5_000_001)
  own.continueAfter(40)
  assert.deepEqual([own.take(), own.take()], [41, 42], 'behind its own reservation too: the stream decides')
  const restarted = new SequenceNumbers(kv)
  assert.equal(restarted.peek(), 40 + RESERVE_CHUNK + 1, 'after the reservation made at the continuation')
  assert.throws(() => own.continueAfter(-1), RangeError)
})
