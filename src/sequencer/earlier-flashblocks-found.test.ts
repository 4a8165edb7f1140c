/**
 * A transaction pre-confirmed in an earlier flashblock of the open block stays findable by hash after later
 * flashblocks (receipt, transaction with its index, base_transactionStatus), until the block seals
 * and it is found in the sealed block instead.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { signedTx } from '../../test/support/dev-chain.ts'
import { manualNode } from '../../test/support/sequencing-node.ts'
import { PRECONFIRMED_BLOCK_HASH } from '../chain/types.ts'

test('transactions of earlier flashblocks are still found by hash at pending, then in the sealed block', async (t) => {
  const node = await manualNode(t)
  const first = signedTx(node, 0, 0n)
  const second = signedTx(node, 1, 0n)
  await node.api.sendRawTransaction(first.serialize())
  await node.api.flashblock()
  await node.api.sendRawTransaction(second.serialize())
  await node.api.flashblock()
  await node.api.flashblock()

  for (const [tx, index] of [[first, 0], [second, 1]] as const) {
    const receipt = await node.api.getTransactionReceipt(tx.hash())
    assert.ok(receipt !== null, `receipt of transaction ${index}`)
    assert.equal(receipt.context.preconfirmed, true, 'pre-confirmed, not sealed')
    assert.equal(receipt.receipt.transactionIndex, index)
    const found = await node.api.getTransactionByHash(tx.hash())
    assert.equal(found?.placement?.index, index)
    assert.equal(await node.api.transactionStatus(tx.hash()), 'Known', 'known though it left the pool')
  }

  await node.api.mine()
  const sealed = await node.api.getTransactionReceipt(first.hash())
  assert.ok(sealed !== null && !sealed.context.preconfirmed, 'found in the sealed block')
  assert.notDeepEqual(sealed.context.blockHash, PRECONFIRMED_BLOCK_HASH)
  assert.equal(sealed.context.blockNumber, 1n)
})
