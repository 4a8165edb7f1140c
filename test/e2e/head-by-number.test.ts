/**
 * The head block asked for by its number (not by `latest`), through viem against a real server: the block,
 * its transactions, its receipts and the state after it (storage, balance, nonce, code, eth_call) are the
 * head's, not the block below's; one number past the head is no block. Each block writes a different value
 * into a register contract, so reading the block below instead of the head shows.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createPublicClient, createWalletClient, http, numberToHex, pad, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { ACCOUNTS, testGenesis } from '../support/dev-chain.ts'
import { REGISTER_RUNTIME } from '../support/contracts.ts'
import { VIEM_DEV_CHAIN } from '../support/viem-chain.ts'
import { startNode } from '../support/server.ts'
import { tempDir } from '../support/temp-dir.ts'
import { DEFAULT_SEQUENCER } from '../../src/node/create-node.ts'
import { ManualScheduler } from '../../src/sequencer/scheduler.ts'
import type { GethGenesis } from '../../src/execution/chain-config.ts'

const REGISTER = '0x000000000000000000000000000000000000c0de' as const
const RECEIVER = '0x00000000000000000000000000000000000000aa' as const
const word = (n: bigint): Hex => pad(numberToHex(n), { size: 32 })

test('the head block by its number: block, transactions, receipts and state are the head\'s', async (t) => {
  const g = testGenesis() as unknown as { alloc: Record<string, unknown> }
  g.alloc[REGISTER] = { balance: '0x0', code: `0x${REGISTER_RUNTIME}` }
  const running = await startNode(t, tempDir(t), g as unknown as GethGenesis, {
    sequencer: { ...DEFAULT_SEQUENCER, mode: 'manual', scheduler: new ManualScheduler(Date.now()) },
  })
  await running.node.start()
  const chain = VIEM_DEV_CHAIN
  const pub = createPublicClient({ chain, transport: http(running.url, { retryCount: 0 }) })
  const w = createWalletClient({ account: privateKeyToAccount(ACCOUNTS[0]!.privateKey as Hex), chain, transport: http(running.url, { retryCount: 0 }) })

  const sentIn = new Map<bigint, Hex[]>()
  for (let n = 1n; n <= 3n; n++) {
    const txs = [await w.sendTransaction({ to: REGISTER, data: word(100n + n), gas: 60_000n })]
    for (let i = 0n; i < n; i++) txs.push(await w.sendTransaction({ to: RECEIVER, value: 1000n + i, gas: 21_000n }))
    await pub.request({ method: 'evm_mine' as never })
    sentIn.set(n, txs)
  }
  const head = await pub.getBlockNumber()
  assert.equal(head, 3n)
  const latest = await pub.getBlock({ blockTag: 'latest' })

  const block = await pub.getBlock({ blockNumber: head })
  assert.equal(block.number, head)
  assert.equal(block.hash, latest.hash, 'the head by number is the latest block')
  assert.deepEqual(block.transactions, sentIn.get(head))
  assert.equal(await pub.getBlockTransactionCount({ blockNumber: head }), sentIn.get(head)!.length)
  assert.equal((await pub.getTransaction({ blockNumber: head, index: 0 })).hash, sentIn.get(head)![0])
  await assert.rejects(pub.getBlock({ blockNumber: head + 1n }), /could not be found/, 'one past the head is no block')

  const receipts = await pub.request({ method: 'eth_getBlockReceipts', params: [numberToHex(head)] })
  assert.deepEqual(receipts?.map((r) => r.transactionHash), sentIn.get(head))
  for (const r of receipts!) {
    assert.equal(r.blockHash, latest.hash)
    assert.equal(r.blockNumber, numberToHex(head))
  }
  assert.equal(await pub.request({ method: 'eth_getBlockReceipts', params: [numberToHex(head + 1n)] }), null)

  // State after the head, by its number, and after the block below it.
  for (const [n, value] of [[head, 103n], [head - 1n, 102n]] as const) {
    assert.equal(await pub.getStorageAt({ address: REGISTER, slot: word(0n), blockNumber: n }), word(value), `storage after block ${n}`)
    assert.equal((await pub.call({ to: REGISTER, blockNumber: n })).data, word(value), `eth_call after block ${n}`)
  }
  // Block n sent n transfers to RECEIVER (1000, 1001, …) and 1 + n transactions from the sender.
  const genesisReceiver = await pub.getBalance({ address: RECEIVER, blockNumber: 0n })
  assert.equal(await pub.getBalance({ address: RECEIVER, blockNumber: head }), genesisReceiver + 1000n + (1000n + 1000n + 1n) + (1000n + 1001n + 1002n))
  assert.equal(await pub.getTransactionCount({ address: w.account.address, blockNumber: head }), 9)
  assert.equal(await pub.getTransactionCount({ address: w.account.address, blockNumber: head - 1n }), 5)
  assert.equal(await pub.getCode({ address: REGISTER, blockNumber: head }), `0x${REGISTER_RUNTIME}`)
  await assert.rejects(pub.getStorageAt({ address: REGISTER, slot: word(0n), blockNumber: head + 1n }), /header not found/)
})
