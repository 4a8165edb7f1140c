/**
 * Which transaction gives way when a limit binds, limit by limit: the whole pool full (the cheapest tail
 * anywhere), the gapped queue full (a gapped tail only), the executable slots full for a sender at its
 * guaranteed slots (an executable tail of a sender over its slots only); a sender never evicts itself; a
 * sender's tail price is followed when its tail changes; and a new state that leaves the pool over its limits.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { FlashnodeError } from '../errors/errors.ts'
import type { PoolConfig } from './config.ts'
import { TxPool } from './pool.ts'
import { ETHER, FakeState, GWEI, env, makeKey, transfer, type Key, type TransferOptions } from './test-kit.ts'

const [alice, bob, carol, dave] = [makeKey(0), makeKey(1), makeKey(2), makeKey(3)]
const names = new Map<string, string>([alice, bob, carol, dave].map((k, i) => [k.hex, ['alice', 'bob', 'carol', 'dave'][i]!]))

function setup(config: Partial<PoolConfig>) {
  const pool = new TxPool({ now: () => 0, config })
  const state = new FakeState([alice, bob, carol, dave])
  const label = new Map<string, string>()
  const dropped: string[] = []
  pool.events.on('added', (tx) => label.set(tx.hashHex, `${names.get(tx.senderHex)}${tx.nonce}`))
  pool.events.on('dropped', (hash, reason) => dropped.push(`${label.get(hash)} ${reason}`))
  /** Adds `key`'s transaction with this nonce at `gwei` fee cap (tip 1 gwei unless given). */
  const add = (key: Key, nonce: number, gwei: bigint, o: TransferOptions = {}) =>
    pool.add(transfer(key, nonce, { feeCap: gwei * GWEI, ...o }), state, env())
  return { pool, state, dropped, add }
}

const refused = (message: string) => (e: unknown) => e instanceof FlashnodeError && e.message === message

test('a full pool: the cheapest gapped tail gives way to an executable newcomer', () => {
  const { pool, add, dropped } = setup({ globalSlots: 1, globalQueue: 1 })
  add(alice, 0, 2n)
  add(bob, 2, 2n)
  const c = add(carol, 0, 3n)
  assert.deepEqual(dropped, ['bob2 evicted'])
  assert.equal(c.status, 'pending')
  assert.deepEqual(pool.stats(), { pending: 2, queued: 0, senders: 2 })
})

test('a full pool: an executable tail cheaper than every gapped one gives way', () => {
  const { add, dropped } = setup({ globalSlots: 2, globalQueue: 1, accountSlots: 1 })
  add(alice, 0, 5n)
  add(alice, 1, 2n) // alice is over her one guaranteed slot: her tail may go
  add(bob, 2, 5n)
  add(carol, 0, 6n)
  assert.deepEqual(dropped, ['alice1 evicted'])
})

test('a full gapped queue: only a gapped tail gives way, even when an executable one is cheaper', () => {
  const { add, dropped } = setup({ globalSlots: 10, globalQueue: 1, accountSlots: 1 })
  add(alice, 0, 5n)
  add(alice, 1, 2n)
  add(bob, 2, 3n)
  add(carol, 2, 5n)
  assert.deepEqual(dropped, ['bob2 evicted'])
})

test('full executable slots: a sender at its guaranteed slots displaces another sender\'s executable tail, not a gapped one', () => {
  const { add, dropped } = setup({ globalSlots: 3, globalQueue: 10, accountSlots: 1 })
  add(alice, 0, 5n)
  add(alice, 1, 3n)
  add(bob, 0, 5n)
  add(dave, 2, 2n) // cheaper, but gapped
  add(bob, 1, 5n)
  assert.deepEqual(dropped, ['alice1 evicted'])
})

test('the whole pool full as well as the executable slots: the cheapest tail anywhere goes first, then an executable one', () => {
  const { pool, add, dropped } = setup({ globalSlots: 3, globalQueue: 1, accountSlots: 1 })
  add(carol, 0, 5n)
  add(carol, 1, 4n) // carol is over her one guaranteed slot
  add(bob, 0, 5n)
  add(dave, 2, 2n) // the cheapest, gapped; the pool is now full
  const b = add(bob, 1, 5n)
  assert.deepEqual(dropped, ['dave2 evicted', 'carol1 evicted'])
  assert.equal(b.status, 'pending')
  assert.deepEqual(pool.stats(), { pending: 3, queued: 0, senders: 2 })
})

