/**
 * The parts of the library's state manager interface a state view answers without a trie: its state root
 * comes from the injected root function over its diff (and is refused without one), a root cannot be set
 * or looked up, and a shallow copy starts with the view's changes but is independent of it afterwards.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Account, Address } from '@ethereumjs/util'
import { JournaledState } from './journaled-state.ts'
import type { StateDiff } from './state-diff.ts'
import type { StateReader } from './state-reader.ts'

const A = new Address(new Uint8Array(20).fill(0xaa))
const B = new Address(new Uint8Array(20).fill(0xbb))
const SLOT = new Uint8Array(32)
const base: StateReader = {
  getAccount: (a) => (a[0] === 0xaa ? new Account(1n, 100n) : undefined),
  getStorage: () => Uint8Array.of(7),
  getCode: () => new Uint8Array(0),
}

test('the state root is the root function of the diff; without a root function it is refused', async () => {
  const seen: StateDiff[] = []
  const root = new Uint8Array(32).fill(0x44)
  const state = new JournaledState(base, async (diff) => {
    seen.push(diff)
    return root
  })
  await state.putAccount(B, new Account(0n, 3n))
  assert.deepEqual(await state.getStateRoot(), root)
  assert.equal(seen.length, 1)
  assert.equal(seen[0]!.accounts.get(B.toString())?.balance, 3n)

  const rootless = new JournaledState(base)
  await assert.rejects(rootless.getStateRoot(), /state root not available/)
})

test('a state root can be neither set nor looked up', async () => {
  const state = new JournaledState(base)
  await assert.rejects(state.setStateRoot(), /not supported/)
  assert.equal(await state.hasStateRoot(), false)
})

test('a shallow copy starts with the changes of the view, and each goes on alone', async () => {
  const state = new JournaledState(base)
  await state.putAccount(B, new Account(0n, 3n))
  await state.deleteAccount(A)
  await state.putStorage(B, SLOT, Uint8Array.of(9))
  await state.putCode(B, Uint8Array.of(0x00))
  const copy = state.shallowCopy()
  assert.equal(await copy.getAccount(A), undefined, 'the deletion is copied')
  assert.deepEqual(await copy.getStorage(A, SLOT), new Uint8Array(0), 'and its wipe')
  assert.equal((await copy.getAccount(B))?.balance, 3n)
  assert.deepEqual(await copy.getStorage(B, SLOT), Uint8Array.of(9))
  assert.deepEqual(await copy.getCode(B), Uint8Array.of(0x00))

  await copy.putAccount(B, new Account(0n, 4n))
  await copy.putStorage(B, SLOT, Uint8Array.of(8))
  await state.putAccount(A, new Account(2n, 2n))
  assert.equal((await state.getAccount(B))?.balance, 3n)
  assert.deepEqual(await state.getStorage(B, SLOT), Uint8Array.of(9))
  assert.equal(await copy.getAccount(A), undefined)
})
