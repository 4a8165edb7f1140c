/**
 * The pool's rules at their edges: a transaction using exactly the block gas limit, a blob transaction's
 * replacement (its blob fee cap must rise by the bump too), and the queue lifetime of a sender that keeps
 * adding gapped transactions.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { FlashnodeError } from '../errors/errors.ts'
import { TxPool, type DropReason } from './pool.ts'
import { CHAIN_ID, FakeState, GWEI, TO, env, forks, keys, signedBlobTx, transfer } from './test-kit.ts'


const [alice, bob] = [keys[0]!, keys[1]!]

const rejected = (message: string) => (e: unknown) => {
  assert.ok(e instanceof FlashnodeError && e.kind === 'transactionRejected', String(e))
  assert.equal(e.message, message)
  return true
}

test('a transaction whose gas equals the block gas limit is admitted and kept; one more gas is not', () => {
  const limit = 10_000_000n // below Osaka's per-transaction cap (EIP-7825), so only the block limit binds
  const pool = new TxPool()
  const state = new FakeState()
  const dropped: Array<[string, DropReason]> = []
  pool.events.on('dropped', (hash, reason) => dropped.push([hash, reason]))
  const envAt = env(forks.osaka, { blockGasLimit: limit })
  assert.throws(() => pool.add(transfer(alice, 0, { gas: limit + 1n }), state, envAt), rejected('exceeds block gas limit'))
  const full = pool.add(transfer(alice, 0, { gas: limit }), state, envAt)
  assert.equal(full.status, 'pending')
  pool.onNewState(state, { blockGasLimit: limit })
  assert.ok(pool.has(full.hash), 'a new state with the same block gas limit keeps it')
  assert.deepEqual(dropped, [])
  pool.onNewState(state, { blockGasLimit: limit - 1n })
  assert.equal(pool.has(full.hash), false)
  assert.deepEqual(dropped, [[full.hash, 'gasLimit']], 'a lower block gas limit drops it')
})

/** A Cancun blob transfer from alice (test-kit's signedBlobTx). */
const blobTx = (feeCap: bigint, tip: bigint, blobFeeCap: bigint): Uint8Array => signedBlobTx(alice, { feeCap, tip, blobFeeCap })

test('replacing a blob transaction needs the 10% bump on its blob fee cap too', () => {
  const pool = new TxPool()
  const state = new FakeState()
  const cancun = env(forks.cancun)
  const first = pool.add(blobTx(100n * GWEI, 10n * GWEI, 100n), state, cancun)
  assert.equal(first.tx.blobFeeCap, 100n)
  const underpriced = rejected('replacement transaction underpriced')
  // Fee cap and tip bumped by 10%, the blob fee cap not enough.
  assert.throws(() => pool.add(blobTx(110n * GWEI, 11n * GWEI, 100n), state, cancun), underpriced)
  assert.throws(() => pool.add(blobTx(110n * GWEI, 11n * GWEI, 109n), state, cancun), underpriced)
  assert.ok(pool.has(first.hash))
  const second = pool.add(blobTx(110n * GWEI, 11n * GWEI, 110n), state, cancun)
  assert.equal(second.replaced, first.hash, 'all three caps bumped by 10%')
  assert.equal(pool.has(first.hash), false)
})

test('a sender that keeps adding gapped transactions does not renew its queue lifetime: they still expire', () => {
  let now = 1_000
  const lifetime = 1_000
  const pool = new TxPool({ now: () => now, config: { queueLifetimeMs: lifetime } })
  const state = new FakeState()
  const add = (raw: Uint8Array) => pool.add(raw, state, env())
  const gapped = [add(transfer(alice, 2))]
  const bobQueued = add(transfer(bob, 2))
  now += 600
  gapped.push(add(transfer(alice, 3)))
  add(transfer(bob, 0)) // executable growth is progress: bob's gapped transaction lives on
  now += 300
  gapped.push(add(transfer(alice, 4)))
  assert.deepEqual(gapped.map((r) => r.status), ['queued', 'queued', 'queued'])
  now = 1_000 + lifetime
  assert.equal(pool.expire(), 0, 'exactly the lifetime after the first gapped transaction: not yet')
  now += 1
  assert.equal(pool.expire(), 3, 'alice\'s later gapped transactions did not renew her lifetime')
  for (const r of gapped) assert.equal(pool.has(r.hash), false)
  assert.ok(pool.has(bobQueued.hash))
  assert.deepEqual(pool.stats(), { pending: 1, queued: 1, senders: 1 })
})
