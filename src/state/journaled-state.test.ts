import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Account, Address } from '@ethereumjs/util'
import { JournaledState } from './journaled-state.ts'
import type { StateReader } from './state-reader.ts'
import { bytesToHex } from '../primitives/hex.ts'

const A = new Address(new Uint8Array(20).fill(0xaa))
const B = new Address(new Uint8Array(20).fill(0xbb))
const slot = (n: number) => {
  const s = new Uint8Array(32)
  s[31] = n
  return s
}

/** A base with one account A (nonce 5, balance 100) holding slot 1 = 0x07. */
function base(): StateReader {
  return {
    getAccount: (a) => (bytesToHex(a) === A.toString() ? new Account(5n, 100n) : undefined),
    getStorage: (a, s) => (bytesToHex(a) === A.toString() && s[31] === 1 ? Uint8Array.of(7) : new Uint8Array(0)),
    getCode: () => new Uint8Array(0),
  }
}

test('reads fall through to the base and writes shadow it', async () => {
  const state = new JournaledState(base())
  assert.equal((await state.getAccount(A))?.nonce, 5n)
  assert.deepEqual(await state.getStorage(A, slot(1)), Uint8Array.of(7))
  await state.putStorage(A, slot(1), Uint8Array.of(0, 0, 9))
  assert.deepEqual(await state.getStorage(A, slot(1)), Uint8Array.of(9), 'values are kept without leading zeros')
  assert.equal(await state.getAccount(B), undefined)
})

test('handed-out accounts are copies: mutating one changes nothing until it is put back', async () => {
  const state = new JournaledState(base())
  const a = (await state.getAccount(A))!
  a.balance = 1n
  assert.equal((await state.getAccount(A))?.balance, 100n)
  await state.putAccount(A, a)
  assert.equal((await state.getAccount(A))?.balance, 1n)
})

test('revert undoes exactly the writes since the matching checkpoint, nested', async () => {
  const state = new JournaledState(base())
  await state.checkpoint()
  await state.putStorage(A, slot(1), Uint8Array.of(1))
  await state.checkpoint()
  await state.putStorage(A, slot(1), Uint8Array.of(2))
  await state.putAccount(B, new Account(0n, 3n))
  await state.revert()
  assert.deepEqual(await state.getStorage(A, slot(1)), Uint8Array.of(1))
  assert.equal(await state.getAccount(B), undefined)
  await state.commit()
  assert.deepEqual(await state.getStorage(A, slot(1)), Uint8Array.of(1), 'commit keeps the outer write')
})

test('clearStorage hides base slots, survives in the diff, and is undone by revert', async () => {
  const state = new JournaledState(base())
  await state.checkpoint()
  await state.clearStorage(A)
  assert.deepEqual(await state.getStorage(A, slot(1)), new Uint8Array(0))
  await state.revert()
  assert.deepEqual(await state.getStorage(A, slot(1)), Uint8Array.of(7))
  await state.clearStorage(A)
  await state.putStorage(A, slot(2), Uint8Array.of(5))
  const diff = state.diff()
  assert.ok(diff.wiped.has(A.toString()))
  assert.deepEqual([...diff.storage.get(A.toString())!.keys()], [bytesToHex(slot(2))], 'only post-wipe writes')
})

test('deleteAccount removes the account and its storage', async () => {
  const state = new JournaledState(base())
  await state.deleteAccount(A)
  assert.equal(await state.getAccount(A), undefined)
  assert.deepEqual(await state.getStorage(A, slot(1)), new Uint8Array(0))
  assert.equal(state.diff().accounts.get(A.toString()), null)
})

test('a contract sender reads as code-less until first written back, which restores its code hash', async () => {
  const codeHash = new Uint8Array(32).fill(0x11)
  const reader: StateReader = { ...base(), getAccount: () => new Account(0n, 0n, undefined, codeHash) }
  const state = new JournaledState(reader)
  state.allowContractSender(A)
  const seen = (await state.getAccount(A))!
  assert.notDeepEqual(seen.codeHash, codeHash)
  seen.nonce = 1n
  await state.putAccount(A, seen)
  assert.deepEqual((await state.getAccount(A))!.codeHash, codeHash)
})

test('a contract sender keeps its code through every write-back of a stale copy, and reads its own code after the first', async () => {
  const codeHash = new Uint8Array(32).fill(0x11)
  const reader: StateReader = { ...base(), getAccount: () => new Account(0n, 0n, undefined, codeHash) }
  const state = new JournaledState(reader)
  state.allowContractSender(A)
  const stale = (await state.getAccount(A))!
  stale.nonce = 1n
  await state.putAccount(A, stale)
  assert.deepEqual((await state.getAccount(A))!.codeHash, codeHash, 'visible as soon as it is written back')
  stale.balance = 5n
  await state.putAccount(A, stale)
  assert.deepEqual((await state.getAccount(A))!.codeHash, codeHash, 'a second write of the stale copy keeps it')
  state.allowContractSender(undefined)
  assert.equal((await state.getAccount(A))!.balance, 5n)
})

