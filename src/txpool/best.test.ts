import { test } from 'node:test'
import assert from 'node:assert/strict'
import { TxPool } from './pool.ts'
import { FakeState, GWEI, env, makeKey, transfer } from './test-kit.ts'

const alice = makeKey(0)
const bob = makeKey(1)
const carol = makeKey(2)
const dave = makeKey(3)
const erin = makeKey(4)
const who = new Map<string, string>([alice, bob, carol, dave, erin].map((k, i) => [k.hex, ['alice', 'bob', 'carol', 'dave', 'erin'][i]!]))

function setup() {
  let now = 0
  const pool = new TxPool({ now: () => now })
  const state = new FakeState([alice, bob, carol, dave, erin])
  const add = (raw: Uint8Array) => pool.add(raw, state, env())
  const names = (it: Iterable<{ senderHex: string; nonce: bigint }>) => [...it].map((tx) => `${who.get(tx.senderHex)}${tx.nonce}`)
  return { pool, add, names, tick: () => now++ }
}

test('best effective tip first, never a nonce before its predecessor', () => {
  const { pool, add, names } = setup()
  add(transfer(alice, 0, { tip: 1n * GWEI, feeCap: 10n * GWEI }))
  add(transfer(alice, 1, { tip: 5n * GWEI, feeCap: 10n * GWEI }))
  add(transfer(bob, 0, { tip: 3n * GWEI, feeCap: 10n * GWEI }))
  add(transfer(carol, 0, { tip: 2n * GWEI, feeCap: 10n * GWEI }))
  add(transfer(carol, 2, { tip: 9n * GWEI, feeCap: 10n * GWEI })) // gapped: never offered
  assert.deepEqual(names(pool.best(GWEI)), ['bob0', 'carol0', 'alice0', 'alice1'])
})

test('the effective tip is min(tip, fee cap - base fee)', () => {
  const { pool, add, names } = setup()
  add(transfer(dave, 0, { tip: 5n * GWEI, feeCap: 6n * GWEI }))
  add(transfer(erin, 0, { tip: 4n * GWEI, feeCap: 10n * GWEI }))
  assert.deepEqual(names(pool.best(3n * GWEI)), ['erin0', 'dave0'])
  assert.deepEqual(names(pool.best(GWEI)), ['dave0', 'erin0'])
})

test('equal tips go by arrival', () => {
  const { pool, add, names, tick } = setup()
  add(transfer(carol, 0))
  add(transfer(alice, 0))
  tick()
  add(transfer(bob, 0))
  assert.deepEqual(names(pool.best(GWEI)), ['carol0', 'alice0', 'bob0'])
})

test('a fee cap below the base fee ends its sender\'s run', () => {
  const { pool, add, names } = setup()
  add(transfer(alice, 0, { feeCap: 10n * GWEI }))
  add(transfer(alice, 1, { feeCap: 2n * GWEI }))
  add(transfer(alice, 2, { feeCap: 10n * GWEI }))
  add(transfer(bob, 0, { feeCap: 2n * GWEI }))
  assert.deepEqual(names(pool.best(3n * GWEI)), ['alice0'])
  assert.deepEqual(names(pool.best(2n * GWEI)).sort(), ['alice0', 'alice1', 'alice2', 'bob0'])
})

test('skipSender drops the rest of a sender; a transaction that left the pool ends its run', () => {
  const { pool, add, names } = setup()
  for (const n of [0, 1, 2]) add(transfer(alice, n, { tip: 3n * GWEI, feeCap: 5n * GWEI }))
  const b = [0, 1, 2].map((n) => add(transfer(bob, n, { tip: 2n * GWEI, feeCap: 5n * GWEI })))
  const it = pool.best(GWEI)
  assert.equal(it.next()?.nonce, 0n)
  it.skipSender(alice.address)
  assert.equal(it.next()?.hashHex, b[0]!.hash)
  pool.remove(b[2]!.hash)
  assert.deepEqual(names(it), ['bob1'])
  assert.equal(it.next(), undefined)
  // A fresh iterator sees the pool as it is now.
  assert.deepEqual(names(pool.best(GWEI)), ['alice0', 'alice1', 'alice2', 'bob0', 'bob1'])
  const again = pool.best(GWEI)
  again.skipSender(bob.hex.toUpperCase().replace('0X', '0x'))
  assert.deepEqual(names(again), ['alice0', 'alice1', 'alice2'])
})
