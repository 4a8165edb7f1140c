/**
 * Diffs in sequence: `mergeDiffs(earlier, later)` is what one diff of both in order would be (checked against a
 * journaled state that makes the same writes in one go), and `touchedAddresses` names every address a diff
 * changes in any way.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Account, Address } from '@ethereumjs/util'
import { JournaledState } from './journaled-state.ts'
import { OverlayReader } from './overlay-reader.ts'
import { mergeDiffs, touchedAddresses, type StateDiff } from './state-diff.ts'
import type { StateReader } from './state-reader.ts'
import { bytesToHex } from '../primitives/hex.ts'

const addr = (b: number) => new Address(new Uint8Array(20).fill(b))
const slot = (n: number) => {
  const s = new Uint8Array(32)
  s[31] = n
  return s
}
const A = addr(0xaa)
const B = addr(0xbb)
const C = addr(0xcc)
const D = addr(0xdd)

/** A and B exist with slots 1 and 2 set; C and D do not exist. */
const base: StateReader = {
  getAccount: (a) => (a[0] === 0xaa || a[0] === 0xbb ? new Account(1n, 100n) : undefined),
  getStorage: (a, s) => (a[0] === 0xaa || a[0] === 0xbb ? Uint8Array.of(s[31]! + 10) : new Uint8Array(0)),
  getCode: () => new Uint8Array(0),
}

type Step = (s: JournaledState) => Promise<void>
const first: Step[] = [
  (s) => s.putStorage(A, slot(1), Uint8Array.of(1)),
  (s) => s.putStorage(A, slot(3), Uint8Array.of(9)), // not written again: stays
  (s) => s.putStorage(B, slot(1), Uint8Array.of(2)),
  (s) => s.putAccount(C, new Account(0n, 5n)),
  (s) => s.putCode(C, Uint8Array.of(0x60, 0x00)),
  (s) => s.putStorage(C, slot(3), Uint8Array.of(3)),
]
const second: Step[] = [
  (s) => s.clearStorage(B), // B's earlier slot 1 write is gone with the wipe
  (s) => s.putStorage(B, slot(2), Uint8Array.of(4)),
  (s) => s.putStorage(A, slot(1), Uint8Array.of(5)), // overrides the earlier write
  (s) => s.putStorage(A, slot(2), Uint8Array.of(6)),
  (s) => s.deleteAccount(C),
  (s) => s.putAccount(D, new Account(0n, 7n)),
  (s) => s.putCode(D, Uint8Array.of(0x60, 0x01)),
]

/** Plain data for comparison: accounts as RLP, storage and codes as hex, in key order. */
function plain(d: StateDiff) {
  const sorted = <T>(m: Iterable<[string, T]>) => [...m].sort(([a], [b]) => a.localeCompare(b))
  return {
    accounts: sorted(d.accounts).map(([k, v]) => [k, v === null ? null : bytesToHex(v.serialize())]),
    storage: sorted(d.storage).map(([k, slots]) => [k, sorted(slots).map(([s, v]) => [s, bytesToHex(v)])]),
    wiped: [...d.wiped].sort(),
    codes: sorted(d.codes).map(([k, v]) => [k, bytesToHex(v)]),
  }
}

test('merging two diffs in order equals one diff of both sets of writes', async () => {
  const once = new JournaledState(base)
  for (const step of [...first, ...second]) await step(once)

  const one = new JournaledState(base)
  for (const step of first) await step(one)
  const earlier = one.diff()
  const two = new JournaledState(new OverlayReader(base, earlier))
  for (const step of second) await step(two)
  const merged = mergeDiffs(earlier, two.diff())

  assert.deepEqual(plain(merged), plain(once.diff()))
  assert.deepEqual(plain(earlier), plain(one.diff()), 'the earlier diff is left as it was')
  const bSlots = merged.storage.get(B.toString())!
  assert.deepEqual([...bSlots.keys()], [bytesToHex(slot(2))], 'only writes after the later wipe')
})

test('touchedAddresses names accounts, storage and wipes alike', () => {
  const diff: StateDiff = {
    accounts: new Map([[A.toString(), new Account()]]),
    storage: new Map([[B.toString(), new Map([[bytesToHex(slot(1)), Uint8Array.of(1)]])]]),
    wiped: new Set([C.toString()]),
    codes: new Map([['0x1234', Uint8Array.of(1)]]),
  }
  assert.deepEqual([...touchedAddresses(diff)].sort(), [A, B, C].map((a) => a.toString()).sort())
})
