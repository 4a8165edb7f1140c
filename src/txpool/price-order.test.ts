/**
 * How the pool compares prices, seen from outside: which transaction eviction takes when effective tips tie
 * (the lower fee cap, then the lower tip cap, then the newer one), and the order `best()` offers transactions
 * in when tips tie (earlier arrival first, then earlier admission), including blob transactions against the
 * blob base fee.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { decodeTx } from './decode.ts'
import { TxPool, type DropReason } from './pool.ts'
import { CHAIN_ID, FakeState, GWEI, TO, env, forks, makeKey, signedBlobTx, transfer, type Key } from './test-kit.ts'


const people = Array.from({ length: 8 }, (_, i) => makeKey(i))
const [alice, bob, carol] = [people[0]!, people[1]!, people[2]!]
const who = new Map<string, string>(people.map((k, i) => [k.hex, `k${i}`]))

/**
 * A pool with room for two gapped transactions overall (or as many as given): one more evicts the cheapest or is refused. The
 * transactions below all carry nonce 1 against state nonce 0 (gapped, hence evictable).
 */
function onePlacePool(globalQueue = 2) {
  let now = 0
  const pool = new TxPool({ now: () => now, config: { globalQueue } })
  const state = new FakeState(people)
  const dropped: Array<[string, DropReason]> = []
  pool.events.on('dropped', (hash, reason) => dropped.push([hash, reason]))
  return { pool, state, dropped, add: (raw: Uint8Array) => pool.add(raw, state, env()), tick: () => now++ }
}

test('equal effective tips: the lower fee cap is evicted first, whichever arrived first', () => {
  // At base fee 1 gwei, a 3 gwei cap with a 2 gwei tip and a 10 gwei cap with a 2 gwei tip both tip 2 gwei.
  for (const order of ['low first', 'high first'] as const) {
    const { pool, add, dropped } = onePlacePool()
    const low = () => add(transfer(alice, 1, { feeCap: 3n * GWEI, tip: 2n * GWEI }))
    const high = () => add(transfer(bob, 1, { feeCap: 10n * GWEI, tip: 2n * GWEI }))
    const first = order === 'low first' ? low() : high()
    if (order === 'low first') {
      const h = high()
      add(transfer(carol, 1, { feeCap: 10n * GWEI, tip: 2n * GWEI, value: 2n }))
      assert.deepEqual(dropped, [[first.hash, 'evicted']], order)
      assert.ok(pool.has(h.hash))
    } else {
      const l = low()
      add(transfer(carol, 1, { feeCap: 10n * GWEI, tip: 2n * GWEI, value: 2n }))
      assert.deepEqual(dropped, [[l.hash, 'evicted']], order)
      assert.ok(pool.has(first.hash))
    }
  }
})

test('equal effective tips and fee caps: the lower tip cap is evicted first', () => {
  // At base fee 1 gwei a 3 gwei cap leaves 2 gwei of headroom: tips of 2 and 5 gwei both pay 2.
  for (const order of ['low first', 'high first'] as const) {
    const { pool, add, dropped } = onePlacePool()
    const low = () => add(transfer(alice, 1, { feeCap: 3n * GWEI, tip: 2n * GWEI }))
    const high = () => add(transfer(bob, 1, { feeCap: 3n * GWEI, tip: 3n * GWEI }))
    const [l, h] = order === 'low first' ? [low(), high()] : (() => { const x = high(); return [low(), x] })()
    add(transfer(carol, 1, { feeCap: 3n * GWEI, tip: 3n * GWEI, value: 2n }))
    assert.deepEqual(dropped, [[l.hash, 'evicted']], order)
    assert.ok(pool.has(h.hash), order)
  }
})

test('equal prices in every respect: the newer transaction is evicted first; a cheaper newcomer is refused', () => {
  const { pool, add, dropped } = onePlacePool()
  const older = add(transfer(alice, 1, { feeCap: 3n * GWEI, tip: 2n * GWEI }))
  const newer = add(transfer(bob, 1, { feeCap: 3n * GWEI, tip: 2n * GWEI }))
  add(transfer(carol, 1, { feeCap: 4n * GWEI, tip: 2n * GWEI }))
  assert.deepEqual(dropped, [[newer.hash, 'evicted']])
  assert.ok(pool.has(older.hash))
  assert.throws(
    () => add(transfer(people[3]!, 1, { feeCap: 3n * GWEI, tip: 2n * GWEI })),
    (e: unknown) => e instanceof Error && e.message === 'transaction underpriced',
  )
  assert.equal(pool.stats().queued, 2)
})

