/**
 * Submissions, and the transactions a restart restores from the stored pool, are admitted against the open
 * block's own base fee: with the pool set to refuse fee caps below it, such a transaction is refused at
 * submission, and dropped from the store when a restart finds it below.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { ACCOUNTS, signedTx } from '../../test/support/dev-chain.ts'
import { manualNode } from '../../test/support/sequencing-node.ts'
import { tempDir } from '../../test/support/temp-dir.ts'
import { keys } from '../storage/keys.ts'

const to = ACCOUNTS[3]!.address

test('a fee cap below the open block\'s base fee is refused at submission and at restore when the pool refuses them', async (t) => {
  const dir = tempDir(t)
  const lenient = await manualNode(t, {}, dir)
  const baseFee = lenient.sequencer!.snapshot().header.baseFeePerGas!
  const cheap = (from: number) => signedTx(lenient, from, 0n, { to, value: 1n, maxFeePerGas: baseFee - 1n, maxPriorityFeePerGas: 1n })
  await lenient.api.sendRawTransaction(cheap(0).serialize())
  await lenient.close()

  const strict = await manualNode(t, { pool: { rejectFeeCapBelowBaseFee: true } }, dir)
  assert.equal(await strict.api.getTransactionByHash(cheap(0).hash()), null, 'not restored')
  assert.deepEqual([...strict.chain.store.kv.range(keys.pool(new Uint8Array(0)), keys.poolEnd())], [], 'and gone from the store')
  await assert.rejects(strict.api.sendRawTransaction(cheap(1).serialize()), /max fee per gas less than block base fee/)
  const fair = signedTx(strict, 1, 0n, { to, value: 1n, maxFeePerGas: baseFee * 2n, maxPriorityFeePerGas: 1n })
  await strict.api.sendRawTransaction(fair.serialize())
  assert.notEqual(await strict.api.getTransactionByHash(fair.hash()), null)
})
