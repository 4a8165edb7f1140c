/**
 * What a sender already owes, as admission sees it: the "queued cost" in geth's insufficient-funds message is
 * the total cost of the sender's executable transactions, kept up to date through replacement, removal,
 * inclusion, eviction and state changes. Each test probes it with a transaction that costs the whole balance,
 * so the expected message is computed here from the transactions' own gas, fee cap and value.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { FlashnodeError } from '../errors/errors.ts'
import { TxPool, type DropReason } from './pool.ts'
import { ETHER, FakeState, GWEI, env, keys, transfer, type TransferOptions } from './test-kit.ts'

const [alice, bob] = [keys[0]!, keys[1]!]
const BALANCE = 10n * ETHER
const FEE_CAP = 2n * GWEI // transfer()'s default
const GAS = 21_000n

/** geth's tx.Cost() for a transfer() with these options. */
const costOf = (o: TransferOptions = {}) => (o.gas ?? GAS) * (o.feeCap ?? FEE_CAP) + (o.value ?? 1n)

function setup(config = {}) {
  const pool = new TxPool({ now: () => 0, config })
  const state = new FakeState([alice, bob], BALANCE)
  const dropped: Array<[bigint, DropReason]> = []
  const nonceOf = new Map<string, bigint>()
  pool.events.on('added', (tx) => nonceOf.set(tx.hashHex, tx.nonce))
  pool.events.on('dropped', (hash, reason) => dropped.push([nonceOf.get(hash)!, reason]))
  const add = (nonce: number, o: TransferOptions = {}) => pool.add(transfer(alice, nonce, o), state, env())
  /**
   * Asserts that alice's executable transactions cost `queued` in total: a new gapped transaction costing the
   * whole balance is refused with exactly that queued cost (or, when nothing is owed, admitted and taken out).
   */
  const owes = (queued: bigint) => {
    const probe = { value: BALANCE - GAS * FEE_CAP }
    const raw = transfer(alice, 900, probe)
    if (queued === 0n) {
      const r = pool.add(raw, state, env())
      pool.remove(r.hash)
      return
    }
    const cost = costOf(probe)
    assert.throws(
      () => pool.add(raw, state, env()),
      (e: unknown) =>
        e instanceof FlashnodeError &&
        e.message ===
          `insufficient funds for gas * price + value: balance ${BALANCE}, queued cost ${queued}, tx cost ${cost}, overshot ${queued + cost - BALANCE}`,
    )
  }
  return { pool, state, dropped, add, owes }
}

test('executable transactions add up; gapped ones do not count', () => {
  const { add, owes } = setup()
  owes(0n)
  add(0)
  add(1, { value: 5n })
  add(3, { value: 7n }) // gapped
  owes(costOf() + costOf({ value: 5n }))
})

test('replacing an executable transaction counts the new cost instead of the old; replacing a gapped one changes nothing', () => {
  const { add, owes } = setup()
  add(0)
  add(1)
  add(3) // gapped, right after the executable run
  add(1, { feeCap: 4n * GWEI, tip: 2n * GWEI })
  owes(costOf() + costOf({ feeCap: 4n * GWEI }))
  add(3, { feeCap: 4n * GWEI, tip: 2n * GWEI })
  owes(costOf() + costOf({ feeCap: 4n * GWEI }))
})

test('a replacement that would overspend names the bump: its extra cost over the one it replaces', () => {
  const { add } = setup()
  add(0, { value: ETHER })
  const first = { value: 2n * ETHER }
  add(1, first)
  const bumped = { value: BALANCE - ETHER - GAS * 4n * GWEI, feeCap: 4n * GWEI, tip: 2n * GWEI }
  const bump = costOf(bumped) - costOf(first)
  const spent = costOf({ value: ETHER }) + costOf(first)
  assert.throws(
    () => add(1, bumped),
    (e: unknown) =>
      e instanceof FlashnodeError &&
      e.message ===
        `insufficient funds for gas * price + value: balance ${BALANCE}, queued cost ${spent}, tx bumped ${bump}, overshot ${spent + bump - BALANCE}`,
  )
})

test('removing an executable transaction leaves only those before it owed', () => {
  const { pool, add, owes } = setup()
  add(0, { value: 3n })
  const middle = add(1)
  const last = add(2)
  pool.remove(middle.hash)
  assert.equal(pool.status(last.hash), 'queued')
  owes(costOf({ value: 3n }))
})