test('equal prices: evictions go newest first, one after another', () => {
  const { pool, add, dropped } = onePlacePool(3)
  const older = add(transfer(people[0]!, 1, { feeCap: 3n * GWEI, tip: 2n * GWEI }))
  const middle = add(transfer(people[1]!, 1, { feeCap: 3n * GWEI, tip: 2n * GWEI }))
  const newest = add(transfer(people[2]!, 1, { feeCap: 3n * GWEI, tip: 2n * GWEI }))
  // Both newcomers pay more, so each evicts the cheapest: of three equal prices the newest, then the next newest.
  add(transfer(people[3]!, 1, { feeCap: 9n * GWEI, tip: 2n * GWEI }))
  add(transfer(people[4]!, 1, { feeCap: 9n * GWEI, tip: 2n * GWEI }))
  assert.deepEqual(dropped, [[newest.hash, 'evicted'], [middle.hash, 'evicted']])
  assert.ok(pool.has(older.hash))
})

function orderPool() {
  const pool = new TxPool({ now: () => 7_000 }) // one arrival time for everything admitted
  const state = new FakeState(people)
  const names = (it: Iterable<{ senderHex: string; nonce: bigint }>) => [...it].map((tx) => `${who.get(tx.senderHex)}`)
  return { pool, state, names }
}

test('best(): equal tips go by arrival time, even against the order of admission', () => {
  const { pool, state, names } = orderPool()
  // Decoded (as when restored) with their own arrival times: the later-decoded one arrived earlier.
  const late = decodeTx(transfer(people[0]!, 0), forks.osaka, 5_000)
  const early = decodeTx(transfer(people[1]!, 0), forks.osaka, 1_000)
  const middle = decodeTx(transfer(people[2]!, 0), forks.osaka, 3_000)
  for (const tx of [late, early, middle]) pool.add(tx, state, env())
  assert.deepEqual(names(pool.best(GWEI)), ['k1', 'k2', 'k0'])
})

test('best(): equal tips and arrival times go by admission order, for many senders', () => {
  const { pool, state, names } = orderPool()
  const order = [3, 0, 6, 1, 5, 2, 7, 4]
  for (const i of order) pool.add(transfer(people[i]!, 0), state, env())
  assert.deepEqual(names(pool.best(GWEI)), order.map((i) => `k${i}`))
})

test('best(): skipping a sender that has nothing (left) to offer changes nothing', () => {
  const { pool, state, names } = orderPool()
  pool.add(transfer(alice, 0), state, env())
  pool.add(transfer(bob, 0), state, env())
  const it = pool.best(GWEI)
  assert.equal(who.get(it.next()!.senderHex), 'k0')
  it.skipSender(alice.address) // alice's run is over
  it.skipSender(carol.address) // carol has nothing pooled
  assert.deepEqual(names(it), ['k1'])
})

/** A Cancun blob transfer (tip 5 gwei) with the given blob fee cap. */
const blobTx = (key: Key, blobFeeCap: bigint): Uint8Array => signedBlobTx(key, { tip: 5n * GWEI, blobFeeCap })

test('best(): a blob transaction is offered only while its blob fee cap covers the blob base fee', () => {
  const pool = new TxPool()
  const state = new FakeState(people)
  const cancun = env(forks.cancun)
  const blob = pool.add(blobTx(alice, 100n), state, cancun)
  const plain = pool.add(transfer(bob, 0, { common: forks.cancun }), state, cancun)
  const offered = (blobBaseFee?: bigint) => [...pool.best(GWEI, blobBaseFee)].map((tx) => tx.hashHex)
  assert.deepEqual(offered(), [blob.hash, plain.hash], 'no blob base fee given: every blob fee cap pays')
  assert.deepEqual(offered(99n), [blob.hash, plain.hash])
  assert.deepEqual(offered(100n), [blob.hash, plain.hash], 'a blob fee cap equal to the blob base fee pays')
  assert.deepEqual(offered(101n), [plain.hash], 'a transaction without blobs does not care about the blob base fee')
})
