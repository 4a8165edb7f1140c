/**
 * What the history cache (history-cache.ts) spares the database: an archive reader asks the database for an
 * account, a slot, an account's wipe and a code once per block and database, however many readers ask, and
 * keeps code within its byte budget. Counted on a real LMDB store wrapped to count its lookups.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { Account, KECCAK256_NULL } from '@ethereumjs/util'
import { tempDir } from '../../test/support/temp-dir.ts'
import { keccak256 } from '../primitives/keccak.ts'
import { LmdbStore, type KvStore } from '../storage/db.ts'
import { keys } from '../storage/keys.ts'
import { ArchiveReader } from './archive-reader.ts'

const alice = new Uint8Array(20).fill(0xa1)
const slot = new Uint8Array(32).fill(0x05)
const other = new Uint8Array(32).fill(0x06)

/** A store that counts the lookups it answers (the writes go to the LMDB store it wraps). */
function counted(kv: LmdbStore): { store: KvStore; reads: { get: number; floor: number } } {
  const reads = { get: 0, floor: 0 }
  const store: KvStore = {
    get: (key) => (reads.get++, kv.get(key)),
    floor: (low, high) => (reads.floor++, kv.floor(low, high)),
    range: (start, end, limit) => kv.range(start, end, limit),
    batch: () => kv.batch(),
    commit: (batch) => kv.commit(batch),
    commitAsync: (batch) => kv.commitAsync(batch),
    close: () => kv.close(),
  }
  return { store, reads }
}

test('an account, a slot and its account wipe are looked up once per block, for every reader of that block', async (t) => {
  const kv = new LmdbStore(tempDir(t))
  t.after(() => kv.close())
  const batch = kv.batch()
  batch.put(keys.account(alice, 1n), new Account(1n, 5n).serialize())
  batch.put(keys.storage(alice, slot, 1n), new Uint8Array([7]))
  batch.put(keys.storage(alice, other, 1n), new Uint8Array([8]))
  kv.commit(batch)
  const { store, reads } = counted(kv)
  for (let i = 0; i < 3; i++) {
    const reader = new ArchiveReader(store, 1n)
    assert.equal(reader.getAccount(alice)?.balance, 5n)
    assert.deepEqual(reader.getStorage(alice, slot), new Uint8Array([7]))
  }
  // the account, the slot, the wipe of alice: once each
  assert.equal(reads.floor, 3)
  assert.deepEqual(new ArchiveReader(store, 1n).getStorage(alice, other), new Uint8Array([8]))
  assert.equal(reads.floor, 4, 'a second slot of the same account: its own lookup, not the wipe again')
  new ArchiveReader(store, 2n).getAccount(alice)
  assert.equal(reads.floor, 5, 'another block: looked up again')
})

test('code is read once by hash while it fits the code budget, and a code beyond it every time', async (t) => {
  const kv = new LmdbStore(tempDir(t))
  t.after(() => kv.close())
  const small = new Uint8Array(24_000).fill(0x5b)
  // the cache keeps 8 MB of code, each weighed at its length and 128 bytes: this one is just over
  const huge = new Uint8Array(8 * 1024 * 1024 - 64).fill(0x5b)
  const batch = kv.batch()
  for (const code of [small, huge]) batch.put(keys.code(keccak256(code)), code)
  kv.commit(batch)
  const { store, reads } = counted(kv)
  // the first reader of a store looks once whether it has the latest-state tables (latest-state.ts)
  new ArchiveReader(store, 0n)
  const codeReads = (): number => reads.get - 1
  for (let i = 0; i < 3; i++) assert.equal(new ArchiveReader(store, 0n).getCode(keccak256(small)).length, small.length)
  assert.equal(codeReads(), 1)
  for (let i = 0; i < 2; i++) assert.equal(new ArchiveReader(store, 0n).getCode(keccak256(huge)).length, huge.length)
  assert.equal(codeReads(), 3, 'a code heavier than the budget is not kept')
  assert.equal(new ArchiveReader(store, 0n).getCode(keccak256(small)).length, small.length)
  assert.equal(codeReads(), 3, 'and does not push the kept one out')
  assert.equal(new ArchiveReader(store, 0n).getCode(KECCAK256_NULL).length, 0)
  assert.equal(codeReads(), 3, 'the empty code is known without a lookup')
})

test("a block's answers are kept while it is among the four blocks most recently asked, code across blocks", async (t) => {
  const kv = new LmdbStore(tempDir(t))
  t.after(() => kv.close())
  const batch = kv.batch()
  batch.put(keys.account(alice, 1n), new Account(1n, 5n).serialize())
  kv.commit(batch)
  const { store, reads } = counted(kv)
  const account = (block: bigint): bigint | undefined => new ArchiveReader(store, block).getAccount(alice)?.balance
  for (const block of [1n, 2n, 3n, 4n]) assert.equal(account(block), 5n)
  assert.equal(reads.floor, 4, 'one lookup per block')
  for (const block of [4n, 3n, 2n, 1n]) account(block)
  assert.equal(reads.floor, 4, 'four blocks kept: no lookup again')
  account(5n) // block 4, now the least recently asked, goes
  assert.equal(reads.floor, 5)
  account(1n)
  assert.equal(reads.floor, 5, 'block 1 was asked recently: kept')
  account(4n)
  assert.equal(reads.floor, 6, "block 4's answers went with it: looked up again")
})
