/**
 * eth_simulateV1 on the CLI's `--op-stack` dev chain (Jovian at genesis), through a real node on loopback and
 * viem: the simulated blocks follow the OP chain's block rules, not Ethereum's.
 *
 * - With validation, each simulated block's base fee is the OP successor of its parent's (specs
 *   holocene/exec-engine.md "Base fee computation", jovian/exec-engine.md "Minimum Base Fee" and "DA Footprint
 *   Block Limit"): EIP-1559's formula with the denominator and elasticity of the parent's extraData, the gas
 *   metered max(gasUsed, blobGasUsed), never below the minimum base fee of the extraData. The first block's
 *   parent is the chain's latest block, each next one's the simulated block before it (whose extraData is its
 *   parent's, as Base's node builds it). The expected values are computed here from those formulas and the
 *   headers the node answers, with the specs' byte layout of the extraData decoded here too.
 * - A call whose DA footprint does not fit what the gas limit leaves of the block's is refused (-38015), as
 *   Base's block executor refuses it; a set that fits exactly is not. A call without data is below Fjord's
 *   100-byte floor (specs fjord/exec-engine.md), so its footprint is 100 × the scalar.
 */

import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { createPublicClient, hexToBytes, http, toHex, type Hex } from 'viem'
import { devAccounts } from '../../src/node/dev-genesis.ts'
import { opStackCliConfig } from '../support/op-chain.ts'
import { startNode } from '../support/server.ts'
import { tempDir } from '../support/temp-dir.ts'

const SCALAR = 65_535n
const MIN_BASE_FEE = 3_000_000_000n
const L1 = { l1BaseFee: 1_000_000_000n, l1BlobBaseFee: 1n, baseFeeScalar: 0n, blobBaseFeeScalar: 0n, daFootprintGasScalar: SCALAR, minBaseFee: MIN_BASE_FEE }
/** The DA footprint of a call without data: Fjord's floor of 100 bytes × the scalar. */
const EMPTY_CALL_FOOTPRINT = 100n * SCALAR
const SINK = '0x000000000000000000000000000000000000bEEF' as Hex

interface SimHeader {
  number: Hex
  timestamp: Hex
  gasLimit: Hex
  gasUsed: Hex
  blobGasUsed: Hex
  baseFeePerGas: Hex
  extraData: Hex
  calls: { status: Hex }[]
}

interface ParentFields {
  gasLimit: bigint
  gasUsed: bigint
  blobGasUsed: bigint
  baseFeePerGas: bigint
  extraData: Hex
}

/** Jovian's extraData (version 1, denominator u32, elasticity u32, minimum base fee u64), decoded from the specs' layout. */
function jovianParams(extraData: Hex): { denominator: bigint; elasticity: bigint; minBaseFee: bigint } {
  const b = hexToBytes(extraData)
  assert.equal(b.length, 17, 'a Jovian header carries 17 bytes of extraData')
  assert.equal(b[0], 1, 'version 1')
  const view = new DataView(b.buffer, b.byteOffset)
  return { denominator: BigInt(view.getUint32(1)), elasticity: BigInt(view.getUint32(5)), minBaseFee: view.getBigUint64(9) }
}

/** EIP-1559's next base fee for `metered` gas against target = gasLimit / elasticity. */
function eip1559(baseFee: bigint, gasLimit: bigint, metered: bigint, elasticity: bigint, denominator: bigint): bigint {
  const target = gasLimit / elasticity
  if (metered === target) return baseFee
  if (metered > target) {
    const delta = ((metered - target) * baseFee) / target / denominator
    return baseFee + (delta < 1n ? 1n : delta)
  }
  const fee = baseFee - ((target - metered) * baseFee) / target / denominator
  return fee < 0n ? 0n : fee
}

/** Jovian's next base fee after `parent` (the specs' rule, independent of the node's code). */
function jovianNextBaseFee(parent: ParentFields): bigint {
  const { denominator, elasticity, minBaseFee } = jovianParams(parent.extraData)
  const metered = parent.blobGasUsed > parent.gasUsed ? parent.blobGasUsed : parent.gasUsed
  const fee = eip1559(parent.baseFeePerGas, parent.gasLimit, metered, elasticity, denominator)
  return fee < minBaseFee ? minBaseFee : fee
}

const fieldsOf = (h: SimHeader): ParentFields => ({
  gasLimit: BigInt(h.gasLimit),
  gasUsed: BigInt(h.gasUsed),
  blobGasUsed: BigInt(h.blobGasUsed),
  baseFeePerGas: BigInt(h.baseFeePerGas),
  extraData: h.extraData,
})

