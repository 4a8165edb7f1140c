/**
 * When a sender's transaction has to wait (it does not fit the gas left in the open block), the sender's
 * later transactions wait with it: they are neither tried out of nonce order nor dropped, and all land, in
 * order, in the next block.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { ACCOUNTS, signedTx } from '../../test/support/dev-chain.ts'
import { manualNode } from '../../test/support/sequencing-node.ts'
import { bytesToHex } from '../primitives/hex.ts'
import { PENDING } from '../primitives/block-id.ts'

test('a sender whose transaction does not fit the gas left keeps its later transactions for the next block', async (t) => {
  const node = await manualNode(t)
  const to = ACCOUNTS[3]!.address
  const gasLimit = node.chain.header(node.chain.head())!.gasLimit
  const first = signedTx(node, 0, 0n, { to, value: 1n, gasLimit: 21_000n })
  // One gas more than is left once `first` has used its 21,000.
  const big = signedTx(node, 1, 0n, { to, value: 1n, gasLimit: gasLimit - 21_000n + 1n })
  const after = signedTx(node, 1, 1n, { to, value: 1n, gasLimit: 21_000n })
  for (const tx of [first, big, after]) await node.api.sendRawTransaction(tx.serialize())
  await node.api.flashblock()
  const pending = (await node.api.getBlockReceipts(PENDING))!.map((r) => bytesToHex(r.receipt.transactionHash))
  assert.deepEqual(pending, [bytesToHex(first.hash())])
  for (const tx of [big, after]) {
    const found = await node.api.getTransactionByHash(tx.hash())
    assert.ok(found !== null && found.placement === null, 'still pooled')
  }

  await node.api.mine()
  await node.api.flashblock()
  const next = (await node.api.getBlockReceipts(PENDING))!
  assert.equal(next[0]!.context.blockNumber, 2n)
  assert.deepEqual(next.map((r) => bytesToHex(r.receipt.transactionHash)), [big, after].map((tx) => bytesToHex(tx.hash())))
})
