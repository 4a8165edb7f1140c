import assert from 'node:assert/strict'
import { test } from 'node:test'
import { Account } from '@ethereumjs/util'
import { tempDir } from '../../test/support/temp-dir.ts'
import { LmdbStore } from '../storage/db.ts'
import { keys } from '../storage/keys.ts'
import { ArchiveReader } from './archive-reader.ts'
import { bytesToBigInt } from '../primitives/hex.ts'

const alice = new Uint8Array(20).fill(0xa1)
const slot = new Uint8Array(32).fill(0x05)
const word = (n: number): Uint8Array => new Uint8Array([n])

/** Appends block `n`'s history the way the history writer does: one committed batch per block. */
function appendBlock(kv: LmdbStore, n: bigint, nonce: bigint, value: Uint8Array, wipe = false): void {
  const batch = kv.batch()
  batch.put(keys.account(alice, n), new Account(nonce, 10n ** 18n).serialize())
  if (wipe) batch.put(keys.wipe(alice, n), new Uint8Array(0))
  else batch.put(keys.storage(alice, slot, n), value)
  kv.commit(batch)
}

test('reads stay right at every block as blocks are appended after the answers were remembered', async (t) => {
  const kv = new LmdbStore(tempDir(t))
  t.after(() => kv.close())
  appendBlock(kv, 1n, 1n, word(7))
  const atOne = new ArchiveReader(kv, 1n)
  assert.equal(atOne.getAccount(alice)?.nonce, 1n)
  assert.deepEqual(atOne.getStorage(alice, slot), word(7))

  appendBlock(kv, 2n, 2n, word(9))
  appendBlock(kv, 3n, 3n, word(0), true)
  for (const reader of [new ArchiveReader(kv, 1n), atOne]) {
    assert.equal(reader.getAccount(alice)?.nonce, 1n, 'block 1 still reads its own account')
    assert.deepEqual(reader.getStorage(alice, slot), word(7), 'block 1 still reads its own slot')
  }
  assert.equal(new ArchiveReader(kv, 2n).getAccount(alice)?.nonce, 2n)
  assert.deepEqual(new ArchiveReader(kv, 2n).getStorage(alice, slot), word(9))
  assert.deepEqual(new ArchiveReader(kv, 3n).getStorage(alice, slot), new Uint8Array(0), 'wiped at block 3')
  assert.equal(new ArchiveReader(kv, 0n).getAccount(alice), undefined, 'absent before block 1, also when asked twice')
  assert.equal(new ArchiveReader(kv, 0n).getAccount(alice), undefined)
})

test('a caller mutating what it was given does not change the next answer', async (t) => {
  const kv = new LmdbStore(tempDir(t))
  t.after(() => kv.close())
  appendBlock(kv, 1n, 1n, word(7))
  const first = new ArchiveReader(kv, 1n).getStorage(alice, slot)
  first[0] = 0xff
  assert.deepEqual(new ArchiveReader(kv, 1n).getStorage(alice, slot), word(7))
  const account = new ArchiveReader(kv, 1n).getAccount(alice)!
  account.nonce = 99n
  assert.equal(new ArchiveReader(kv, 1n).getAccount(alice)?.nonce, 1n)
})

test('two databases never share answers', async (t) => {
  const a = new LmdbStore(tempDir(t))
  const b = new LmdbStore(tempDir(t))
  t.after(async () => {
    await a.close()
    await b.close()
  })
  appendBlock(a, 1n, 1n, word(1))
  appendBlock(b, 1n, 5n, word(2))
  assert.equal(new ArchiveReader(a, 1n).getAccount(alice)?.nonce, 1n)
  assert.equal(new ArchiveReader(b, 1n).getAccount(alice)?.nonce, 5n)
  assert.deepEqual(new ArchiveReader(b, 1n).getStorage(alice, slot), word(2))
})

test('code is read by hash, and a caller mutating it does not change the next read', async (t) => {
  const kv = new LmdbStore(tempDir(t))
  t.after(() => kv.close())
  const code = new Uint8Array([0x60, 0x00, 0x60, 0x00, 0xf3])
  const hash = new Uint8Array(32).fill(0x42)
  const batch = kv.batch()
  batch.put(keys.code(hash), code)
  kv.commit(batch)
  const first = new ArchiveReader(kv, 0n).getCode(hash)
  assert.deepEqual(first, code)
  first[0] = 0
  assert.deepEqual(new ArchiveReader(kv, 5n).getCode(hash), code)
  assert.deepEqual(new ArchiveReader(kv, 0n).getCode(new Uint8Array(32).fill(0x43)), new Uint8Array(0), 'unknown hash')
})

test('a word read by bigint is the byte read at every block, as blocks are appended after the words were remembered', async (t) => {
  const kv = new LmdbStore(tempDir(t))
  const other = new LmdbStore(tempDir(t))
  t.after(() => {
    kv.close()
    other.close()
  })
  const a = bytesToBigInt(alice)
  const s = bytesToBigInt(slot)
  const asWord = (reader: ArchiveReader): bigint => bytesToBigInt(reader.getStorage(alice, slot))
  appendBlock(kv, 1n, 1n, word(7))
  const atOne = new ArchiveReader(kv, 1n)
  assert.equal(atOne.storageWord(a, s), 7n)
  assert.equal(atOne.storageWord(a, s + 1n), 0n, 'a slot never written')
  appendBlock(kv, 2n, 2n, word(9))
  appendBlock(kv, 3n, 3n, word(0), true)
  for (const n of [0n, 1n, 2n, 3n, 4n]) {
    for (const reader of [new ArchiveReader(kv, n), new ArchiveReader(kv, n)]) {
      assert.equal(reader.storageWord(a, s), asWord(reader), `block ${n}`)
    }
  }
  assert.deepEqual([1n, 2n, 3n].map((n) => new ArchiveReader(kv, n).storageWord(a, s)), [7n, 9n, 0n], 'written, rewritten, wiped')
  assert.equal(atOne.storageWord(a, s), 7n, 'block 1 still reads its own word')
  appendBlock(other, 1n, 1n, word(2))
  assert.equal(new ArchiveReader(other, 1n).storageWord(a, s), 2n, 'another database has its own words')
})

test('an account read by bigint is the byte read at every block, absent ones included', async (t) => {
  const kv = new LmdbStore(tempDir(t))
  t.after(() => kv.close())
  const a = bytesToBigInt(alice)
  appendBlock(kv, 1n, 1n, word(7))
  assert.equal(new ArchiveReader(kv, 0n).accountWord(a), null, 'absent before block 1')
  assert.equal(new ArchiveReader(kv, 1n).accountWord(a)?.account.nonce, 1n)
  appendBlock(kv, 2n, 2n, word(9))
  for (const n of [0n, 1n, 2n, 3n]) {
    const reader = new ArchiveReader(kv, n)
    const bytes = reader.getAccount(alice)
    const w = reader.accountWord(a)
    assert.deepEqual(w?.account.serialize(), bytes?.serialize(), `block ${n}`)
    if (bytes !== undefined) assert.equal(w?.codeHash, bytesToBigInt(bytes.codeHash))
    assert.equal(reader.accountWord(a), w, `block ${n}: the same word again`)
  }
})
