/**
 * Reads of the archive that find nothing: a slot never written reads as zero, the empty-code hash reads as
 * no code, and a code hash read before its code is stored reads the code once a block has stored it (the
 * miss is not remembered).
 */

import assert from 'node:assert/strict'
import { test } from 'node:test'
import { Account, KECCAK256_NULL } from '@ethereumjs/util'
import { tempDir } from '../../test/support/temp-dir.ts'
import { keccak256 } from '../primitives/keccak.ts'
import { LmdbStore } from '../storage/db.ts'
import { keys } from '../storage/keys.ts'
import { ArchiveReader } from './archive-reader.ts'

const A = new Uint8Array(20).fill(0xa1)

test('a slot never written reads as zero, also for an account whose storage was wiped', async (t) => {
  const kv = new LmdbStore(tempDir(t))
  t.after(() => kv.close())
  const batch = kv.batch()
  batch.put(keys.account(A, 1n), new Account(1n, 1n).serialize())
  batch.put(keys.wipe(A, 1n), new Uint8Array(0))
  kv.commit(batch)
  assert.deepEqual(new ArchiveReader(kv, 1n).getStorage(A, new Uint8Array(32).fill(3)), new Uint8Array(0))
  assert.deepEqual(new ArchiveReader(kv, 1n).getStorage(new Uint8Array(20).fill(0xb2), new Uint8Array(32)), new Uint8Array(0))
})

test('the empty-code hash reads as no code; a code read before it is stored reads once stored', async (t) => {
  const kv = new LmdbStore(tempDir(t))
  t.after(() => kv.close())
  assert.deepEqual(new ArchiveReader(kv, 0n).getCode(KECCAK256_NULL), new Uint8Array(0))
  const code = Uint8Array.of(0x60, 0x01, 0xf3)
  const hash = keccak256(code)
  assert.deepEqual(new ArchiveReader(kv, 0n).getCode(hash), new Uint8Array(0), 'not stored yet')
  const batch = kv.batch()
  batch.put(keys.code(hash), code)
  kv.commit(batch)
  assert.deepEqual(new ArchiveReader(kv, 1n).getCode(hash), code)
})
