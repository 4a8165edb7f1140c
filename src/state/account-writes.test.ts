/**
 * Account reads and writes of a state view through every way in (the EVM's getAccount, putAccount,
 * deleteAccount, modifyAccountFields, getCode, getCodeSize):
 * a deleted account reads as absent with no code through all of them, an account written through one is
 * seen by the others, and modifyAccountFields changes exactly the fields it is given.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Account, Address, KECCAK256_NULL } from '@ethereumjs/util'
import { JournaledState } from './journaled-state.ts'
import type { StateReader } from './state-reader.ts'
import { bytesToHex } from '../primitives/hex.ts'
import { keccak256 } from '../primitives/keccak.ts'

const A = new Address(new Uint8Array(20).fill(0xaa))
const B = new Address(new Uint8Array(20).fill(0xbb))
const CODE = Uint8Array.of(0x60, 0x00, 0x60, 0x00, 0xf3)
const CODE_HASH = keccak256(CODE)

/** A base where A is a contract (nonce 1, balance 100, code CODE) and nothing else exists. */
const base: StateReader = {
  getAccount: (a) => (bytesToHex(a) === A.toString() ? new Account(1n, 100n, undefined, CODE_HASH) : undefined),
  getStorage: () => new Uint8Array(0),
  getCode: (hash) => (bytesToHex(hash) === bytesToHex(CODE_HASH) ? CODE : new Uint8Array(0)),
}

test('an account deleted in the view reads as absent, with no code, through every reader', async () => {
  for (const remove of [
    (s: JournaledState) => s.deleteAccount(A),
    (s: JournaledState) => s.putAccount(A, undefined),
  ]) {
    const state = new JournaledState(base)
    assert.equal(await state.getCodeSize(A), CODE.length, 'the base contract, before')
    await remove(state)
    assert.equal(await state.getAccount(A), undefined)
    assert.deepEqual(await state.getCode(A), new Uint8Array(0))
    assert.equal(await state.getCodeSize(A), 0)
    state.allowContractSender(A)
    assert.equal(await state.getAccount(A), undefined, 'a deleted account is no contract sender')
    assert.equal(state.diff().accounts.get(A.toString()), null)
  }
})

test('a contract sender deleted before it is written back reads as absent', async () => {
  const state = new JournaledState(base)
  state.allowContractSender(A)
  assert.deepEqual((await state.getAccount(A))!.codeHash, KECCAK256_NULL, 'masked')
  await state.deleteAccount(A)
  assert.equal(await state.getAccount(A), undefined)
})

test('a contract sender written back with another code hash keeps that hash', async () => {
  const state = new JournaledState(base)
  state.allowContractSender(A)
  const other = new Uint8Array(32).fill(0x22)
  const a = (await state.getAccount(A))!
  a.codeHash = other
  await state.putAccount(A, a)
  assert.deepEqual((await state.getAccount(A))!.codeHash, other)
})

test('modifyAccountFields changes exactly the fields it is given, on an existing or a new account', async () => {
  const state = new JournaledState(base)
  const root = new Uint8Array(32).fill(0x33)
  await state.modifyAccountFields(A, { nonce: 9n })
  await state.modifyAccountFields(A, { balance: 50n })
  await state.modifyAccountFields(A, { storageRoot: root })
  const a = (await state.getAccount(A))!
  assert.equal(a.nonce, 9n)
  assert.equal(a.balance, 50n)
  assert.deepEqual(a.storageRoot, root)
  assert.deepEqual(a.codeHash, CODE_HASH, 'code hash untouched')
  assert.deepEqual(await state.getCode(A), CODE)

  await state.modifyAccountFields(B, { balance: 4n })
  const b = (await state.getAccount(B))!
  assert.equal(b.nonce, 0n)
  assert.equal(b.balance, 4n)
  assert.deepEqual(b.codeHash, KECCAK256_NULL)
  assert.equal(await state.getCodeSize(B), 0)
})

test('putCode stores code under its hash and points the account at it', async () => {
  const state = new JournaledState(base)
  const code = Uint8Array.of(0x00, 0x01, 0x02)
  await state.putCode(B, code)
  assert.deepEqual(await state.getCode(B), code)
  assert.equal(await state.getCodeSize(B), 3)
  assert.deepEqual(state.codeByHash(keccak256(code)), code)
  assert.deepEqual((await state.getAccount(B))!.codeHash, keccak256(code))
})
