/**
 * State roots from diffs (computeStateRoot over the stored tries) against the library's Merkle-Patricia trie
 * built from scratch over the same state: new accounts with storage and code, then a block that changes a
 * slot and zeroes another (keeping a third), deletes an account, wipes and rewrites a storage, touches only an account's storage,
 * writes an account back unchanged, and deletes an account that never existed. Each block's accounts and
 * trie nodes are stored as a sealed block stores them, and the next block reads its base from there.
 */

import assert from 'node:assert/strict'
import { test } from 'node:test'
import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { RLP } from '@ethereumjs/rlp'
import { Account, Address, KECCAK256_NULL } from '@ethereumjs/util'
import { tempDir } from '../../test/support/temp-dir.ts'
import { bytesToHex, hexToBytes } from '../primitives/hex.ts'
import { keccak256 } from '../primitives/keccak.ts'
import { LmdbStore } from '../storage/db.ts'
import { ArchiveReader } from './archive-reader.ts'
import { JournaledState } from './journaled-state.ts'
import { writeStateHistory } from './state-history.ts'
import { computeStateRoot, EMPTY_TRIE_ROOT } from './state-root.ts'
import type { StateReader } from './state-reader.ts'

const addr = (b: number) => new Address(new Uint8Array(20).fill(b))
const slot = (n: number) => {
  const s = new Uint8Array(32)
  s[31] = n
  return s
}
const [A, B, C, D, E, F] = [0xa1, 0xb2, 0xc3, 0xd4, 0xe5, 0xf6].map(addr) as [Address, Address, Address, Address, Address, Address]

/** The whole state, as plain data: what the library trie is built from. */
type Model = Map<string, { nonce: bigint; balance: bigint; codeHash: Uint8Array; storage: Map<string, Uint8Array> }>

async function libraryRoot(model: Model): Promise<string> {
  const state = new MerklePatriciaTrie({ useKeyHashing: true })
  for (const [a, acct] of model) {
    const storage = new MerklePatriciaTrie({ useKeyHashing: true })
    for (const [s, v] of acct.storage) if (v.length > 0) await storage.put(hexToBytes(s), RLP.encode(v))
    await state.put(hexToBytes(a), new Account(acct.nonce, acct.balance, storage.root(), acct.codeHash).serialize())
  }
  return bytesToHex(state.root())
}

/** Runs `writes` on a view over `base`, then computes, checks and stores block `n`'s root. */
async function block(kv: LmdbStore, n: bigint, parentRoot: Uint8Array, base: StateReader, writes: (s: JournaledState) => Promise<void>, model: Model): Promise<Uint8Array> {
  const state = new JournaledState(base)
  await writes(state)
  const diff = state.diff()
  const result = await computeStateRoot(kv, parentRoot, base, diff)
  assert.equal(bytesToHex(result.root), await libraryRoot(model), `block ${n}`)
  const batch = kv.batch()
  writeStateHistory(batch, n, diff, result)
  kv.commit(batch)
  return result.root
}

test('state roots of consecutive blocks equal the library trie over the whole state', async (t) => {
  const kv = new LmdbStore(tempDir(t))
  t.after(() => kv.close())
  const empty: StateReader = { getAccount: () => undefined, getStorage: () => new Uint8Array(0), getCode: () => new Uint8Array(0) }
  const code = Uint8Array.of(0x60, 0x00, 0xf3)
  const model: Model = new Map()
  const put = (a: Address, nonce: bigint, balance: bigint, storage: [number, number][] = [], codeHash = KECCAK256_NULL) =>
    model.set(a.toString(), { nonce, balance, codeHash, storage: new Map(storage.map(([s, v]) => [bytesToHex(slot(s)), Uint8Array.of(v)])) })
  put(A, 1n, 10n, [[1, 1], [2, 2], [3, 3]], keccak256(code))
  put(B, 0n, 20n, [[1, 3]])
  put(C, 2n, 30n, [[5, 5], [6, 6]])
  put(E, 4n, 50n)
  const first = await block(kv, 1n, EMPTY_TRIE_ROOT, empty, async (s) => {
    await s.putAccount(A, new Account(1n, 10n))
    await s.putCode(A, code)
    await s.putStorage(A, slot(1), Uint8Array.of(1))
    await s.putStorage(A, slot(2), Uint8Array.of(2))
    await s.putStorage(A, slot(3), Uint8Array.of(3))
    await s.putAccount(B, new Account(0n, 20n))
    await s.putStorage(B, slot(1), Uint8Array.of(3))
    await s.putAccount(C, new Account(2n, 30n))
    await s.putStorage(C, slot(5), Uint8Array.of(5))
    await s.putStorage(C, slot(6), Uint8Array.of(6))
    await s.putAccount(E, new Account(4n, 50n))
  }, model)

  model.get(A.toString())!.storage.set(bytesToHex(slot(1)), Uint8Array.of(0x11))
  model.get(A.toString())!.storage.set(bytesToHex(slot(2)), new Uint8Array(0))
  model.delete(B.toString())
  model.get(C.toString())!.storage = new Map([[bytesToHex(slot(7)), Uint8Array.of(7)]])
  put(D, 0n, 1n)
  await block(kv, 2n, first, new ArchiveReader(kv, 1n), async (s) => {
    await s.putStorage(A, slot(1), Uint8Array.of(0x11)) // storage only: the account comes from the base
    await s.putStorage(A, slot(2), new Uint8Array(0)) // zeroed: leaves the storage trie
    await s.deleteAccount(B)
    await s.clearStorage(C) // wiped and written again
    await s.putStorage(C, slot(7), Uint8Array.of(7))
    await s.putAccount(D, new Account(0n, 1n))
    await s.putAccount(E, new Account(4n, 50n)) // written back as it was
    await s.deleteAccount(F) // never existed
  }, model)
})
