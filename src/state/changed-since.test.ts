/**
 * changedSince: the part of a later diff of one block that is new since an earlier one (what one flashblock
 * changed), checked by applying it back with mergeDiffs.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Account } from '@ethereumjs/util'
import { changedSince, mergeDiffs, type StateDiff } from './state-diff.ts'

const A = '0x00000000000000000000000000000000000000a1'
const B = '0x00000000000000000000000000000000000000b2'
const C = '0x00000000000000000000000000000000000000c3'
const slot = (n: number) => `0x${n.toString(16).padStart(64, '0')}`
const v = (n: number) => Uint8Array.of(n)

function diff(d: Partial<{ accounts: [string, Account | null][]; storage: [string, [string, Uint8Array][]][]; wiped: string[]; codes: [string, Uint8Array][] }>): StateDiff {
  return {
    accounts: new Map(d.accounts ?? []),
    storage: new Map((d.storage ?? []).map(([a, s]) => [a, new Map(s)])),
    wiped: new Set(d.wiped ?? []),
    codes: new Map(d.codes ?? []),
  }
}

const plain = (d: StateDiff) => ({
  accounts: [...d.accounts].map(([k, a]) => [k, a === null ? null : a.serialize()]).sort(),
  storage: [...d.storage].map(([k, s]) => [k, [...s].sort()]).sort(),
  wiped: [...d.wiped].sort(),
  codes: [...d.codes].sort(),
})

test('changedSince holds only what changed, and applied on the earlier diff gives the later one', () => {
  const earlier = diff({
    accounts: [[A, new Account(1n, 100n)], [B, new Account(0n, 5n)]],
    storage: [[A, [[slot(1), v(1)], [slot(2), v(2)]]], [C, [[slot(1), v(9)]]]],
    wiped: [C],
    codes: [['0xc0de', v(0x60)]],
  })
  const later = diff({
    // A changed, B the same value in a new object, C created (wiped) before and now wiped again.
    accounts: [[A, new Account(2n, 90n)], [B, new Account(0n, 5n)], [C, null]],
    storage: [[A, [[slot(1), v(1)], [slot(2), v(3)], [slot(3), v(4)]]], [C, [[slot(2), v(8)]]]],
    wiped: [C],
    codes: [['0xc0de', v(0x60)], ['0xc0d2', v(0x61)]],
  })
  const delta = changedSince(earlier, later)
  assert.deepEqual([...delta.accounts.keys()], [A, C])
  assert.deepEqual([...delta.storage.get(A)!.keys()], [slot(2), slot(3)])
  assert.deepEqual([...delta.wiped], [C], 'C lost a slot: wiped again')
  assert.deepEqual([...delta.codes.keys()], ['0xc0d2'])
  assert.deepEqual(plain(mergeDiffs(earlier, delta)), plain(later))
  assert.deepEqual(plain(changedSince(later, later)), plain(diff({})))
})
