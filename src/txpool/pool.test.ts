import { test } from 'node:test'
import assert from 'node:assert/strict'
import { FlashnodeError } from '../errors/errors.ts'
import { TxPool, type DropReason, type TxPoolOptions } from './pool.ts'
import { FakeState, GWEI, env, keys, transfer } from './test-kit.ts'

const [alice, bob, carol, dave] = [keys[0]!, keys[1]!, keys[2]!, keys[3]!]

function setup(opts: TxPoolOptions = {}) {
  let now = 1_000
  const pool = new TxPool({ now: () => now, ...opts })
  const state = new FakeState()
  const dropped: Array<[string, DropReason]> = []
  const promoted: string[] = []
  const added: string[] = []
  pool.events.on('dropped', (hash, reason) => dropped.push([hash, reason]))
  pool.events.on('promoted', (tx) => promoted.push(tx.hashHex))
  pool.events.on('added', (tx, status) => added.push(`${tx.nonce}:${status}`))
  const add = (raw: Uint8Array) => pool.add(raw, state, env())
  return { pool, state, dropped, promoted, added, add, tick: (ms: number) => (now += ms), now: () => now }
}

const rejected = (message: string) => (e: unknown) => {
  assert.ok(e instanceof FlashnodeError && e.kind === 'transactionRejected', String(e))
  assert.equal(e.message, message)
  return true
}

test('gapped nonces (2, 3, 1, 0) are all accepted, queued, then promoted when the gap fills', () => {
  const { pool, add, promoted, added } = setup()
  const r2 = add(transfer(alice, 2))
  const r3 = add(transfer(alice, 3))
  const r1 = add(transfer(alice, 1))
  assert.deepEqual([r2.status, r3.status, r1.status], ['queued', 'queued', 'queued'])
  assert.equal(pool.pendingNonce(alice.address, 0n), 0n)
  assert.deepEqual(pool.stats(), { pending: 0, queued: 3, senders: 1 })
  const r0 = add(transfer(alice, 0))
  assert.equal(r0.status, 'pending')
  assert.deepEqual(promoted, [r1.hash, r2.hash, r3.hash])
  assert.deepEqual(added, ['2:queued', '3:queued', '1:queued', '0:pending'])
  assert.deepEqual(pool.stats(), { pending: 4, queued: 0, senders: 1 })
  for (const r of [r0, r1, r2, r3]) assert.equal(pool.status(r.hash), 'pending')
  assert.equal(pool.pendingNonce(alice.address, 0n), 4n)
  assert.deepEqual(pool.all(), [r2.tx.raw, r3.tx.raw, r1.tx.raw, r0.tx.raw])
})

test('a replacement must raise both fee caps by 10%: +9% is refused, +10% accepted', () => {
  const { pool, add, dropped } = setup()
  const first = add(transfer(alice, 0, { feeCap: 100n * GWEI, tip: 10n * GWEI }))
  const underpriced = rejected('replacement transaction underpriced')
  assert.throws(() => add(transfer(alice, 0, { feeCap: 109n * GWEI, tip: 11n * GWEI })), underpriced)
  assert.throws(() => add(transfer(alice, 0, { feeCap: 110n * GWEI, tip: 10_900_000_000n })), underpriced)
  assert.throws(() => add(transfer(alice, 0, { feeCap: 200n * GWEI, tip: 10n * GWEI })), underpriced)
  const second = add(transfer(alice, 0, { feeCap: 110n * GWEI, tip: 11n * GWEI }))
  assert.equal(second.replaced, first.hash)
  assert.equal(second.status, 'pending')
  assert.equal(pool.has(first.hash), false)
  assert.equal(pool.get(second.hash), second.tx)
  assert.deepEqual(dropped, [[first.hash, 'replaced']])
  assert.deepEqual(pool.all(), [second.tx.raw])
  // The bump is configurable; a queued transaction is replaced the same way.
  const lax = setup({ config: { priceBumpPercent: 5 } })
  lax.add(transfer(alice, 3, { feeCap: 100n * GWEI, tip: 10n * GWEI }))
  const r = lax.add(transfer(alice, 3, { feeCap: 105n * GWEI, tip: 10_500_000_000n }))
  assert.equal(r.status, 'queued')
  assert.ok(r.replaced !== undefined)
})

