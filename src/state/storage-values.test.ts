/**
 * Storage values as a state view keeps them (state-reader.ts: minimal big-endian bytes, empty = zero):
 * whatever width the EVM writes a value with, it reads back and enters the diff without leading zeros.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Address } from '@ethereumjs/util'
import { JournaledState } from './journaled-state.ts'
import type { StateReader } from './state-reader.ts'
import { bytesToHex } from '../primitives/hex.ts'

const A = new Address(new Uint8Array(20).fill(0xaa))
const base: StateReader = {
  getAccount: () => undefined,
  getStorage: () => new Uint8Array(0),
  getCode: () => new Uint8Array(0),
}
const slot = (n: number) => {
  const s = new Uint8Array(32)
  s[31] = n
  return s
}
const word = (...tail: number[]) => {
  const w = new Uint8Array(32)
  w.set(tail, 32 - tail.length)
  return w
}

test('written values are kept as minimal big-endian bytes, zero as empty', async () => {
  const state = new JournaledState(base)
  const cases: [Uint8Array, Uint8Array][] = [
    [word(0x01, 0x02, 0x03), Uint8Array.of(0x01, 0x02, 0x03)],
    [Uint8Array.of(0, 0x10, 0), Uint8Array.of(0x10, 0)],
    [word(), new Uint8Array(0)],
    [Uint8Array.of(0, 0), new Uint8Array(0)],
    [Uint8Array.of(0xff, 0), Uint8Array.of(0xff, 0)],
  ]
  for (const [i, [written, kept]] of cases.entries()) {
    await state.putStorage(A, slot(i), written)
    assert.deepEqual(await state.getStorage(A, slot(i)), kept, `case ${i}`)
    assert.deepEqual(state.diff().storage.get(A.toString())?.get(bytesToHex(slot(i))), kept, `case ${i} in the diff`)
  }
})
