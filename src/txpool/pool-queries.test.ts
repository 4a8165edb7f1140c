/**
 * The pool's read side and its small operations, as the node uses them: a sender's content (txpool_content),
 * status and pending nonce (also for a state nonce the pool has not seen), removal and inclusion of
 * transactions it may not hold, a new state for some senders only, and the expiry of several senders' gapped
 * transactions (highest nonce first; progress that promotes nothing does not renew their lifetime).
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { TxPool, type DropReason } from './pool.ts'
import { FakeState, GWEI, env, makeKey, transfer } from './test-kit.ts'

const [alice, bob, carol] = [makeKey(0), makeKey(1), makeKey(2)]
const LIFETIME = 60_000

function setup() {
  let now = 0
  const pool = new TxPool({ now: () => now, config: { queueLifetimeMs: LIFETIME } })
  const state = new FakeState([alice, bob, carol])
  const nonceOf = new Map<string, string>()
  const dropped: string[] = []
  pool.events.on('added', (tx) => nonceOf.set(tx.hashHex, `${tx.senderHex === alice.hex ? 'a' : tx.senderHex === bob.hex ? 'b' : 'c'}${tx.nonce}`))
  pool.events.on('dropped', (hash, reason: DropReason) => dropped.push(`${nonceOf.get(hash) ?? hash} ${reason}`))
  const add = (key: typeof alice, nonce: number) => pool.add(transfer(key, nonce), state, env())
  return { pool, state, dropped, add, setNow: (ms: number) => (now = ms) }
}

test('a sender\'s content: executable and gapped transactions in nonce order; nothing for an unknown sender', () => {
  const { pool, add } = setup()
  const a3 = add(alice, 3)
  const a0 = add(alice, 0)
  const a5 = add(alice, 5)
  const a1 = add(alice, 1)
  const content = pool.contentOf(alice.hex.toUpperCase().replace('0X', '0x'))
  assert.deepEqual(content.pending.map((tx) => tx.hashHex), [a0.hash, a1.hash])
  assert.deepEqual(content.queued.map((tx) => tx.hashHex), [a3.hash, a5.hash])
  assert.deepEqual(pool.contentOf(alice.address), content)
  assert.deepEqual(pool.contentOf(bob.address), { pending: [], queued: [] })
})

test('the whole content: each sender with its own split, senders without transactions left out', () => {
  const { pool, add } = setup()
  const a0 = add(alice, 0)
  const a2 = add(alice, 2)
  const b1 = add(bob, 1)
  const c0 = add(carol, 0)
  pool.remove(c0.hash)
  const content = pool.content()
  const bySender = new Map(content.map((c) => [Buffer.from(c.sender).toString('hex'), c]))
  assert.equal(content.length, 2, 'carol emptied her list and is not listed')
  const hashes = (txs: { hashHex: string }[]) => txs.map((tx) => tx.hashHex)
  const a = bySender.get(alice.hex.slice(2))!
  assert.deepEqual([hashes(a.pending), hashes(a.queued)], [[a0.hash], [a2.hash]])
  const b = bySender.get(bob.hex.slice(2))!
  assert.deepEqual([hashes(b.pending), hashes(b.queued)], [[], [b1.hash]])
  for (const c of content) assert.deepEqual({ pending: c.pending, queued: c.queued }, pool.contentOf(c.sender))
})

test('status and lookups of a transaction the pool does not hold', () => {
  const { pool } = setup()
  const unknown = `0x${'ab'.repeat(32)}`
  assert.equal(pool.status(unknown), undefined)
  assert.equal(pool.get(unknown), undefined)
  assert.equal(pool.has(unknown), false)
})

test('pendingNonce from a state nonce the pool has not seen follows the pooled run from there', () => {
  const { pool, add } = setup()
  for (const n of [0, 1, 2, 4]) add(alice, n)
  assert.equal(pool.pendingNonce(alice.address, 0n), 3n)
  assert.equal(pool.pendingNonce(alice.address, 1n), 3n)
  assert.equal(pool.pendingNonce(alice.address, 2n), 3n)
  assert.equal(pool.pendingNonce(alice.address, 3n), 3n)
  assert.equal(pool.pendingNonce(alice.address, 4n), 5n)
  assert.equal(pool.pendingNonce(alice.address, 7n), 7n)
  assert.equal(pool.pendingNonce(bob.address, 9n), 9n)
})

test('best() passes over a sender whose transactions are all gapped', () => {
  const { pool, add } = setup()
  add(alice, 2)
  const b = add(bob, 0)
  assert.deepEqual([...pool.best(GWEI)].map((tx) => tx.hashHex), [b.hash])
})

test('remove: "removed" unless a reason is given; false for a transaction the pool does not hold', () => {
  const { pool, add, dropped } = setup()
  const a0 = add(alice, 0)
  const b0 = add(bob, 0)
  assert.equal(pool.remove(a0.hash), true)
  assert.equal(pool.remove(b0.hash, 'replaced'), true)
  assert.equal(pool.remove(a0.hash), false)
  assert.deepEqual(dropped, ['a0 removed', 'b0 replaced'])
})

test('included: unknown hashes are passed over; the drops are announced before it returns', () => {
  const { pool, add, dropped } = setup()
  const a0 = add(alice, 0)
  const b0 = add(bob, 0)
  pool.included([`0x${'cd'.repeat(32)}`, a0.hash, b0.hash])
  assert.deepEqual(dropped, ['a0 included', 'b0 included'])
  assert.deepEqual(pool.stats(), { pending: 0, queued: 0, senders: 0 })
})

test('a new state for some senders re-checks only those (unknown ones ignored)', () => {
  const { pool, state, add, dropped } = setup()
  add(alice, 0)
  add(bob, 0)
  state.set(alice, { balance: 0n }).set(bob, { balance: 0n })
  pool.onNewState(state, { touched: [carol.address, alice.address] })
  assert.deepEqual(dropped, ['a0 insufficientFunds'])
  assert.deepEqual(pool.stats(), { pending: 1, queued: 0, senders: 1 })
})

test('expiry drops every expired sender\'s gapped transactions, highest nonce first', () => {
  const { pool, add, dropped, setNow } = setup()
  add(alice, 0)
  for (const n of [2, 3, 4]) add(alice, n)
  add(bob, 5)
  add(carol, 7)
  setNow(LIFETIME + 1)
  assert.equal(pool.expire(), 5)
  assert.deepEqual(dropped.slice().sort(), ['a2 expired', 'a3 expired', 'a4 expired', 'b5 expired', 'c7 expired'])
  assert.deepEqual(dropped.filter((d) => d.startsWith('a')), ['a4 expired', 'a3 expired', 'a2 expired'])
  assert.deepEqual(pool.stats(), { pending: 1, queued: 0, senders: 1 })
})

test('a new state that moves the nonce but promotes nothing does not renew the gapped transactions\' lifetime', () => {
  const { pool, state, add, dropped, setNow } = setup()
  add(alice, 0)
  add(alice, 1)
  add(alice, 3)
  setNow(LIFETIME / 2)
  state.set(alice, { nonce: 1n })
  pool.onNewState(state)
  assert.deepEqual(dropped, ['a0 stale'])
  setNow(LIFETIME + 1)
  assert.equal(pool.expire(), 1)
  assert.deepEqual(dropped, ['a0 stale', 'a3 expired'])
})