test('when full, the cheapest evictable tail gives way; cheaper newcomers are "transaction underpriced"', () => {
  const { pool, add, dropped } = setup({ config: { globalSlots: 2, globalQueue: 1, accountSlots: 1 } })
  const a0 = add(transfer(alice, 0, { tip: 3n * GWEI, feeCap: 5n * GWEI }))
  const a1 = add(transfer(alice, 1, { tip: 2n * GWEI, feeCap: 5n * GWEI }))
  const b0 = add(transfer(bob, 0, { tip: 1n * GWEI, feeCap: 5n * GWEI })) // guaranteed: bob has no executable tx yet
  assert.deepEqual(pool.stats(), { pending: 3, queued: 0, senders: 2 })
  // Only alice's tail (her second executable tx, beyond accountSlots) is evictable.
  assert.throws(() => add(transfer(carol, 0, { tip: 2n * GWEI, feeCap: 5n * GWEI })), rejected('transaction underpriced'))
  const c0 = add(transfer(carol, 0, { tip: 2n * GWEI + 1n, feeCap: 5n * GWEI }))
  assert.deepEqual(dropped, [[a1.hash, 'evicted']])
  assert.equal(pool.has(a0.hash) && pool.has(b0.hash) && pool.has(c0.hash), true)
  // Nothing is evictable any more: every sender is within its guaranteed slots.
  assert.throws(() => add(transfer(dave, 0, { tip: 50n * GWEI, feeCap: 100n * GWEI })), rejected('txpool is full'))
})

test('eviction takes a sender\'s highest nonce, never opening a gap, and a gapped newcomer never evicts executable txs', () => {
  const { pool, add, dropped } = setup({ config: { globalSlots: 3, globalQueue: 1, accountSlots: 1 } })
  const txs = [0, 1, 2].map((n) => add(transfer(alice, n, { tip: BigInt(3 - n) * GWEI, feeCap: 5n * GWEI })))
  add(transfer(bob, 0, { tip: 5n * GWEI, feeCap: 5n * GWEI }))
  // Full (4). Carol's executable tx outbids alice's tail (nonce 2, 1 gwei) though nonce 1 is cheaper than nonce 0.
  add(transfer(carol, 0, { tip: 2n * GWEI, feeCap: 5n * GWEI }))
  assert.deepEqual(dropped, [[txs[2]!.hash, 'evicted']])
  assert.equal(pool.status(txs[1]!.hash), 'pending')
  assert.throws(() => add(transfer(dave, 7, { tip: 4n * GWEI, feeCap: 5n * GWEI })), rejected('future transaction tries to replace pending'))
})

test('the gapped queue has its own limits: per account (lowest nonces kept) and overall', () => {
  const { pool, add, dropped } = setup({ config: { accountQueue: 2, globalQueue: 3 } })
  add(transfer(alice, 5))
  const a6 = add(transfer(alice, 6))
  assert.throws(() => add(transfer(alice, 7)), rejected('account limit exceeded: pooled 2 txs'))
  add(transfer(alice, 3))
  assert.deepEqual(dropped, [[a6.hash, 'evicted']])
  assert.equal(pool.stats().queued, 2)
  add(transfer(bob, 4, { tip: 2n * GWEI, feeCap: 3n * GWEI }))
  assert.equal(pool.stats().queued, 3)
  // The overall queue is full: the cheapest gapped tail (alice's, 1 gwei) gives way to a better one.
  assert.throws(() => add(transfer(carol, 9, { tip: GWEI, feeCap: 2n * GWEI })), rejected('transaction underpriced'))
  add(transfer(carol, 9, { tip: 3n * GWEI, feeCap: 4n * GWEI }))
  assert.equal(dropped.length, 2)
  assert.equal(pool.stats().queued, 3)
})

