/**
 * eth_gasPrice and eth_maxPriorityFeePerGas on an OP Stack chain follow op-geth's OP rule (issue 41; op-geth
 * eth/gasprice/optimism-gasprice.go), as a client sees them: a node on the CLI's --op-stack dev chain with a
 * 2,000,000 gas limit, served on loopback, read by viem.
 *
 * - After an empty block (only its L1-attributes deposit) the tip is op-geth's minimum, 0.001 gwei, and the gas
 *   price that plus the head's base fee.
 * - After a full block (three creations whose init code loops until their 600,000 gas is gone, beside the
 *   deposit: gas used + the largest transaction's gas > the limit) the tip is the median of the block's tips
 *   (the deposit's 0, then 1, 10 and 100 gwei: the upper middle, 10 gwei) plus 10%: 11 gwei.
 * - The next empty block brings it back to the minimum.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { createPublicClient, createWalletClient, defineChain, http, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { chainConfig } from 'viem/op-stack'
import { parseCommandLine } from '../../src/cli/options.ts'
import { chooseGenesis } from '../../src/cli/chain-setup.ts'
import { sequencerSettingsOf } from '../../src/cli/node-config.ts'
import { devAccounts } from '../../src/node/dev-genesis.ts'
import { startNode } from '../support/server.ts'
import { tempDir } from '../support/temp-dir.ts'

const GWEI = 1_000_000_000n
/** JUMPDEST PUSH1 0 JUMP: loops until the gas is gone. */
const BURN_ALL_GAS = '0x5b600056' as const

test("eth_maxPriorityFeePerGas and eth_gasPrice on an OP chain: op-geth's minimum after an empty block, the median tip + 10% after a full one", { timeout: 120_000 }, async (t) => {
  const { options } = parseCommandLine('start', ['--op-stack', '--sealing', 'manual', '--accounts', '3', '--gas-limit', '2000000'])
  const running = await startNode(t, join(tempDir(t), 'chain'), chooseGenesis(options).genesis, { sequencer: sequencerSettingsOf(options) })
  await running.node.start()
  const chain = defineChain({ ...chainConfig, id: Number(running.node.rules.chainId), name: 'op', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [running.url] } } })
  const client = createPublicClient({ chain, transport: http(running.url) })
  const mine = () => client.request({ method: 'evm_mine' } as never)

  await mine()
  const empty = await client.getBlock()
  assert.equal(empty.transactions.length, 1, 'only the L1-attributes deposit')
  assert.equal(await client.estimateMaxPriorityFeePerGas(), 1_000_000n)
  assert.equal(await client.getGasPrice(), 1_000_000n + empty.baseFeePerGas!)

  const keys = devAccounts(3).map((a) => privateKeyToAccount(a.privateKey as Hex))
  const tips = [GWEI, 10n * GWEI, 100n * GWEI]
  for (const [i, account] of keys.entries()) {
    const wallet = createWalletClient({ account, chain, transport: http(running.url) })
    await wallet.sendTransaction({ data: BURN_ALL_GAS, gas: 600_000n, maxFeePerGas: 200n * GWEI, maxPriorityFeePerGas: tips[i]!, nonce: 0 })
  }
  await mine()
  const full = await client.getBlock()
  assert.equal(full.transactions.length, 4)
  const largest = 600_000n
  assert.ok(full.gasUsed + largest > full.gasLimit, `full by op-geth's measure (${full.gasUsed} + ${largest} > ${full.gasLimit})`)
  assert.equal(await client.estimateMaxPriorityFeePerGas(), 11n * GWEI)
  assert.equal(await client.getGasPrice(), 11n * GWEI + full.baseFeePerGas!)

  await mine()
  assert.equal(await client.estimateMaxPriorityFeePerGas(), 1_000_000n, 'an empty head block: the minimum again')
})
