/**
 * eth_sendRawTransactionSync through the node's facade: it answers with the pre-confirmed receipt when a
 * later flashblock includes the transaction, gives up at its timeout or when the client goes away (the
 * transaction stays pooled), and stops listening to flashblocks once it has answered. And a pooled
 * transaction, not yet pre-confirmed, is found by hash without a block and counts in the pending nonce only.
 */

import { test } from 'node:test'
import { getEventListeners } from 'node:events'
import assert from 'node:assert/strict'
import { ACCOUNTS, signedTx } from '../../test/support/dev-chain.ts'
import { manualNode } from '../../test/support/sequencing-node.ts'
import { FlashnodeError } from '../errors/errors.ts'
import { bytesToHex, hexToBytes } from '../primitives/hex.ts'
import { LATEST, PENDING } from '../primitives/block-id.ts'
import type { FlashNode } from './create-node.ts'
import { PRECONFIRMED_BLOCK_HASH } from '../chain/types.ts'

const to = ACCOUNTS[3]!.address

/** Until the sequencer has `n` flashblock listeners (the sync send subscribes after admitting; no sleeping). */
async function listeners(node: FlashNode, n: number): Promise<void> {
  for (let i = 0; i < 10_000 && node.sequencer!.listenerCount('flashblock') !== n; i++) await new Promise((r) => setImmediate(r))
  assert.equal(node.sequencer!.listenerCount('flashblock'), n)
}

const timedOut = (hash: string) => (e: unknown) =>
  e instanceof FlashnodeError && e.code === 4 && e.data === hash && /wasn't processed in \d+ms/.test(e.message)

test('a waiting sync send answers with the receipt of the flashblock that includes it, then stops listening', { timeout: 20_000 }, async (t) => {
  const node = await manualNode(t, { syncTimeoutMs: 60_000 })
  const before = node.sequencer!.listenerCount('flashblock')
  const tx = signedTx(node, 0, 0n, { to, value: 1n })
  const client = new AbortController()
  const answer = node.api.sendRawTransactionSync(tx.serialize(), undefined, client.signal)
  await listeners(node, before + 1)
  assert.equal(getEventListeners(client.signal, 'abort').length, 1)
  await node.api.flashblock()
  const located = await answer
  assert.deepEqual(located.receipt.transactionHash, tx.hash())
  assert.equal(located.context.preconfirmed, true, 'pre-confirmed')
  assert.deepEqual(located.context.blockHash, PRECONFIRMED_BLOCK_HASH)
  assert.equal(located.context.blockNumber, 1n)
  assert.equal(node.sequencer!.listenerCount('flashblock'), before)
  assert.equal(getEventListeners(client.signal, 'abort').length, 0, 'nor to its client')
})

test('a sync send waits through flashblocks that do not include its transaction', { timeout: 20_000 }, async (t) => {
  const node = await manualNode(t, { syncTimeoutMs: 60_000, maxTransactionsPerFlashblock: 1 })
  const before = node.sequencer!.listenerCount('flashblock')
  const other = signedTx(node, 1, 0n, { to, value: 1n })
  await node.api.sendRawTransaction(other.serialize())
  const tx = signedTx(node, 0, 0n, { to, value: 1n })
  const answer = node.api.sendRawTransactionSync(tx.serialize())
  await listeners(node, before + 1)
  await node.api.flashblock() // takes `other` only
  assert.equal(node.sequencer!.listenerCount('flashblock'), before + 1, 'still waiting')
  await node.api.flashblock()
  const located = await answer
  assert.deepEqual(located.receipt.transactionHash, tx.hash())
  assert.equal(located.receipt.transactionIndex, 1)
})

test('a sync send gives up at its timeout, and its transaction stays in the pool', { timeout: 20_000 }, async (t) => {
  const node = await manualNode(t, { syncTimeoutMs: 60_000 })
  const before = node.sequencer!.listenerCount('flashblock')
  const tx = signedTx(node, 0, 0n, { to, value: 1n })
  await assert.rejects(node.api.sendRawTransactionSync(tx.serialize(), 20), timedOut(bytesToHex(tx.hash())))
  assert.equal(node.sequencer!.listenerCount('flashblock'), before)
  assert.notEqual(await node.api.getTransactionByHash(tx.hash()), null)
})

test('a sync send whose client went away stops waiting at once', { timeout: 20_000 }, async (t) => {
  const node = await manualNode(t, { syncTimeoutMs: 60_000 })
  const before = node.sequencer!.listenerCount('flashblock')
  const tx = signedTx(node, 0, 0n, { to, value: 1n })
  const client = new AbortController()
  const answer = node.api.sendRawTransactionSync(tx.serialize(), undefined, client.signal)
  await listeners(node, before + 1)
  client.abort()
  await assert.rejects(answer, timedOut(bytesToHex(tx.hash())))
  assert.equal(node.sequencer!.listenerCount('flashblock'), before)
})

test('a pooled transaction is found by hash without a block, and counts in the pending nonce only', async (t) => {
  const node = await manualNode(t)
  const tx = signedTx(node, 0, 0n, { to, value: 1n })
  await node.api.sendRawTransaction(tx.serialize())
  const found = await node.api.getTransactionByHash(tx.hash())
  assert.deepEqual(found?.tx.hash, tx.hash())
  assert.equal(found?.placement, null)
  assert.equal(await node.api.getTransactionByHash(new Uint8Array(32).fill(9)), null, 'an unknown hash')
  const sender = hexToBytes(ACCOUNTS[0]!.address)
  assert.equal(await node.api.getTransactionCount(sender, PENDING), 1n)
  for (const [name, id] of [['latest', LATEST], ['block 0', { kind: 'number' as const, number: 0n }], ['earliest', { kind: 'tag' as const, tag: 'earliest' as const }]] as const) {
    assert.equal(await node.api.getTransactionCount(sender, id), 0n, `${name} does not count the pool`)
  }
})
