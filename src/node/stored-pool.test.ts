/**
 * The stored pool (what a restart restores) follows the pool: a replaced transaction's copy goes with its
 * replacement's admission, included transactions' copies with their flashblock's batch, and gapped
 * transactions that waited past the queue lifetime leave the pool and, with the next flashblock that writes,
 * the store. Copies are kept under their arrival numbers, which go on across restarts; an earlier version's
 * copies, kept under their hashes, are moved at restore. Read straight from the node's database.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { ACCOUNTS, signedTx } from '../../test/support/dev-chain.ts'
import { manualNode } from '../../test/support/sequencing-node.ts'
import { ManualScheduler } from '../sequencer/scheduler.ts'
import { keys, readU64 } from '../storage/keys.ts'
import { tempDir } from '../../test/support/temp-dir.ts'
import { bytesToHex } from '../primitives/hex.ts'
import { keccak256 } from '../primitives/keccak.ts'
import type { FlashNode } from './create-node.ts'

const stored = (node: FlashNode): string[] =>
  [...node.chain.store.kv.range(keys.poolArrival(0n), keys.poolArrivalEnd())].map(({ value }) => bytesToHex(keccak256(value))).sort()

const to = ACCOUNTS[3]!.address

test('a replacement replaces the stored copy at once; included transactions leave the store with their flashblock', async (t) => {
  const node = await manualNode(t)
  const first = signedTx(node, 0, 0n, { to, value: 1n })
  const replacement = signedTx(node, 0, 0n, { to, value: 1n, maxFeePerGas: 20_000_000_000n, maxPriorityFeePerGas: 2_000_000_000n })
  const other = signedTx(node, 1, 0n, { to, value: 1n })
  await node.api.sendRawTransaction(first.serialize())
  await node.api.sendRawTransaction(other.serialize())
  await node.api.sendRawTransaction(replacement.serialize())
  assert.deepEqual(stored(node), [bytesToHex(replacement.hash()), bytesToHex(other.hash())].sort())
  await node.api.flashblock()
  assert.deepEqual(stored(node), [], 'pre-confirmed: journaled instead')
})

test('gapped transactions expire after the queue lifetime without progress, from the pool and then from the store', async (t) => {
  const clock = new ManualScheduler(Date.now())
  const node = await manualNode(t, { scheduler: clock, pool: { queueLifetimeMs: 60_000 } })
  const gapped = signedTx(node, 1, 3n, { to, value: 1n })
  await node.api.sendRawTransaction(gapped.serialize())
  clock.advance(59_000)
  await node.api.flashblock()
  assert.notEqual(await node.api.getTransactionByHash(gapped.hash()), null, 'still waiting within its lifetime')

  clock.advance(2_000)
  await node.api.flashblock()
  assert.equal(await node.api.getTransactionByHash(gapped.hash()), null, 'expired')
  assert.equal(await node.api.transactionStatus(gapped.hash()), 'Unknown')
  assert.deepEqual(stored(node), [bytesToHex(gapped.hash())], 'an empty flashblock writes nothing')
  await node.api.sendRawTransaction(signedTx(node, 2, 0n, { to, value: 1n }).serialize())
  await node.api.flashblock()
  assert.deepEqual(stored(node), [], 'gone with the next flashblock that writes')
})

/** The stored copies in key order: each one's arrival number and its transaction's hash. */
const arrivals = (node: FlashNode): { arrival: bigint; hash: string }[] =>
  [...node.chain.store.kv.range(keys.poolArrival(0n), keys.poolArrivalEnd())].map(({ key, value }) => ({ arrival: readU64(key, 1), hash: bytesToHex(keccak256(value)) }))

test('copies are kept under increasing arrival numbers that go on across restarts; a restart restores every one', async (t) => {
  const dir = tempDir(t)
  const first = await manualNode(t, {}, dir)
  const sent = [signedTx(first, 0, 0n, { to, value: 1n }), signedTx(first, 1, 0n, { to, value: 1n }), signedTx(first, 0, 1n, { to, value: 1n })]
  for (const tx of sent) await first.api.sendRawTransaction(tx.serialize())
  const before = arrivals(first)
  assert.deepEqual(before.map((a) => a.hash), sent.map((tx) => bytesToHex(tx.hash())), 'key order is arrival order')
  await first.close()

  const second = await manualNode(t, {}, dir)
  const later = signedTx(second, 2, 0n, { to, value: 1n })
  await second.api.sendRawTransaction(later.serialize())
  const after = arrivals(second)
  assert.deepEqual(after.slice(0, 3), before, 'the restored copies keep their keys')
  assert.equal(after.length, 4)
  assert.ok(after[3]!.arrival > before[2]!.arrival, 'a new copy takes a number after every stored one (none is overwritten)')
  await second.close()

  const third = await manualNode(t, {}, dir)
  for (const tx of [...sent, later]) assert.notEqual(await third.api.getTransactionByHash(tx.hash()), null, `restored: ${bytesToHex(tx.hash())}`)
  await third.api.flashblock()
  assert.deepEqual(arrivals(third), [], 'restored copies leave with their flashblock')
})

test("an earlier version's copies, kept under their hashes, are restored and moved to arrival keys", async (t) => {
  const dir = tempDir(t)
  const first = await manualNode(t, {}, dir)
  const old = [signedTx(first, 0, 0n, { to, value: 1n }), signedTx(first, 1, 0n, { to, value: 1n })]
  const stale = signedTx(first, 2, 0n, { to, value: 1n })
  await first.api.sendRawTransaction(stale.serialize())
  await first.api.flashblock() // included: a copy of it left behind is no longer valid
  const kv = first.chain.store.kv
  const batch = kv.batch()
  for (const tx of [...old, stale]) batch.put(keys.pool(tx.hash()), tx.serialize())
  kv.commit(batch)
  await first.close()

  const second = await manualNode(t, {}, dir)
  for (const tx of old) assert.notEqual(await second.api.getTransactionByHash(tx.hash()), null, 'restored')
  assert.deepEqual(arrivals(second).map((a) => a.hash).sort(), old.map((tx) => bytesToHex(tx.hash())).sort(), 'moved to arrival keys')
  assert.deepEqual([...second.chain.store.kv.range(keys.pool(new Uint8Array(0)), keys.poolEnd())], [], 'the hash keys are gone, the invalid one too')
  await second.api.flashblock()
  assert.deepEqual(arrivals(second), [], 'and leave with their flashblock')
})
