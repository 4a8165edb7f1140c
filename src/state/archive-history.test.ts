/**
 * Block diffs written to the archive (writeStateHistory) and read back at any block (ArchiveReader): a
 * deleted account reads as absent from its block on and as it was before it; a wipe hides the slots written
 * before it, while slots written in the wipe's own block (after it, as a diff keeps them) stay; code is kept
 * by hash; and the trie nodes of the state-root result go into the same batch.
 */

import assert from 'node:assert/strict'
import { test } from 'node:test'
import { Account } from '@ethereumjs/util'
import { tempDir } from '../../test/support/temp-dir.ts'
import { bytesToHex } from '../primitives/hex.ts'
import { keccak256 } from '../primitives/keccak.ts'
import { LmdbStore } from '../storage/db.ts'
import { keys } from '../storage/keys.ts'
import { ArchiveReader } from './archive-reader.ts'
import type { StateDiff } from './state-diff.ts'
import { writeStateHistory } from './state-history.ts'
import { BufferedTrieDb } from './trie-db.ts'

const A = new Uint8Array(20).fill(0xa1)
const S1 = new Uint8Array(32).fill(0x01)
const S2 = new Uint8Array(32).fill(0x02)
const h = bytesToHex

/** Writes block `n`: `diff` with `accounts` as the state-root result's final accounts. */
function writeBlock(kv: LmdbStore, n: bigint, diff: Partial<StateDiff>, trieNodes: [string, Uint8Array][] = []): void {
  const full: StateDiff = { accounts: new Map(), storage: new Map(), wiped: new Set(), codes: new Map(), ...diff }
  const trieDb = new BufferedTrieDb(kv)
  for (const [k, v] of trieNodes) trieDb.pending.set(k, v)
  const batch = kv.batch()
  writeStateHistory(batch, n, full, { root: new Uint8Array(32), accounts: full.accounts, trieDb })
  kv.commit(batch)
}

test('a deleted account reads as absent from its block on, and as it was before', async (t) => {
  const kv = new LmdbStore(tempDir(t))
  t.after(() => kv.close())
  writeBlock(kv, 1n, { accounts: new Map([[h(A), new Account(1n, 5n)]]) })
  writeBlock(kv, 2n, { accounts: new Map([[h(A), null]]), wiped: new Set([h(A)]) })
  assert.equal(new ArchiveReader(kv, 1n).getAccount(A)?.balance, 5n)
  assert.equal(new ArchiveReader(kv, 2n).getAccount(A), undefined)
  assert.equal(new ArchiveReader(kv, 3n).getAccount(A), undefined)
})

test('a wipe hides earlier slots, but not the slots written in its own block', async (t) => {
  const kv = new LmdbStore(tempDir(t))
  t.after(() => kv.close())
  const account = new Map([[h(A), new Account(1n, 5n)]])
  writeBlock(kv, 1n, { accounts: account, storage: new Map([[h(A), new Map([[h(S1), Uint8Array.of(1)], [h(S2), Uint8Array.of(2)]])]]) })
  writeBlock(kv, 2n, { accounts: account, wiped: new Set([h(A)]), storage: new Map([[h(A), new Map([[h(S2), Uint8Array.of(0x22)]])]]) })
  const atTwo = new ArchiveReader(kv, 2n)
  assert.deepEqual(atTwo.getStorage(A, S1), new Uint8Array(0), 'written before the wipe')
  assert.deepEqual(atTwo.getStorage(A, S2), Uint8Array.of(0x22), 'written after the wipe, in its block')
  assert.deepEqual(new ArchiveReader(kv, 1n).getStorage(A, S1), Uint8Array.of(1), 'before the wipe')
  writeBlock(kv, 3n, { accounts: account, storage: new Map([[h(A), new Map([[h(S1), Uint8Array.of(0x11)]])]]) })
  assert.deepEqual(new ArchiveReader(kv, 3n).getStorage(A, S1), Uint8Array.of(0x11), 'written again after the wipe')
})

test('code is kept by its hash, and the trie nodes of the root go into the same batch', async (t) => {
  const kv = new LmdbStore(tempDir(t))
  t.after(() => kv.close())
  const code = Uint8Array.of(0x60, 0x00, 0xf3)
  const node = Uint8Array.of(0xc2, 0x01, 0x02)
  const nodeHash = keccak256(node)
  writeBlock(kv, 1n, { codes: new Map([[h(keccak256(code)), code]]) }, [[Buffer.from(nodeHash).toString('hex'), node]])
  assert.deepEqual(new ArchiveReader(kv, 1n).getCode(keccak256(code)), code)
  assert.deepEqual(new Uint8Array(kv.get(keys.trie(nodeHash))!), node)
})
