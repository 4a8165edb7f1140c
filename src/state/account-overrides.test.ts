/**
 * A state override (eth_call's third parameter, eth_simulateV1's stateOverrides) as written into a state
 * view: each field it sets replaces that field and leaves the others as they were; `state` replaces the
 * whole storage, `stateDiff` only the slots it names; an override of storage alone writes no account (an
 * absent account stays absent in the view and its diff). An override may set `state` or `stateDiff`, not
 * both.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Account, Address } from '@ethereumjs/util'
import { applyAccountOverride, setsBothStorages } from './account-overrides.ts'
import { JournaledState } from './journaled-state.ts'
import type { StateReader } from './state-reader.ts'
import { bytesToHex } from '../primitives/hex.ts'
import { keccak256 } from '../primitives/keccak.ts'

const A = new Address(new Uint8Array(20).fill(0xaa))
const CODE = Uint8Array.of(0x60, 0x01)
const slot = (n: number) => {
  const s = new Uint8Array(32)
  s[31] = n
  return s
}
/** A exists (nonce 3, balance 100, code CODE) with slots 1 and 2 set to 11 and 12. */
const base: StateReader = {
  getAccount: (a) => (a[0] === 0xaa ? new Account(3n, 100n, undefined, keccak256(CODE)) : undefined),
  getStorage: (a, s) => (a[0] === 0xaa && (s[31] === 1 || s[31] === 2) ? Uint8Array.of(s[31] + 10) : new Uint8Array(0)),
  getCode: () => CODE,
}

async function read(state: JournaledState) {
  const a = (await state.getAccount(A))!
  return {
    nonce: a.nonce,
    balance: a.balance,
    code: bytesToHex(await state.getCode(A)),
    slots: await Promise.all([1, 2, 3].map(async (n) => bytesToHex(await state.getStorage(A, slot(n))))),
  }
}

test('each overridden field replaces that field only', async () => {
  const untouched = { nonce: 3n, balance: 100n, code: bytesToHex(CODE), slots: ['0x0b', '0x0c', '0x'] }
  const cases = [
    [{ nonce: 7n }, { ...untouched, nonce: 7n }],
    [{ balance: 5n }, { ...untouched, balance: 5n }],
    [{ code: Uint8Array.of(0xfe) }, { ...untouched, code: '0xfe' }],
    [{ nonce: 1n, balance: 2n, code: new Uint8Array(0) }, { ...untouched, nonce: 1n, balance: 2n, code: '0x' }],
  ] as const
  for (const [override, want] of cases) {
    const state = new JournaledState(base)
    await applyAccountOverride(state, A.toString(), override)
    assert.deepEqual(await read(state), want, JSON.stringify(override, (_k, v) => (typeof v === 'bigint' ? `${v}` : v)))
  }
})

test('state replaces the whole storage, stateDiff only the slots it names', async () => {
  const replaced = new JournaledState(base)
  await applyAccountOverride(replaced, A.toString(), { state: new Map([[bytesToHex(slot(2)), Uint8Array.of(0x22)], [bytesToHex(slot(3)), Uint8Array.of(0x33)]]) })
  assert.deepEqual((await read(replaced)).slots, ['0x', '0x22', '0x33'])

  const patched = new JournaledState(base)
  await applyAccountOverride(patched, A.toString(), { stateDiff: new Map([[bytesToHex(slot(2)), Uint8Array.of(0x22)], [bytesToHex(slot(3)), Uint8Array.of(0x33)]]) })
  assert.deepEqual((await read(patched)).slots, ['0x0b', '0x22', '0x33'])
  assert.equal((await read(patched)).nonce, 3n)
})

test('an override of storage alone writes no account: an absent one stays absent', async () => {
  const B = new Address(new Uint8Array(20).fill(0xbb))
  const state = new JournaledState(base)
  await applyAccountOverride(state, B.toString(), { stateDiff: new Map([[bytesToHex(slot(1)), Uint8Array.of(1)]]) })
  assert.equal(await state.getAccount(B), undefined)
  assert.equal(state.diff().accounts.has(B.toString()), false)
  assert.deepEqual(await state.getStorage(B, slot(1)), Uint8Array.of(1))
})

test('an override sets both storages only when it has both state and stateDiff', () => {
  const some = new Map([[bytesToHex(slot(1)), Uint8Array.of(1)]])
  assert.equal(setsBothStorages({ state: some, stateDiff: some }), true)
  assert.equal(setsBothStorages({ state: some }), false)
  assert.equal(setsBothStorages({ stateDiff: some }), false)
  assert.equal(setsBothStorages({ balance: 1n }), false)
})