test('a sender never evicts its own transactions to make room: the next cheapest sender gives way', () => {
  const { pool, add, dropped } = setup({ config: { globalQueue: 3 } })
  add(transfer(alice, 5, { tip: 1n * GWEI, feeCap: 5n * GWEI }))
  const b = add(transfer(bob, 5, { tip: 2n * GWEI, feeCap: 5n * GWEI }))
  add(transfer(carol, 5, { tip: 3n * GWEI, feeCap: 5n * GWEI }))
  // Alice's tail is the cheapest, but she is the one asking: her queue must not get a hole.
  add(transfer(alice, 6, { tip: 4n * GWEI, feeCap: 5n * GWEI }))
  assert.deepEqual(dropped, [[b.hash, 'evicted']])
  assert.equal(pool.stats().queued, 3)
})

test('gapped transactions expire after the queue lifetime without progress; executable ones never do', () => {
  const { pool, add, tick, dropped, now } = setup()
  const p = add(transfer(alice, 0))
  const q = add(transfer(bob, 3))
  tick(3 * 3600_000)
  assert.equal(pool.expire(), 0)
  tick(1)
  assert.equal(pool.expire(), 1)
  assert.deepEqual(dropped, [[q.hash, 'expired']])
  assert.equal(pool.has(p.hash), true)
  // Progress (a promotion) renews the sender's heartbeat.
  add(transfer(carol, 1))
  tick(2 * 3600_000)
  add(transfer(carol, 0))
  add(transfer(carol, 3))
  tick(2 * 3600_000)
  assert.equal(pool.expire(), 0)
  assert.equal(pool.expire(now() + 3600_000), 0)
  assert.equal(pool.expire(now() + 3600_000 + 1), 1)
})

test('pendingNonce: max(state nonce, the consecutive run in the pool)', () => {
  const { pool, add } = setup()
  assert.equal(pool.pendingNonce(alice.address, 4n), 4n)
  add(transfer(alice, 0))
  add(transfer(alice, 1))
  add(transfer(alice, 3))
  assert.equal(pool.pendingNonce(alice.address, 0n), 2n)
  assert.equal(pool.pendingNonce(alice.hex, 1n), 2n) // a newer state the pool has not seen
  assert.equal(pool.pendingNonce(alice.address, 3n), 4n)
  assert.equal(pool.pendingNonce(alice.address, 9n), 9n)
})

test('onNewState drops stale and unpayable transactions, demotes and promotes', () => {
  const { pool, add, state, dropped, promoted } = setup()
  const a = [0, 1, 2, 4].map((n) => add(transfer(alice, n)))
  const b = [0, 1, 2].map((n) => add(transfer(bob, n, { value: BigInt(n) * 10n ** 18n })))
  // Alice's nonces 0..3 ran (3 came from elsewhere); bob can now pay for nonces 0 and 1 only (each alone).
  state.set(alice, { nonce: 4n }).set(bob, { balance: 10n ** 18n + 10n ** 15n })
  pool.onNewState(state)
  assert.deepEqual(
    dropped.map(([h, r]) => [a.concat(b).findIndex((x) => x.hash === h), r]),
    [[0, 'stale'], [1, 'stale'], [2, 'stale'], [6, 'insufficientFunds']],
  )
  assert.deepEqual(promoted, [a[3]!.hash])
  assert.equal(pool.status(a[3]!.hash), 'pending')
  assert.equal(pool.status(b[1]!.hash), 'pending')
  // Bob's balance falls below nonce 0's cost: it goes, and nonce 1 is demoted (gapped).
  state.set(bob, { balance: 1n })
  state.set(carol, { balance: 0n })
  pool.onNewState(state, { touched: [bob.address] })
  assert.equal(pool.has(b[0]!.hash), false)
  assert.equal(pool.has(b[1]!.hash), false) // 1 ether + fees > 1 wei too
  assert.deepEqual(pool.stats(), { pending: 1, queued: 0, senders: 1 })
})

