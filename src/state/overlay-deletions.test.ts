/**
 * A diff over a base reader, for what the diff removes: an account it deletes reads as absent, and a storage
 * it wipes reads as zero but for the slots the diff wrote after the wipe, while other accounts read through.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Account } from '@ethereumjs/util'
import { OverlayReader } from './overlay-reader.ts'
import type { StateDiff } from './state-diff.ts'
import type { StateReader } from './state-reader.ts'
import { bytesToHex } from '../primitives/hex.ts'

const A = new Uint8Array(20).fill(0xaa)
const B = new Uint8Array(20).fill(0xbb)
const C = new Uint8Array(20).fill(0xcc)
const slot1 = new Uint8Array(32).fill(1)
const slot2 = new Uint8Array(32).fill(2)

const base: StateReader = {
  getAccount: () => new Account(1n, 10n),
  getStorage: () => Uint8Array.of(9),
  getCode: () => new Uint8Array(0),
}

test('a deleted account reads as absent, a wiped storage as zero but for slots written after the wipe', () => {
  const diff: StateDiff = {
    accounts: new Map([[bytesToHex(A), null]]),
    storage: new Map([[bytesToHex(B), new Map([[bytesToHex(slot2), Uint8Array.of(5)]])]]),
    wiped: new Set([bytesToHex(A), bytesToHex(B)]),
    codes: new Map(),
  }
  const reader = new OverlayReader(base, diff)
  assert.equal(reader.getAccount(A), undefined)
  assert.deepEqual(reader.getStorage(A, slot1), new Uint8Array(0))
  assert.equal(reader.getAccount(B)?.balance, 10n, 'wiped, not deleted')
  assert.deepEqual(reader.getStorage(B, slot1), new Uint8Array(0))
  assert.deepEqual(reader.getStorage(B, slot2), Uint8Array.of(5))
  assert.equal(reader.getAccount(C)?.balance, 10n)
  assert.deepEqual(reader.getStorage(C, slot1), Uint8Array.of(9))
})
