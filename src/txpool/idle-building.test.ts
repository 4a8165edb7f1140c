/**
 * Which admitted (prepared) transactions get their library object built in the event loop's idle turns, and
 * how: those the block builder cannot run from their records (a set-code transaction), at most 16 per turn
 * so that a burst does not hold the loop, until all are built; and again for what arrives after. Types 0 to
 * 2 (calls, creations, transfers) are never built there: the builder runs them from their records.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { TxPool } from './pool.ts'
import { prepareTx } from './prepared.ts'
import type { PooledTx } from './decode.ts'
import { CHAIN_ID, FakeState, GWEI, TO, env, forks, keys, signFields, transfer } from './test-kit.ts'

const idleTurn = () => new Promise((resolve) => setImmediate(resolve))
const isBuilt = (tx: PooledTx) => (tx as unknown as { isBuilt: boolean }).isBuilt

function admitPrepared(pool: TxPool, state: FakeState, raw: Uint8Array): PooledTx {
  return pool.add(raw, state, env(forks.osaka, { prepared: prepareTx(raw, forks.osaka) })).tx
}

// First in the file: the first idle turn of the process is the one measured.
const to = Uint8Array.from(Buffer.from(TO.slice(2), 'hex'))
const setCode = (nonce: number) => signFields(4, [CHAIN_ID, BigInt(nonce), GWEI, 2n * GWEI, 60_000n, to, 0n, new Uint8Array(), [], [[CHAIN_ID, to, 0n, 0n, 1n, 1n]]], keys[0]!)

test('a burst of set-code transactions is built 16 per idle turn until all are; a later one is built too', async () => {
  const pool = new TxPool()
  const state = new FakeState()
  const call = (nonce: number) => admitPrepared(pool, state, setCode(nonce))
  const burst = Array.from({ length: 20 }, (_, n) => call(n))
  assert.equal(burst.filter(isBuilt).length, 0)
  await idleTurn()
  assert.equal(burst.filter(isBuilt).length, 16)
  await idleTurn()
  assert.equal(burst.filter(isBuilt).length, 20)
  await idleTurn()
  const later = call(20)
  await idleTurn()
  assert.equal(isBuilt(later), true)
})

test('a set-code transaction is built in an idle turn; a creation, a call and a transfer are not', async () => {
  const pool = new TxPool()
  const state = new FakeState()
  const delegating = admitPrepared(pool, state, setCode(0))
  const creation = admitPrepared(pool, state, transfer(keys[1]!, 0, { to: '', gas: 60_000n }))
  const call = admitPrepared(pool, state, transfer(keys[3]!, 0, { data: new Uint8Array([1, 2, 3]), gas: 60_000n }))
  const plain = admitPrepared(pool, state, transfer(keys[2]!, 0))
  await idleTurn()
  assert.deepEqual([delegating, creation, call, plain].map(isBuilt), [true, false, false, false])
})