async function opChain(t: TestContext) {
  const dir = tempDir(t)
  const config = opStackCliConfig(join(dir, '..'), L1)
  const running = await startNode(t, join(dir, 'chain'), config.genesis, { sequencer: config.sequencer })
  await running.node.start()
  const client = createPublicClient({ transport: http(running.url) })
  await running.node.sequencer!.seal()
  const simulate = (blockStateCalls: unknown[], validation: boolean) =>
    client.request({ method: 'eth_simulateV1' as never, params: [{ blockStateCalls, validation }, 'latest'] as never }) as Promise<SimHeader[]>
  return { client, simulate }
}

const from = devAccounts(1)[0]!.address as Hex
/** A call that pays the base fee (validation refuses a fee cap below it). */
const call = { from, to: SINK, maxFeePerGas: toHex(100_000_000_000n), maxPriorityFeePerGas: '0x0' }

test('eth_simulateV1 with validation on an OP chain: the base fees follow the parent\'s extraData, Jovian\'s minimum base fee and its DA metering', async (t) => {
  const { client, simulate } = await opChain(t)
  const latest = await client.getBlock({ blockTag: 'latest' })
  assert.equal(jovianParams(latest.extraData).minBaseFee, MIN_BASE_FEE)
  const blocks = await simulate([{ calls: [call, call, call] }, { calls: [] }, { calls: [] }], true)
  assert.equal(blocks.length, 3)
  for (const b of blocks) for (const c of b.calls) assert.equal(c.status, '0x1')

  // Block 1's parent is the chain's latest block, light: the formula falls under the minimum, which holds.
  const base: ParentFields = { gasLimit: latest.gasLimit, gasUsed: latest.gasUsed, blobGasUsed: latest.blobGasUsed, baseFeePerGas: latest.baseFeePerGas!, extraData: latest.extraData }
  const { denominator, elasticity } = jovianParams(latest.extraData)
  assert.ok(eip1559(base.baseFeePerGas, base.gasLimit, base.gasUsed, elasticity, denominator) < MIN_BASE_FEE, 'the minimum decides block 1')
  assert.equal(BigInt(blocks[0]!.baseFeePerGas), jovianNextBaseFee(base))
  assert.equal(BigInt(blocks[0]!.baseFeePerGas), MIN_BASE_FEE)

  // Every simulated block carries its parent's extraData, so the parameters and the minimum carry through.
  for (const b of blocks) assert.equal(b.extraData, latest.extraData)

  // Block 2's parent (block 1) used little gas but a DA footprint over the target: the footprint is metered.
  const first = fieldsOf(blocks[0]!)
  assert.equal(first.blobGasUsed, 3n * EMPTY_CALL_FOOTPRINT)
  assert.ok(first.blobGasUsed > first.gasLimit / elasticity && first.gasUsed < first.gasLimit / elasticity)
  assert.equal(BigInt(blocks[1]!.baseFeePerGas), jovianNextBaseFee(first))
  assert.ok(BigInt(blocks[1]!.baseFeePerGas) > MIN_BASE_FEE, 'the DA footprint raised it')
  // Ethereum's rule (elasticity 2, denominator 8, gas used only) gives another fee: the test tells them apart.
  assert.notEqual(BigInt(blocks[1]!.baseFeePerGas), eip1559(first.baseFeePerGas, first.gasLimit, first.gasUsed, 2n, 8n))

  // Block 3 after an empty block: it falls by the extraData's denominator, still above the minimum.
  const second = fieldsOf(blocks[1]!)
  assert.equal(second.blobGasUsed, 0n)
  assert.equal(BigInt(blocks[2]!.baseFeePerGas), jovianNextBaseFee(second))
  assert.ok(BigInt(blocks[2]!.baseFeePerGas) < BigInt(blocks[1]!.baseFeePerGas))

  // Without validation the base fee stays 0, as before.
  const unvalidated = await simulate([{ calls: [call] }], false)
  assert.equal(BigInt(unvalidated[0]!.baseFeePerGas), 0n)
})

test('eth_simulateV1 on an OP chain refuses a call set over the block\'s DA footprint limit (-38015); a set that fits exactly is simulated', async (t) => {
  const { simulate } = await opChain(t)
  const limit = 2n * EMPTY_CALL_FOOTPRINT
  const exact = await simulate([{ blockOverrides: { gasLimit: toHex(limit) }, calls: [call, call] }], true)
  assert.equal(BigInt(exact[0]!.blobGasUsed), limit)
  assert.equal(BigInt(exact[0]!.gasLimit), limit)

  for (const validation of [true, false]) {
    const over = simulate([{ blockOverrides: { gasLimit: toHex(limit + EMPTY_CALL_FOOTPRINT - 1n) }, calls: [call, call, call] }], validation)
    await assert.rejects(over, (e: unknown) => {
      const err = e as { code?: number; details?: string; cause?: { code?: number } }
      assert.equal(err.code ?? err.cause?.code, -38015)
      assert.match(String(err.details), new RegExp(`DA footprint limit reached: have ${EMPTY_CALL_FOOTPRINT - 1n}, want ${EMPTY_CALL_FOOTPRINT}`))
      return true
    })
  }
})
