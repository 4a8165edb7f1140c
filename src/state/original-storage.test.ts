/**
 * The original value of a storage slot (EIP-2200/3529 gas accounting): the value it had when the
 * transaction started, however often the transaction has written it since, until the cache is cleared
 * at the next transaction.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Address } from '@ethereumjs/util'
import { JournaledState } from './journaled-state.ts'
import type { StateReader } from './state-reader.ts'

const A = new Address(new Uint8Array(20).fill(0xaa))
const SLOT = new Uint8Array(32)
const base: StateReader = {
  getAccount: () => undefined,
  getStorage: () => Uint8Array.of(7),
  getCode: () => new Uint8Array(0),
}

test('a slot keeps its original value through the writes of a transaction, and takes the new one after clear', async () => {
  const state = new JournaledState(base)
  assert.deepEqual(await state.originalStorageCache.get(A, SLOT), Uint8Array.of(7))
  await state.putStorage(A, SLOT, Uint8Array.of(1))
  assert.deepEqual(await state.originalStorageCache.get(A, SLOT), Uint8Array.of(7))
  await state.putStorage(A, SLOT, Uint8Array.of(2))
  assert.deepEqual(await state.originalStorageCache.get(A, SLOT), Uint8Array.of(7))
  state.originalStorageCache.clear()
  assert.deepEqual(await state.originalStorageCache.get(A, SLOT), Uint8Array.of(2))
})
