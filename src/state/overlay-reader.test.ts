/**
 * A diff over a base reader: what the diff holds (accounts, slots, code by hash) shows over the base, the rest
 * reads through, and accounts handed out are copies a caller may change. (Deleted accounts and wiped storage
 * are held at the RPC level by the pending-overlay tests.)
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Account } from '@ethereumjs/util'
import { OverlayReader } from './overlay-reader.ts'
import type { StateDiff } from './state-diff.ts'
import { accountWordOf, type StateReader } from './state-reader.ts'
import { bigIntToFixedBytes, bytesToBigInt, bytesToHex } from '../primitives/hex.ts'

const A = new Uint8Array(20).fill(0xaa)
const B = new Uint8Array(20).fill(0xbb)
const slot1 = new Uint8Array(32).fill(1)
const slot2 = new Uint8Array(32).fill(2)
const hashX = new Uint8Array(32).fill(0x0c)
const hashY = new Uint8Array(32).fill(0x0d)

const base: StateReader = {
  getAccount: (a) => new Account(1n, a[0] === 0xaa ? 10n : 20n),
  getStorage: (_a, s) => Uint8Array.of(s[0]! + 100),
  getCode: (h) => (h[0] === 0x0c ? Uint8Array.of(0xba, 0x5e) : Uint8Array.of(0xba)),
}
const diff: StateDiff = {
  accounts: new Map([[bytesToHex(A), new Account(2n, 11n)]]),
  storage: new Map([[bytesToHex(A), new Map([[bytesToHex(slot1), Uint8Array.of(7)]])]]),
  wiped: new Set(),
  codes: new Map([[bytesToHex(hashY), Uint8Array.of(0x60, 0x00)]]),
}

test('the diff shows over the base; the rest reads through', () => {
  const reader = new OverlayReader(base, diff)
  assert.equal(reader.getAccount(A)?.balance, 11n)
  assert.equal(reader.getAccount(A)?.nonce, 2n)
  assert.equal(reader.getAccount(B)?.balance, 20n, 'not in the diff')
  assert.deepEqual(reader.getStorage(A, slot1), Uint8Array.of(7))
  assert.deepEqual(reader.getStorage(A, slot2), Uint8Array.of(102), 'a slot the diff did not write')
  assert.deepEqual(reader.getStorage(B, slot1), Uint8Array.of(101))
  assert.deepEqual(reader.getCode(hashY), Uint8Array.of(0x60, 0x00), 'code the diff added')
  assert.deepEqual(reader.getCode(hashX), Uint8Array.of(0xba, 0x5e), 'code of the base')
})

test('accounts from the diff are copies', () => {
  const reader = new OverlayReader(base, diff)
  const a = reader.getAccount(A)!
  a.balance = 0n
  assert.equal(reader.getAccount(A)?.balance, 11n)
  assert.equal(diff.accounts.get(bytesToHex(A))?.balance, 11n, 'the published diff is untouched')
})

test('word reads equal the byte reads for addresses the diff touches (written, wiped, deleted) and the rest, over a base with and without word reads', () => {
  const C = new Uint8Array(20).fill(0xcc)
  const D = new Uint8Array(20).fill(0xdd)
  const touching: StateDiff = {
    accounts: new Map([[bytesToHex(A), new Account(2n, 11n)], [bytesToHex(D), null]]),
    storage: new Map([[bytesToHex(A), new Map([[bytesToHex(slot1), Uint8Array.of(7)]])], [bytesToHex(C), new Map([[bytesToHex(slot2), Uint8Array.of(9)]])]]),
    wiped: new Set([bytesToHex(C)]),
    codes: new Map(),
  }
  let baseWordReads = 0
  const withWords: StateReader = {
    ...base,
    storageWord: (a, s) => (baseWordReads++, bytesToBigInt(base.getStorage(bigIntToFixedBytes(a, 20), bigIntToFixedBytes(s, 32)))),
    accountWord: (a) => (baseWordReads++, accountWordOf(base.getAccount(bigIntToFixedBytes(a, 20)))),
  }
  for (const under of [base, withWords]) {
    const reader = new OverlayReader(under, touching)
    for (const address of [A, B, C, D]) {
      const a = bytesToBigInt(address)
      for (const slot of [slot1, slot2]) {
        assert.equal(reader.storageWord(a, bytesToBigInt(slot)), bytesToBigInt(reader.getStorage(address, slot)), `slot ${slot[0]} of ${address[0]!.toString(16)}`)
      }
      const bytes = reader.getAccount(address)
      const word = reader.accountWord(a)
      assert.deepEqual(word?.account.serialize(), bytes?.serialize(), `account ${address[0]!.toString(16)}`)
      if (bytes !== undefined) assert.equal(word?.codeHash, bytesToBigInt(bytes.codeHash))
    }
  }
  assert.equal(baseWordReads, 3, 'only B, the one address the diff does not touch, reads the base by word (two slots, the account)')
  assert.equal(new OverlayReader(withWords, touching).accountWord(bytesToBigInt(D)), null, 'deleted in the diff')
  assert.equal(new OverlayReader(withWords, touching).storageWord(bytesToBigInt(C), bytesToBigInt(slot1)), 0n, 'wiped in the diff')
})
