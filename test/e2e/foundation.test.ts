/**
 * The foundation through its public interface: a real server driven by viem. A token placed by a custom
 * genesis is called and read at several blocks; the imported rpc-compat chain supplies blocks, transactions
 * and receipts; a restart answers the same.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createPublicClient, http, type Hex, type PublicClient } from 'viem'
import { ERC20_ABI, balanceSlot, deployedCode, genesisAllocFor } from '../fixtures/erc20/index.ts'
import { ACCOUNTS, testGenesis } from '../support/dev-chain.ts'
import { startNode } from '../support/server.ts'
import { tempDir } from '../support/temp-dir.ts'
import { readRpcCompatChain, readRpcCompatGenesis, rpcCompatHeadHash } from '../support/shared.ts'
import type { GethGenesis } from '../../src/execution/chain-config.ts'

const TOKEN = '0x00000000000000000000000000000000000c0ffe' as const
const ALICE = '0x1111111111111111111111111111111111111111' as const
const BOB = '0x2222222222222222222222222222222222222222' as const

function tokenGenesis(): GethGenesis {
  const g = testGenesis() as unknown as { alloc: Record<string, unknown> }
  Object.assign(g.alloc, genesisAllocFor(TOKEN, [{ address: ALICE, balance: 1000n }, { address: BOB, balance: 1n }]))
  return g as unknown as GethGenesis
}

const client = (url: string): PublicClient => createPublicClient({ transport: http(url, { retryCount: 0 }) })

test('a genesis token answers balanceOf, storage and code through viem, and the same after a restart', async (t) => {
  const dir = tempDir(t)
  const first = await startNode(t, dir, tokenGenesis())
  const c = client(first.url)
  const read = async (cl: PublicClient) => ({
    chainId: await cl.getChainId(),
    alice: await cl.readContract({ address: TOKEN, abi: ERC20_ABI, functionName: 'balanceOf', args: [ALICE] }),
    supply: await cl.readContract({ address: TOKEN, abi: ERC20_ABI, functionName: 'totalSupply' }),
    slot: await cl.getStorageAt({ address: TOKEN, slot: balanceSlot(BOB) }),
    code: await cl.getCode({ address: TOKEN }),
    eoaCode: await cl.getCode({ address: ALICE }),
    block: (await cl.getBlock({ blockTag: 'latest' })).hash,
  })
  const before = await read(c)
  assert.equal(before.chainId, 31337)
  assert.equal(before.alice, 1000n)
  assert.equal(before.supply, 1001n)
  assert.equal(BigInt(before.slot!), 1n)
  assert.equal(before.code, deployedCode)
  assert.equal(before.eoaCode, undefined, 'an account without code reads as empty')
  await assert.rejects(
    c.simulateContract({ address: TOKEN, abi: ERC20_ABI, functionName: 'transfer', args: [BOB, 5000n], account: ALICE }),
    /revert/i,
  )
  await first.stop()

  const second = await startNode(t, dir, tokenGenesis())
  assert.deepEqual(await read(client(second.url)), before)
})

test('the imported chain serves blocks, transactions, receipts and state at several heights', async (t) => {
  const running = await startNode(t, tempDir(t), readRpcCompatGenesis() as unknown as GethGenesis)
  await running.node.writer.importRlp(readRpcCompatChain())
  const c = client(running.url)
  const head = await c.getBlock({ blockTag: 'latest' })
  assert.equal(head.hash, rpcCompatHeadHash())
  assert.equal(await c.getBlockNumber(), head.number)

  let checkedTxs = 0
  for (const n of [1n, 10n, 40n, head.number]) {
    const block = await c.getBlock({ blockNumber: n, includeTransactions: true })
    assert.equal(block.number, n)
    const byHash = await c.getBlock({ blockHash: block.hash! })
    assert.equal(byHash.number, n)
    assert.equal((await c.getBlockTransactionCount({ blockNumber: n })), block.transactions.length)
    const receipts = await c.request({ method: 'eth_getBlockReceipts', params: [`0x${n.toString(16)}` as Hex] })
    assert.equal(receipts?.length, block.transactions.length)
    for (const [i, tx] of block.transactions.entries()) {
      const fetched = await c.getTransaction({ hash: tx.hash })
      assert.equal(fetched.blockNumber, n)
      assert.equal(fetched.transactionIndex, i)
      const receipt = await c.getTransactionReceipt({ hash: tx.hash })
      assert.equal(receipt.transactionHash, tx.hash)
      assert.equal(receipt.blockHash, block.hash)
      assert.equal(receipt.from, tx.from)
      // The sender's nonce moved past this transaction by this block, and not before the previous one.
      assert.ok((await c.getTransactionCount({ address: tx.from, blockNumber: n })) > tx.nonce)
      assert.ok((await c.getTransactionCount({ address: tx.from, blockNumber: n - 1n })) <= tx.nonce)
      checkedTxs++
    }
  }
  assert.ok(checkedTxs > 0, 'the sampled blocks carry transactions')

  let blobTxs = 0
  for (let n = 1n; n <= head.number; n++) {
    for (const tx of (await c.getBlock({ blockNumber: n, includeTransactions: true })).transactions) {
      if (tx.type !== 'eip4844') continue
      blobTxs++
      assert.ok(tx.blobVersionedHashes!.length > 0)
      for (const h of tx.blobVersionedHashes!) assert.match(h, /^0x01[0-9a-f]{62}$/, 'a versioned hash is 32 bytes with version 0x01')
    }
  }
  assert.ok(blobTxs > 0, 'the chain carries blob transactions')
  const pendingFees = await c.getFeeHistory({ blockCount: 2, blockTag: 'pending', rewardPercentiles: [10] })
  assert.equal(pendingFees.oldestBlock, head.number - 1n)
  // (Block 2 of this chain emits ~21 MB of logs, past viem's response limit: start after it.)
  const logs = await c.getLogs({ fromBlock: 3n, toBlock: head.number })
  assert.ok(logs.length > 0)
  for (const log of logs) assert.ok(log.blockNumber! >= 3n && log.blockNumber! <= head.number)
  const sorted = [...logs].sort((a, b) => Number(a.blockNumber! - b.blockNumber!) || a.logIndex! - b.logIndex!)
  assert.deepEqual(logs, sorted, 'logs come in block and log-index order')
  const fees = await c.getFeeHistory({ blockCount: 4, rewardPercentiles: [50] })
  assert.equal(fees.baseFeePerGas.length, 5)
})

test('eth_call block overrides reach the EVM: NUMBER, TIMESTAMP, COINBASE, BASEFEE, BLOBBASEFEE, PREVRANDAO, GASLIMIT', async (t) => {
  // Stores NUMBER, TIMESTAMP, COINBASE, BASEFEE, BLOBBASEFEE, PREVRANDAO and GASLIMIT as seven words and returns them.
  const ENV = '0x00000000000000000000000000000000000e0e0e' as const
  const ops = ['43', '42', '41', '48', '4a', '44', '45']
  const code = `0x${ops.map((op, i) => `${op}60${(i * 32).toString(16).padStart(2, '0')}52`).join('')}60e06000f3` as Hex
  const g = testGenesis() as unknown as { alloc: Record<string, unknown> }
  g.alloc[ENV] = { balance: '0x0', code }
  const running = await startNode(t, tempDir(t), g as unknown as GethGenesis)
  const c = client(running.url)
  const words = (hex: unknown) => (hex as string).slice(2).match(/.{64}/g)!.map((w) => BigInt(`0x${w}`))
  const call = (request: Record<string, string>, overrides?: Record<string, string>) =>
    c.request({ method: 'eth_call', params: (overrides === undefined ? [request, 'latest'] : [request, 'latest', {}, overrides]) as never })
  const head = await c.getBlock({ blockTag: 'latest' })
  // A call without a gas price sees a base fee of 0 (geth lowers it so that such a call never fails on fees).
  const plain = words(await call({ to: ENV }))
  assert.deepEqual(plain, [head.number, head.timestamp, BigInt(head.miner), 0n, await c.getBlobBaseFee(), BigInt(head.mixHash), head.gasLimit])
  const priced = words(await call({ to: ENV, from: ACCOUNTS[0]!.address, gasPrice: `0x${head.baseFeePerGas!.toString(16)}` }))
  assert.equal(priced[3], head.baseFeePerGas, 'a priced call sees the block\'s base fee')
  const overridden = words(
    await call({ to: ENV, from: ACCOUNTS[0]!.address, gasPrice: '0x5' }, { number: '0x99', time: '0x7777', feeRecipient: `0x${'cb'.repeat(20)}`, baseFeePerGas: '0x5', blobBaseFee: '0x1234', prevRandao: `0x${'ab'.repeat(32)}`, gasLimit: '0x989680' }),
  )
  assert.deepEqual(overridden, [0x99n, 0x7777n, BigInt(`0x${'cb'.repeat(20)}`), 5n, 0x1234n, BigInt(`0x${'ab'.repeat(32)}`), 10_000_000n])
})
