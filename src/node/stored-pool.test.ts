/**
 * The stored pool (what a restart restores) follows the pool: a replaced transaction's copy goes with its
 * replacement's admission, included transactions' copies with their flashblock's batch, and gapped
 * transactions that waited past the queue lifetime leave the pool and, with the next flashblock that writes,
 * the store. Read straight from the node's database.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { ACCOUNTS, signedTx } from '../../test/support/dev-chain.ts'
import { manualNode } from '../../test/support/sequencing-node.ts'
import { ManualScheduler } from '../sequencer/scheduler.ts'
import { keys } from '../storage/keys.ts'
import { bytesToHex } from '../primitives/hex.ts'
import { keccak256 } from '../primitives/keccak.ts'
import type { FlashNode } from './create-node.ts'

const stored = (node: FlashNode): string[] =>
  [...node.chain.store.kv.range(keys.pool(new Uint8Array(0)), keys.poolEnd())].map(({ value }) => bytesToHex(keccak256(value))).sort()

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
