/**
 * viem's OP Stack actions and formatters against a node on the `--op-stack` dev chain (issue 41's gate): a
 * real node built from the CLI's own options, served on loopback, read by a viem client with `viem/op-stack`'s
 * chain config extended with `publicActionsL2`.
 *
 * - `getL1BaseFee` answers the L1 base fee the L1-attributes deposits set (the `--op-l1` file).
 * - `estimateL1Fee` / `estimateL1Gas` quote the GasPriceOracle for the *unsigned* transaction (the specs add
 *   68 bytes of signature to its FastLZ size); the receipt charges the *signed* bytes. Their compressed sizes
 *   differ by a few bytes, so the receipt's `l1Fee` and `l1GasUsed` agree with the quotes within what four
 *   FastLZ bytes cost by Fjord's formula (836,500 × 1e-6 estimated bytes each; 16 L1 gas a byte).
 * - `estimateTotalFee` is the L1 fee, the operator fee and the L2 gas at the node's gas price, read apart.
 * - After the block is sealed: the sender paid value + gas × price + its receipt's `l1Fee` exactly; the L1 fee
 *   vault holds the sum of the block's receipts' `l1Fee`, the base fee vault the base fee × the gas of its
 *   non-deposit transactions.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { createPublicClient, createWalletClient, defineChain, http, toHex, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { chainConfig, publicActionsL2 } from 'viem/op-stack'
import { devAccounts } from '../../src/node/dev-genesis.ts'
import { BASE_FEE_VAULT_ADDRESS, L1_FEE_VAULT_ADDRESS } from '../../src/opstack/predeploy-addresses.ts'
import { opStackCliConfig } from '../support/op-chain.ts'
import { startNode } from '../support/server.ts'
import { tempDir } from '../support/temp-dir.ts'

const L1 = { l1BaseFee: 7_654_321_987n, l1BlobBaseFee: 3_210_987n, baseFeeScalar: 2_269n, blobBaseFeeScalar: 1_055_762n, operatorFeeScalar: 0n, operatorFeeConstant: 0n }
const BOB = '0x0000000000000000000000000000000000000b0b'
/** Fjord: estimated size per FastLZ byte (× 1e-6), and the L1 gas of an estimated byte. */
const FJORD_PER_FASTLZ_BYTE = 836_500n
const L1_GAS_PER_BYTE = 16n
/** How far the signed bytes' FastLZ length may lie from the unsigned one's + 68 (measured: −3 to +2). */
const FASTLZ_SLACK = 4n

const abs = (x: bigint): bigint => (x < 0n ? -x : x)

test("viem's OP Stack actions agree with what the --op-stack chain charges", { timeout: 120_000 }, async (t) => {
  const dir = tempDir(t)
  const config = opStackCliConfig(join(dir, '..'), L1)
  const running = await startNode(t, join(dir, 'chain'), config.genesis, { sequencer: config.sequencer })
  await running.node.start()
  const chain = defineChain({
    ...chainConfig,
    id: Number(running.node.rules.chainId),
    name: 'flashnode --op-stack',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [running.url] } },
  })
  const client = createPublicClient({ chain, transport: http(running.url) }).extend(publicActionsL2())
  const account = privateKeyToAccount(devAccounts(1)[0]!.privateKey as Hex)
  const wallet = createWalletClient({ account, chain, transport: http(running.url) })

  assert.equal(await client.getL1BaseFee(), L1.l1BaseFee)

  // Incompressible calldata: well above Fjord's 100-byte floor, so the size difference shows.
  const request = { account, to: BOB as Hex, value: 12_345n, data: toHex(randomBytes(1_000)), gas: 200_000n, maxFeePerGas: 20_000_000_000n, maxPriorityFeePerGas: 1_000_000n, nonce: 0, chain } as const
  const l1FeeQuote = await client.estimateL1Fee(request)
  const l1GasQuote = await client.estimateL1Gas(request)
  const operatorFeeQuote = await client.estimateOperatorFee(request)
  const total = await client.estimateTotalFee(request)
  const l2Gas = await client.estimateGas(request)
  const gasPrice = await client.getGasPrice()
  assert.equal(total, l1FeeQuote + operatorFeeQuote + l2Gas * gasPrice, 'total = L1 fee + operator fee + L2 gas × gas price')
  assert.equal(operatorFeeQuote, 0n, 'no operator fee configured')

  const before = {
    sender: await client.getBalance({ address: account.address }),
    l1Vault: await client.getBalance({ address: L1_FEE_VAULT_ADDRESS }),
    baseVault: await client.getBalance({ address: BASE_FEE_VAULT_ADDRESS }),
  }
  const hash = await wallet.sendTransaction(request)
  await running.node.sequencer!.seal()
  const receipt = await client.getTransactionReceipt({ hash })
  assert.equal(receipt.status, 'success')
  const l1Fee = receipt.l1Fee!
  const l1GasUsed = receipt.l1GasUsed!

  // The quote (unsigned + 68) against the charge (signed): within four FastLZ bytes by Fjord's formula.
  const perEstimatedByte = 16n * L1.l1BaseFee * L1.baseFeeScalar + L1.l1BlobBaseFee * L1.blobBaseFeeScalar
  const feeSlack = (FASTLZ_SLACK * FJORD_PER_FASTLZ_BYTE * perEstimatedByte) / 10n ** 12n + 1n
  const gasSlack = (FASTLZ_SLACK * FJORD_PER_FASTLZ_BYTE * L1_GAS_PER_BYTE) / 10n ** 6n + 1n
  assert.ok(abs(l1Fee - l1FeeQuote) <= feeSlack, `l1Fee ${l1Fee} against the quote ${l1FeeQuote} (slack ${feeSlack})`)
  assert.ok(abs(l1GasUsed - l1GasQuote) <= gasSlack, `l1GasUsed ${l1GasUsed} against the quote ${l1GasQuote} (slack ${gasSlack})`)

  // What the sender paid, and where it went.
  const after = {
    sender: await client.getBalance({ address: account.address }),
    l1Vault: await client.getBalance({ address: L1_FEE_VAULT_ADDRESS }),
    baseVault: await client.getBalance({ address: BASE_FEE_VAULT_ADDRESS }),
  }
  assert.equal(before.sender - after.sender, request.value + receipt.gasUsed * receipt.effectiveGasPrice + l1Fee)
  const block = await client.getBlock({ blockNumber: receipt.blockNumber })
  const receipts = await client.getBlockReceipts({ blockNumber: receipt.blockNumber })
  const charged = receipts.filter((r) => r.l1Fee !== null && r.l1Fee !== undefined)
  assert.ok(charged.length >= 1 && charged.length < receipts.length, 'deposits carry no L1 fee; the transfer does')
  assert.equal(after.l1Vault - before.l1Vault, charged.reduce((sum, r) => sum + r.l1Fee!, 0n))
  assert.equal(after.baseVault - before.baseVault, block.baseFeePerGas! * charged.reduce((sum, r) => sum + r.gasUsed, 0n))
})