test('a transaction removed from the middle gaps its successors; included ones advance the sender', () => {
  const { pool, add, dropped, state } = setup()
  const a = [0, 1, 2, 3].map((n) => add(transfer(alice, n)))
  pool.included([a[0]!.hash])
  state.set(alice, { nonce: 1n }) // what the pending state says after the block builder ran nonce 0
  assert.equal(pool.status(a[1]!.hash), 'pending')
  assert.equal(pool.pendingNonce(alice.address, 1n), 4n)
  assert.equal(pool.remove(a[2]!.tx.hash, 'test'), true)
  assert.equal(pool.remove(a[2]!.hash), false)
  assert.equal(pool.status(a[1]!.hash), 'pending')
  assert.equal(pool.status(a[3]!.hash), 'queued')
  assert.deepEqual(dropped, [[a[0]!.hash, 'included'], [a[2]!.hash, 'test']])
  assert.deepEqual(pool.stats(), { pending: 1, queued: 1, senders: 1 })
  // Refilling the gap promotes nonce 3 again.
  const again = add(transfer(alice, 2))
  assert.equal(again.status, 'pending')
  assert.equal(pool.status(a[3]!.hash), 'pending')
})

test('a stale state seen at admission clears the sender first', () => {
  const { pool, add, state } = setup()
  const a0 = add(transfer(alice, 0))
  state.set(alice, { nonce: 1n })
  const a1 = add(transfer(alice, 1))
  assert.equal(a1.status, 'pending')
  assert.equal(pool.has(a0.hash), false)
  assert.deepEqual(pool.stats(), { pending: 1, queued: 0, senders: 1 })
})

test('eviction order follows the effective tip at the current base fee', () => {
  for (const [baseFee, victim] of [[GWEI, 'y'], [4n * GWEI, 'x']] as const) {
    const { pool, state, dropped } = setup({ config: { globalQueue: 2 } })
    const x = pool.add(transfer(alice, 5, { tip: 5n * GWEI, feeCap: 6n * GWEI }), state, env())
    const y = pool.add(transfer(bob, 5, { tip: 3n * GWEI, feeCap: 20n * GWEI }), state, env())
    // The base fee seen with the newcomer re-orders the pooled tails.
    pool.add(transfer(carol, 5, { tip: 10n * GWEI, feeCap: 30n * GWEI }), state, env(undefined, { baseFee }))
    assert.deepEqual(dropped, [[victim === 'x' ? x.hash : y.hash, 'evicted']])
  }
})

test('onNewState drops what no longer fits a block, and enforces the limits', () => {
  const { pool, add, state, dropped } = setup()
  const big = add(transfer(alice, 0, { gas: 100_000n }))
  const small = add(transfer(bob, 0))
  pool.onNewState(state, { blockGasLimit: 50_000n })
  assert.deepEqual(dropped, [[big.hash, 'gasLimit']])
  assert.equal(pool.has(small.hash), true)
})

test('events are emitted once the pool is consistent, in order', () => {
  const { pool, add } = setup()
  const seen: string[] = []
  pool.events.on('added', (tx, status) => seen.push(`added ${tx.nonce} ${status} ${pool.status(tx.hashHex)}`))
  pool.events.on('promoted', (tx) => seen.push(`promoted ${tx.nonce} ${pool.status(tx.hashHex)}`))
  pool.events.on('dropped', (hash, reason) => seen.push(`dropped ${reason} ${pool.has(hash)}`))
  add(transfer(alice, 1, { feeCap: 2n * GWEI, tip: GWEI }))
  add(transfer(alice, 1, { feeCap: 3n * GWEI, tip: 2n * GWEI }))
  add(transfer(alice, 0))
  assert.deepEqual(seen, [
    'added 1 queued queued',
    'dropped replaced false',
    'added 1 queued queued',
    'added 0 pending pending',
    'promoted 1 pending',
  ])
  const off = pool.events.on('added', () => seen.push('second listener'))
  off()
  add(transfer(bob, 0))
  assert.equal(seen.at(-1), 'added 0 pending pending')
})

test('an already decoded transaction can be added (e.g. restored from persistence)', () => {
  const first = setup()
  const r = first.add(transfer(alice, 0))
  const second = setup()
  const again = second.pool.add(r.tx, second.state, env())
  assert.equal(again.hash, r.hash)
  assert.equal(again.tx, r.tx)
  assert.throws(() => second.pool.add(r.tx, second.state, env()), rejected('already known'))
})
