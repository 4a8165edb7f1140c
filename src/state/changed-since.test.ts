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

/** A diff as comparable data; an address with an empty storage map holds no slot, as one without. */
const plain = (d: StateDiff) => ({
  accounts: [...d.accounts].map(([k, a]) => [k, a === null ? null : a.serialize()]).sort(),
  storage: [...d.storage].filter(([, s]) => s.size > 0).map(([k, s]) => [k, [...s].sort()]).sort(),
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
  // an address none of whose slots changed is left out, not carried with no slots (a stream message would
  // name it for nothing)
  assert.equal(changedSince(later, later).storage.size, 0)
})

test('changedSince at the edges: accounts created, deleted and re-created, a nonce alone, a longer value, wipes with and without slots', () => {
  const D = '0x00000000000000000000000000000000000000d4'
  const E = '0x00000000000000000000000000000000000000e5'
  const F = '0x00000000000000000000000000000000000000f6'
  const G = '0x0000000000000000000000000000000000000017'
  const earlier = diff({
    accounts: [[A, new Account(1n, 100n)], [B, new Account(3n, 5n)], [E, null]],
    storage: [[A, [[slot(1), v(1)]]]],
    wiped: [G],
  })
  const later = diff({
    // A deleted, B only its nonce, D created with storage, E re-created after its deletion
    accounts: [[A, null], [B, new Account(4n, 5n)], [D, new Account(0n, 1n)], [E, new Account(1n, 2n)]],
    // A's slot 1 → 256 (one byte to two); D's first slot; G (wiped before, and no slot then) gets a slot
    storage: [[A, [[slot(1), Uint8Array.of(1, 0)]]], [D, [[slot(1), v(7)]]], [G, [[slot(5), v(5)]]]],
    // F's storage cleared with nothing written after; G still wiped from before
    wiped: [F, G],
  })
  const delta = changedSince(earlier, later)
  assert.deepEqual([...delta.accounts.keys()].sort(), [A, B, D, E].sort())
  assert.equal(delta.accounts.get(A), null)
  assert.equal(delta.accounts.get(B)?.nonce, 4n)
  assert.deepEqual(delta.storage.get(A)?.get(slot(1)), Uint8Array.of(1, 0))
  assert.deepEqual(delta.storage.get(D)?.get(slot(1)), v(7))
  assert.deepEqual([...delta.wiped].sort(), [F], 'F newly wiped; G wiped before and lost nothing since')
  assert.equal(delta.storage.get(F)?.size, 0)
  assert.deepEqual([...delta.storage.get(G)!], [[slot(5), v(5)]])
  assert.deepEqual(plain(mergeDiffs(earlier, delta)), plain(later))
})