test('executable slots exactly full, but the newcomer\'s sender is under its guaranteed slots: admitted without eviction', () => {
  const { pool, add, dropped } = setup({ globalSlots: 3, globalQueue: 10, accountSlots: 2 })
  add(alice, 0, 5n)
  add(alice, 1, 3n)
  add(alice, 2, 3n)
  add(bob, 0, 5n)
  add(bob, 1, 5n)
  assert.deepEqual(dropped, [])
  assert.deepEqual(pool.stats(), { pending: 5, queued: 0, senders: 2 })
})

test('the newcomer\'s own sender is the cheapest: the next cheapest gives way, of two', () => {
  const { add, dropped } = setup({ globalQueue: 3 })
  add(alice, 5, 2n)
  add(bob, 5, 4n)
  add(carol, 5, 3n)
  add(alice, 6, 10n)
  assert.deepEqual(dropped, ['carol5 evicted'])
})

test('the newcomer\'s own sender is the cheapest: the one other sender gives way', () => {
  const { add, dropped } = setup({ globalQueue: 2 })
  add(alice, 5, 2n)
  add(bob, 5, 4n)
  add(alice, 6, 10n)
  assert.deepEqual(dropped, ['bob5 evicted'])
})

test('the newcomer\'s own sender is the only one that could give way: "txpool is full"', () => {
  const { pool, add, dropped } = setup({ globalQueue: 1 })
  add(alice, 5, 2n)
  assert.throws(() => add(alice, 6, 10n), refused('txpool is full'))
  assert.deepEqual(dropped, [])
  assert.deepEqual(pool.stats(), { pending: 0, queued: 1, senders: 1 })
})

test('a sender\'s tail price is followed when a new tail arrives', () => {
  const { add, dropped } = setup({ globalQueue: 3 })
  add(alice, 2, 2n)
  add(bob, 2, 3n)
  add(alice, 3, 10n) // alice's tail is now the dearest
  add(carol, 2, 4n)
  assert.deepEqual(dropped, ['bob2 evicted'])
})

test('a new state that leaves too many gapped transactions evicts gapped tails down to the limit, and no further', () => {
  for (const [limit, expected] of [
    [1, ['alice1 insufficientFunds', 'alice3 evicted']],
    [2, ['alice1 insufficientFunds']],
  ] as const) {
    const { pool, state, add, dropped } = setup({ globalQueue: limit })
    add(alice, 0, 2n)
    add(alice, 1, 2n, { value: ETHER })
    add(alice, 2, 2n)
    add(alice, 3, 2n)
    state.set(alice, { balance: ETHER / 2n })
    pool.onNewState(state)
    assert.deepEqual(dropped, expected, `limit ${limit}`)
    assert.deepEqual(pool.stats(), { pending: 1, queued: limit, senders: 1 })
  }
})

test('a new state that promotes past the executable limit evicts over-slot tails down to the limit, and no further', () => {
  for (const [slots, expected] of [
    [2, ['alice2 evicted']],
    [3, []],
  ] as const) {
    const { pool, state, add, dropped } = setup({ globalSlots: slots, accountSlots: 1 })
    add(alice, 1, 2n)
    add(alice, 2, 2n)
    add(bob, 0, 2n)
    state.set(alice, { nonce: 1n })
    pool.onNewState(state)
    assert.deepEqual(dropped, expected, `slots ${slots}`)
  }
})

test('a new state over the executable limit with no sender over its guaranteed slots evicts nothing', () => {
  const { pool, state, add, dropped } = setup({ globalSlots: 1 })
  add(alice, 1, 2n)
  add(bob, 0, 2n)
  state.set(alice, { nonce: 1n })
  pool.onNewState(state)
  assert.deepEqual(dropped, [])
  assert.deepEqual(pool.stats(), { pending: 2, queued: 0, senders: 2 })
})

test('a new state\'s base fee decides which gapped tail gives way', () => {
  // At 1 gwei alice's tail tips 2 gwei and bob's 4; at 4 gwei alice's still tips 2, bob's only 1.
  for (const [baseFee, expected] of [
    [undefined, 'alice2 evicted'],
    [4n * GWEI, 'bob2 evicted'],
  ] as const) {
    const { pool, state, add, dropped } = setup({ globalQueue: 2 })
    add(alice, 2, 10n, { tip: 2n * GWEI })
    add(bob, 2, 5n, { tip: 4n * GWEI })
    add(carol, 0, 20n, { tip: 5n * GWEI })
    add(carol, 1, 20n, { tip: 5n * GWEI, value: ETHER })
    add(carol, 2, 20n, { tip: 5n * GWEI })
    state.set(carol, { balance: ETHER / 2n })
    pool.onNewState(state, baseFee === undefined ? {} : { baseFee })
    assert.deepEqual(dropped, ['carol1 insufficientFunds', expected], `base fee ${baseFee}`)
  }
})
