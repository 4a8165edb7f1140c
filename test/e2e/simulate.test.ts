/**
 * eth_simulateV1 through viem (simulateBlocks, simulateCalls) against a real server on a sequencing node
 * whose clock is injected: every simulation runs on the pre-confirmed (`pending`) state, which holds a
 * token transfer that is not sealed yet. A bundle approves and spends the allowance with transferFrom; a
 * multi-block simulation uses state and block overrides; a plain send is traced as an ERC-7528 transfer.
 */

import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import {
  createPublicClient,
  createWalletClient,
  decodeEventLog,
  encodeFunctionData,
  getAddress,
  http,
  numberToHex,
  pad,
  parseEther,
  type Hex,
  type PublicClient,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { ERC20_ABI, genesisAllocFor } from '../fixtures/erc20/index.ts'
import { ACCOUNTS, DEV_CHAIN_ID, testGenesis } from '../support/dev-chain.ts'
import { VIEM_DEV_CHAIN } from '../support/viem-chain.ts'
import { startNode, type RunningNode } from '../support/server.ts'
import { tempDir } from '../support/temp-dir.ts'
import { DEFAULT_SEQUENCER } from '../../src/node/create-node.ts'
import { ManualScheduler } from '../../src/sequencer/scheduler.ts'
import type { GethGenesis } from '../../src/execution/chain-config.ts'

const chain = VIEM_DEV_CHAIN

const TOKEN = '0x00000000000000000000000000000000000c0ffe' as const
const ALICE = privateKeyToAccount(ACCOUNTS[0]!.privateKey as Hex)
const BOB = privateKeyToAccount(ACCOUNTS[1]!.privateKey as Hex)
const CAROL = getAddress('0x00000000000000000000000000000000000ca201')
const RECEIVER = '0x00000000000000000000000000000000000000aa' as const
const ETH_TRANSFERS = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'
const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
/** Returns BALANCE(calldata word 0). */
const BALANCE_OF_CODE = '0x6000353160005260206000f3' as const
const PRECONFIRMED = 100n

function genesis(): GethGenesis {
  const g = testGenesis() as unknown as { alloc: Record<string, unknown> }
  Object.assign(g.alloc, genesisAllocFor(TOKEN, [{ address: ALICE.address, balance: 1_000n }]))
  return g as unknown as GethGenesis
}

/** A sequencing node on an injected clock, with ALICE's token transfer to CAROL pre-confirmed (not sealed). */
async function preconfirmedNode(t: TestContext): Promise<{ running: RunningNode; pub: PublicClient }> {
  const clock = new ManualScheduler(Date.now())
  const running = await startNode(t, tempDir(t), genesis(), {
    sequencer: { ...DEFAULT_SEQUENCER, mode: 'auto', scheduler: clock, flashblocksPerBlock: 10 },
  })
  await running.node.start()
  const pub = createPublicClient({ chain, transport: http(running.url, { retryCount: 0 }) })
  const alice = createWalletClient({ account: ALICE, chain, transport: http(running.url, { retryCount: 0 }) })
  await alice.writeContract({ address: TOKEN, abi: ERC20_ABI, functionName: 'transfer', args: [CAROL, PRECONFIRMED] })
  clock.advance(DEFAULT_SEQUENCER.flashblockIntervalMs)
  await running.node.sequencer!.idle()
  const balanceOf = (blockTag: 'pending' | 'latest') =>
    pub.readContract({ address: TOKEN, abi: ERC20_ABI, functionName: 'balanceOf', args: [CAROL], blockTag })
  assert.equal(await balanceOf('pending'), PRECONFIRMED, 'the transfer is pre-confirmed')
  assert.equal(await balanceOf('latest'), 0n, 'and not sealed')
  return { running, pub }
}

test('a bundle approves and spends the allowance on top of the pre-confirmed state', async (t) => {
  const { pub } = await preconfirmedNode(t)
  const pending = await pub.getBlock({ blockTag: 'pending' })
  const [block] = await pub.simulateBlocks({
    blockTag: 'pending',
    blocks: [
      {
        calls: [
          { account: ALICE.address, to: TOKEN, abi: ERC20_ABI, functionName: 'approve', args: [BOB.address, 40n] },
          { account: BOB.address, to: TOKEN, abi: ERC20_ABI, functionName: 'transferFrom', args: [ALICE.address, CAROL, 40n] },
          { account: BOB.address, to: TOKEN, abi: ERC20_ABI, functionName: 'transferFrom', args: [ALICE.address, CAROL, 1n] },
          { to: TOKEN, abi: ERC20_ABI, functionName: 'balanceOf', args: [CAROL] },
        ],
      },
    ],
  })
  assert.equal(block!.number, pending.number! + 1n, 'the simulated block follows the pending one')
  assert.equal(block!.stateRoot, pad('0x0', { size: 32 }), 'the contract: simulation commits no state')
  const [approve, spend, overspend, balance] = block!.calls
  assert.equal(approve!.status, 'success')
  assert.equal(approve!.result, true)
  assert.equal(decodeEventLog({ abi: ERC20_ABI, ...approve!.logs![0]! }).eventName, 'Approval')
  assert.equal(spend!.status, 'success')
  const transfer = decodeEventLog({ abi: ERC20_ABI, ...spend!.logs![0]! })
  assert.equal(transfer.eventName, 'Transfer')
  assert.deepEqual(transfer.args, { from: ALICE.address, to: CAROL, value: 40n })
  assert.equal(overspend!.status, 'failure', 'the allowance is used up')
  assert.equal(balance!.result, PRECONFIRMED + 40n, 'the pre-confirmed tokens and the simulated ones')
  assert.equal(spend!.logs![0]!.blockHash, block!.hash)
  assert.ok(block!.gasUsed > 0n && block!.gasUsed === block!.calls.reduce((n, c) => n + c.gasUsed, 0n))

  const [atLatest] = await pub.simulateBlocks({
    blocks: [{ calls: [{ to: TOKEN, abi: ERC20_ABI, functionName: 'balanceOf', args: [CAROL] }] }],
  })
  assert.equal(atLatest!.calls[0]!.result, 0n, 'at latest the pre-confirmed transfer is not there')
})

test('several blocks with state and block overrides: numbers and times increasing, state carried over, gaps filled', async (t) => {
  const { pub } = await preconfirmedNode(t)
  const pending = await pub.getBlock({ blockTag: 'pending' })
  const fresh = privateKeyToAccount(ACCOUNTS[3]!.privateKey as Hex).address
  const probe = '0x000000000000000000000000000000000000b0b0' as const
  const time = pending.timestamp + 100n
  const blocks = await pub.simulateBlocks({
    blockTag: 'pending',
    returnFullTransactions: true,
    blocks: [
      {
        blockOverrides: { time, feeRecipient: CAROL },
        stateOverrides: [
          { address: fresh, balance: parseEther('1') },
          { address: probe, code: BALANCE_OF_CODE },
        ],
        calls: [{ account: fresh, to: RECEIVER, value: 1_000n }],
      },
      {
        blockOverrides: { baseFeePerGas: 7n },
        calls: [
          { account: fresh, to: RECEIVER, value: 2_000n },
          { to: probe, data: pad(RECEIVER) },
        ],
      },
    ],
  })
  assert.deepEqual(blocks.map((b) => b.number), [pending.number! + 1n, pending.number! + 2n])
  assert.equal(blocks[1]!.parentHash, blocks[0]!.hash)
  assert.deepEqual(blocks.map((b) => b.timestamp), [time, time + 12n])
  assert.deepEqual(blocks.map((b) => getAddress(b.miner)), [CAROL, CAROL], 'the fee recipient carries over to the next block')
  assert.deepEqual(blocks.map((b) => b.baseFeePerGas), [0n, 7n], 'without validation the base fee is 0 unless overridden')
  const txs = [blocks[0]!.transactions[0]!, blocks[1]!.transactions[0]!] as unknown as { from: string; nonce: number }[]
  assert.deepEqual(txs.map((x) => [x.from.toLowerCase(), x.nonce]), [[fresh.toLowerCase(), 0], [fresh.toLowerCase(), 1]])
  const received = BigInt(blocks[1]!.calls[1]!.data)
  const before = await pub.getBalance({ address: RECEIVER, blockTag: 'pending' })
  assert.equal(received, before + 3_000n, 'the second block sees the first one\'s transfer')

  // A number that skips ahead is preceded by empty blocks (viem maps results to its inputs one to one, so
  // this one goes through the client's raw request).
  const raw = (await pub.request({
    method: 'eth_simulateV1' as never,
    params: [{ blockStateCalls: [{ blockOverrides: { number: numberToHex(pending.number! + 3n) }, calls: [{ to: RECEIVER }] }] }, 'pending'] as never,
  })) as { number: Hex; calls: unknown[] }[]
  assert.deepEqual(raw.map((b) => [BigInt(b.number), b.calls.length]), [1n, 2n, 3n].map((i, k) => [pending.number! + i, k === 2 ? 1 : 0]))
})

test('traceTransfers: a plain send at pending shows as an ERC-20 Transfer from the ERC-7528 address', async (t) => {
  const { pub } = await preconfirmedNode(t)
  const { results } = await pub.simulateCalls({
    account: ALICE.address,
    blockTag: 'pending',
    traceTransfers: true,
    calls: [{ to: RECEIVER, value: 1_234n }, { to: TOKEN, data: encodeFunctionData({ abi: ERC20_ABI, functionName: 'balanceOf', args: [CAROL] }) }],
  })
  const [send, read] = results
  assert.equal(send!.status, 'success')
  assert.equal(send!.logs!.length, 1)
  const log = send!.logs![0]!
  assert.equal(log.address.toLowerCase(), ETH_TRANSFERS)
  assert.deepEqual(log.topics, [TRANSFER_TOPIC, pad(ALICE.address.toLowerCase() as Hex), pad(RECEIVER)])
  assert.equal(log.data, numberToHex(1_234n, { size: 32 }))
  assert.deepEqual(read!.logs, [], 'a read moves no ETH')
  assert.equal(BigInt(read!.data), PRECONFIRMED)
})
