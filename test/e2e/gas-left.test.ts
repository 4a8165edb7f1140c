/**
 * A transaction that does not fit the gas left in the open block stays in the pool and lands in the next
 * block; one whose gas limit is exactly the gas left fits, and one asking for the whole block gas limit is
 * admitted and included. A chain with a 100,000 gas block limit, manual
 * sealing, viem over HTTP.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createPublicClient, createWalletClient, http, parseGwei, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { ACCOUNTS, testGenesis } from '../support/dev-chain.ts'
import { VIEM_DEV_CHAIN } from '../support/viem-chain.ts'
import { startNode } from '../support/server.ts'
import { tempDir } from '../support/temp-dir.ts'
import { DEFAULT_SEQUENCER } from '../../src/node/create-node.ts'
import { ManualScheduler } from '../../src/sequencer/scheduler.ts'
import type { GethGenesis } from '../../src/execution/chain-config.ts'

const BLOCK_GAS = 100_000n
const RECEIVER = '0x00000000000000000000000000000000000000aa' as const

test('a transaction that does not fit the gas left in the open block stays in the pool and lands in the next block', async (t) => {
  const g = testGenesis() as unknown as { gasLimit: string }
  g.gasLimit = `0x${BLOCK_GAS.toString(16)}`
  const running = await startNode(t, tempDir(t), g as unknown as GethGenesis, {
    sequencer: { ...DEFAULT_SEQUENCER, mode: 'manual', scheduler: new ManualScheduler(Date.now()) },
  })
  await running.node.start()
  const chain = VIEM_DEV_CHAIN
  const pub = createPublicClient({ chain, transport: http(running.url, { retryCount: 0 }) })
  const send = (from: number, gas: bigint, tipGwei: string) =>
    createWalletClient({ account: privateKeyToAccount(ACCOUNTS[from]!.privateKey as Hex), chain, transport: http(running.url, { retryCount: 0 }) })
      .sendTransaction({ to: RECEIVER, value: 1n, gas, maxFeePerGas: parseGwei('50'), maxPriorityFeePerGas: parseGwei(tipGwei) })
  const status = async (hash: Hex) => ((await pub.request({ method: 'base_transactionStatus' as never, params: [hash] as never })) as { status: string }).status

  // Offered best tip first: a (21,000 used), then b (needs 80,000 of the 79,000 left), then c (needs exactly 79,000).
  const a = await send(0, 21_000n, '3')
  const b = await send(1, 80_000n, '2')
  const c = await send(2, BLOCK_GAS - 21_000n, '1')
  await pub.request({ method: 'flashnode_flashblock' as never })
  assert.deepEqual((await pub.getBlock({ blockTag: 'pending' })).transactions, [a, c], 'c fits the gas left exactly; b does not')
  assert.equal(await status(b), 'Known', 'b waits in the pool')
  assert.equal((await pub.getTransaction({ hash: b })).blockNumber, null)
  assert.equal(await pub.getTransactionCount({ address: ACCOUNTS[1]!.address as Hex, blockTag: 'pending' }), 1, 'the pending nonce counts b')

  await pub.request({ method: 'evm_mine' as never })
  const first = await pub.getBlock({ blockNumber: 1n })
  assert.deepEqual(first.transactions, [a, c], 'b did not fit the seal\'s flashblock either')
  assert.ok(first.gasUsed + 80_000n > BLOCK_GAS)
  assert.equal(await status(b), 'Known')

  await pub.request({ method: 'evm_mine' as never })
  const receipt = await pub.getTransactionReceipt({ hash: b })
  assert.equal(receipt.blockNumber, 2n, 'b lands in the next block')
  assert.equal(receipt.status, 'success')
  assert.deepEqual((await pub.getBlock({ blockNumber: 2n })).transactions, [b])

  // A transaction asking for the whole block's gas is admitted and fills a block of its own.
  const whole = await send(3, BLOCK_GAS, '1')
  await pub.request({ method: 'evm_mine' as never })
  assert.equal((await pub.getTransactionReceipt({ hash: whole })).blockNumber, 3n)
})
