/**
 * Checkpoints of a state view, as the EVM uses them (a checkpoint per call frame, then commit or revert):
 * a revert undoes everything written since its checkpoint, committed inner frames included; writes made
 * outside any checkpoint cannot be reverted; undoing a storage wipe brings back exactly what the account's
 * storage held before it; and a write that was reverted leaves no trace in the view's diff.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Account, Address } from '@ethereumjs/util'
import { JournaledState } from './journaled-state.ts'
import { touchedAddresses } from './state-diff.ts'
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
const base: StateReader = {
  getAccount: (a) => (bytesToHex(a) === A.toString() ? new Account(5n, 100n) : undefined),
  getStorage: (a, s) => (bytesToHex(a) === A.toString() && s[31] === 1 ? Uint8Array.of(7) : new Uint8Array(0)),
  getCode: () => new Uint8Array(0),
}

test('reverting an outer checkpoint also undoes what an inner checkpoint committed', async () => {
  const state = new JournaledState(base)
  await state.checkpoint()
  await state.putStorage(A, slot(1), Uint8Array.of(1))
  await state.checkpoint()
  await state.putStorage(A, slot(2), Uint8Array.of(2))
  await state.putAccount(B, new Account(0n, 3n))
  await state.commit()
  assert.deepEqual(await state.getStorage(A, slot(2)), Uint8Array.of(2), 'committed into the outer frame')
  await state.revert()
  assert.deepEqual(await state.getStorage(A, slot(1)), Uint8Array.of(7))
  assert.deepEqual(await state.getStorage(A, slot(2)), new Uint8Array(0))
  assert.equal(await state.getAccount(B), undefined)
})

test('writes made outside any checkpoint, or committed by the outermost one, cannot be reverted', async () => {
  const state = new JournaledState(base)
  await state.putStorage(A, slot(1), Uint8Array.of(1))
  await state.putAccount(B, new Account(0n, 3n))
  await state.revert()
  assert.deepEqual(await state.getStorage(A, slot(1)), Uint8Array.of(1), 'a revert with no checkpoint open changes nothing')
  await state.checkpoint()
  await state.putStorage(A, slot(2), Uint8Array.of(2))
  await state.commit()
  await state.revert()
  assert.deepEqual(await state.getStorage(A, slot(1)), Uint8Array.of(1))
  assert.deepEqual(await state.getStorage(A, slot(2)), Uint8Array.of(2))
  assert.equal((await state.getAccount(B))?.balance, 3n)
  await state.checkpoint()
  await state.putStorage(A, slot(3), Uint8Array.of(3))
  await state.revert()
  assert.deepEqual(await state.getStorage(A, slot(3)), new Uint8Array(0), 'a later checkpoint still reverts')
  assert.deepEqual(await state.getStorage(A, slot(2)), Uint8Array.of(2))
})

test('reverting a wipe restores the slots written before it, and an earlier wipe stays', async () => {
  const written = new JournaledState(base)
  await written.putStorage(A, slot(2), Uint8Array.of(5))
  await written.checkpoint()
  await written.clearStorage(A)
  await written.revert()
  assert.deepEqual(await written.getStorage(A, slot(2)), Uint8Array.of(5), 'the write before the wipe is back')
  assert.deepEqual(await written.getStorage(A, slot(1)), Uint8Array.of(7), 'and the base shows through again')

  const wipedTwice = new JournaledState(base)
  await wipedTwice.clearStorage(A)
  await wipedTwice.checkpoint()
  await wipedTwice.deleteAccount(A)
  await wipedTwice.revert()
  assert.deepEqual(await wipedTwice.getStorage(A, slot(1)), new Uint8Array(0), 'still wiped by the first wipe')
  assert.ok(wipedTwice.diff().wiped.has(A.toString()))
  assert.equal((await wipedTwice.getAccount(A))?.nonce, 5n, 'the deletion is undone')
})

test('a reverted write leaves nothing in the diff: no slot, no touched address', async () => {
  const state = new JournaledState(base)
  await state.checkpoint()
  await state.putStorage(A, slot(1), Uint8Array.of(1))
  await state.putStorage(B, slot(2), Uint8Array.of(2))
  await state.revert()
  const diff = state.diff()
  assert.equal(diff.storage.size, 0)
  assert.deepEqual([...touchedAddresses(diff)], [])
  assert.deepEqual(await state.getStorage(A, slot(1)), Uint8Array.of(7))
})
