import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Account } from '@ethereumjs/util'
import { bigIntToFixedBytes, bigIntToMinimalBytes, bytesToBigInt, bytesToHex, hexToBytes } from '../primitives/hex.ts'
import { keccak256 } from '../primitives/keccak.ts'
import type { StateReader } from '../state/state-reader.ts'
import { rulesFor } from './fork.ts'
import { SystemCallMemo } from './system-call-memo.ts'
import { BEACON_ROOTS_ADDRESS, CONSOLIDATION_QUEUE_ADDRESS, HISTORY_STORAGE_ADDRESS, runSystemCall, WITHDRAWAL_QUEUE_ADDRESS } from './system-call.ts'
import { SYSTEM_CONTRACTS } from './system-contracts.ts'
import { blockEnvWith } from './test-kit.ts'
import { WorldState } from './world-state.ts'

const prague = rulesFor('prague')
const block = blockEnvWith({ number: 1_000n, timestamp: 12_000n })
const EMPTY = new Uint8Array(0)

/** A base state holding the published system contracts (or other code where `code` says), with `slots`. */
function baseWith(slots: ReadonlyMap<bigint, ReadonlyMap<bigint, bigint>> = new Map(), code: ReadonlyMap<bigint, Uint8Array> = new Map()): StateReader {
  const codes = new Map<bigint, Uint8Array>(SYSTEM_CONTRACTS.map((c) => [BigInt(c.address), hexToBytes(c.code)]))
  for (const [a, c] of code) codes.set(a, c)
  const byHash = new Map<string, Uint8Array>([...codes.values()].map((c) => [bytesToHex(keccak256(c)), c]))
  return {
    getAccount: (a) => {
      const c = codes.get(bytesToBigInt(a))
      return c === undefined ? undefined : new Account(1n, 0n, undefined, keccak256(c))
    },
    getStorage: (a, s) => bigIntToMinimalBytes(slots.get(bytesToBigInt(a))?.get(bytesToBigInt(s)) ?? 0n),
    getCode: (h) => byHash.get(bytesToHex(h)) ?? EMPTY,
  }
}

/** A withdrawal-request queue holding one request (head 0, tail 1; three slots of request data from slot 4). */
const ONE_QUEUED = new Map([[WITHDRAWAL_QUEUE_ADDRESS, new Map([[1n, 1n], [3n, 1n], [4n, 0xabcdn], [5n, (1n << 255n) | 7n], [6n, (9n << 128n) | 5n]])]])

type Call = readonly [to: bigint, data: Uint8Array]
const CALLS: readonly Call[] = [
  [BEACON_ROOTS_ADDRESS, bigIntToFixedBytes(0xbeefn, 32)],
  [HISTORY_STORAGE_ADDRESS, bigIntToFixedBytes(0xfeedn, 32)],
  [WITHDRAWAL_QUEUE_ADDRESS, EMPTY],
  [CONSOLIDATION_QUEUE_ADDRESS, EMPTY],
]

/** Runs the calls in order on a fresh WorldState over `base`: each call's result, and the world's diff. */
function runAll(base: StateReader, memo?: SystemCallMemo, before?: (w: WorldState) => void) {
  const world = new WorldState(base)
  before?.(world)
  const results = CALLS.map(([to, data]) => runSystemCall(world, block, prague, to, data, memo))
  return { results, diff: world.diff(), world }
}

for (const [name, slots] of [['empty queues', new Map()], ['a queued withdrawal request', ONE_QUEUED]] as const) {
  test(`system calls applied from the memo leave the state and results exactly as running them (${name})`, () => {
    const base = baseWith(slots)
    const plain = runAll(base)
    const memo = new SystemCallMemo()
    const recorded = runAll(base, memo)
    assert.equal(memo.hits, 0)
    const applied = runAll(base, memo)
    assert.equal(memo.hits, CALLS.length, 'every call of the second block was applied from the memo')
    assert.deepEqual(recorded, plain)
    assert.deepEqual(applied.results, plain.results)
    assert.deepEqual(applied.diff, plain.diff)
    assert.ok(plain.diff.storage.size >= 2, 'the calls wrote storage')
    if (slots.size > 0) assert.equal(plain.results[2]!.output.length, 76, 'the queued request was dequeued')
  })
}

test('a contract whose storage changed on this WorldState runs instead of taking the remembered effect', () => {
  const base = baseWith(ONE_QUEUED)
  const memo = new SystemCallMemo()
  runAll(base, memo)
  // a request added before the block's end: the queue's tail moves on this world only
  const addRequest = (w: WorldState): void => {
    w.beginTransaction()
    w.setStorage(WITHDRAWAL_QUEUE_ADDRESS, 3n, 2n)
    w.setStorage(WITHDRAWAL_QUEUE_ADDRESS, 7n, 0x1234n)
    w.endTransaction(true)
  }
  const hitsBefore = memo.hits
  const withMemo = runAll(base, memo, addRequest)
  const plain = runAll(base, undefined, addRequest)
  assert.equal(memo.hits - hitsBefore, CALLS.length - 1, 'all but the changed queue were applied')
  assert.deepEqual(withMemo.results, plain.results)
  assert.deepEqual(withMemo.diff, plain.diff)
  assert.equal(plain.results[2]!.output.length, 2 * 76, 'two requests dequeued, not the remembered one')
})

test('code other than the published contract at a system address is never remembered', () => {
  // CALLER SSTORE at slot 0, TIMESTAMP at slot 1: an effect that the memo's key would not capture for other code
  const other = Uint8Array.from([0x33, 0x5f, 0x55, 0x42, 0x60, 0x01, 0x55, 0x00])
  const base = baseWith(new Map(), new Map([[BEACON_ROOTS_ADDRESS, other]]))
  const memo = new SystemCallMemo()
  runAll(base, memo)
  runAll(base, memo)
  assert.equal(memo.hits, CALLS.length - 1, 'the three published contracts were applied, the beacon-roots address with other code ran')
})

test('the memo holds at most its bound of effects, and a different block is a different effect', () => {
  const base = baseWith()
  const memo = new SystemCallMemo(2)
  const blocks = [1n, 2n, 3n]
  const beaconRootAt = (t: bigint, m?: SystemCallMemo) => {
    const world = new WorldState(base)
    runSystemCall(world, blockEnvWith({ number: t, timestamp: t }), prague, BEACON_ROOTS_ADDRESS, bigIntToFixedBytes(t, 32), m)
    return world.diff()
  }
  for (const t of blocks) beaconRootAt(t, memo)
  const again = blocks.map((t) => beaconRootAt(t, memo))
  assert.equal(memo.hits, 2, 'the first two effects were remembered, the third was not')
  assert.deepEqual(again, blocks.map((t) => beaconRootAt(t)))
  assert.notDeepEqual(again[0], again[1])
})