test('removing the first executable transaction leaves nothing owed', () => {
  const { pool, add, owes } = setup()
  const head = add(0)
  const next = add(1)
  pool.remove(head.hash)
  assert.equal(pool.status(next.hash), 'queued')
  owes(0n)
})

test('removing a gapped transaction leaves the executable ones as they were', () => {
  const { pool, add, owes } = setup()
  add(0)
  add(1)
  add(3)
  const tail = add(4)
  pool.remove(tail.hash)
  assert.deepEqual(pool.stats(), { pending: 2, queued: 1, senders: 1 })
  owes(2n * costOf())
})

test('an included head leaves; the rest stay owed', () => {
  const { pool, state, add, owes } = setup()
  const head = add(0, { value: 9n })
  add(1)
  add(2)
  pool.included([head.hash])
  state.set(alice, { nonce: 1n }) // the pending state the node reads from now on
  owes(2n * costOf())
})

test('including a later transaction (not the head) takes out that one only', () => {
  const { pool, add, owes } = setup()
  const head = add(0)
  const second = add(1, { value: 4n })
  const gapped = add(3)
  pool.included([second.hash])
  assert.equal(pool.has(head.hash), true)
  assert.equal(pool.status(head.hash), 'pending')
  owes(costOf())
  pool.included([gapped.hash])
  assert.equal(pool.has(head.hash), true)
  owes(costOf())
})

test('an evicted executable tail is no longer owed', () => {
  // alice is over her one guaranteed slot; the pool holds four executable transactions, and bob's second
  // (bob at his guaranteed slot) needs one of them to give way.
  const { pool, state, add, owes, dropped } = setup({ accountSlots: 1, globalSlots: 4 })
  add(0)
  add(1)
  add(2, { value: 5n })
  pool.add(transfer(bob, 0, { feeCap: 3n * GWEI }), state, env())
  pool.add(transfer(bob, 1, { feeCap: 3n * GWEI }), state, env())
  assert.deepEqual(dropped, [[2n, 'evicted']])
  owes(2n * costOf())
})

test('an evicted gapped tail leaves what is owed as it was', () => {
  const { pool, state, add, owes, dropped } = setup({ globalQueue: 1 })
  add(0)
  add(1)
  add(3)
  pool.add(transfer(bob, 1, { feeCap: 3n * GWEI }), state, env())
  assert.deepEqual(dropped, [[3n, 'evicted']])
  owes(2n * costOf())
})

test('a state nonce past some transactions: they are stale, the rest stay owed and are not announced again', () => {
  const { pool, state, add, owes, dropped } = setup()
  const promoted: bigint[] = []
  pool.events.on('promoted', (tx) => promoted.push(tx.nonce))
  add(0)
  add(1, { value: 2n })
  add(2, { value: 3n })
  add(4) // gapped until nonce 3 comes
  state.set(alice, { nonce: 1n })
  pool.onNewState(state)
  assert.deepEqual(dropped, [[0n, 'stale']])
  assert.deepEqual(promoted, [])
  owes(costOf({ value: 2n }) + costOf({ value: 3n }))
  state.set(alice, { nonce: 4n })
  pool.onNewState(state)
  assert.deepEqual(promoted, [4n], 'the gapped one became executable')
  owes(costOf())
})

test('a transaction costing exactly the balance stays; one wei more is dropped as unpayable', () => {
  const { pool, state, add, dropped } = setup()
  const exact = add(0, { value: 5n })
  state.set(alice, { balance: costOf({ value: 5n }) })
  pool.onNewState(state)
  assert.ok(pool.has(exact.hash))
  state.set(alice, { balance: costOf({ value: 5n }) - 1n })
  pool.onNewState(state)
  assert.deepEqual(dropped, [[0n, 'insufficientFunds']])
})

test('an account gone from the state: its transactions are unpayable', () => {
  const { pool, state, add, dropped } = setup()
  add(0)
  add(2)
  state.accounts.delete(alice.hex)
  pool.onNewState(state)
  assert.deepEqual(dropped, [[0n, 'insufficientFunds'], [2n, 'insufficientFunds']])
  assert.deepEqual(pool.stats(), { pending: 0, queued: 0, senders: 0 })
})
