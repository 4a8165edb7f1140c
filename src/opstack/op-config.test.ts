/**
 * The OP chain config and EIP-1559 with the chain's parameters (chain-config.ts, base-fee.ts), and the L1Block
 * storage reading (l1-block-storage.ts). Expected base fees are worked out from EIP-1559's formula by hand.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { impliedForkTimesError, opForkAt, parseOpChainConfig, OpChainConfigError } from './chain-config.ts'
import { decodeEip1559ExtraData, opNextBaseFee } from './base-fee.ts'
import { L1_BLOCK_SLOTS, l1FeeParamsFromStorage, operatorFeeParamsFromStorage } from './l1-block-storage.ts'

const OPTIMISM = { eip1559Elasticity: 6, eip1559Denominator: 50, eip1559DenominatorCanyon: 250 }

test('an Ethereum genesis has no OP config; an OP genesis names its forks by op-geth\'s keys', () => {
  assert.equal(parseOpChainConfig({ chainId: 1, shanghaiTime: 0 }), undefined)
  const op = parseOpChainConfig({ optimism: OPTIMISM, bedrockBlock: 10, regolithTime: 0, canyonTime: 100, ecotoneTime: 200, fjordTime: 200, isthmusTime: 300, graniteTime: 250, holoceneTime: 260 })!
  assert.equal(opForkAt(op, 9n, 0n), undefined)
  assert.equal(opForkAt(op, 10n, 0n), 'regolith')
  assert.equal(opForkAt(op, 11n, 199n), 'canyon')
  assert.equal(opForkAt(op, 11n, 200n), 'fjord')
  assert.equal(opForkAt(op, 11n, 299n), 'holocene')
  assert.equal(opForkAt(op, 11n, 10_000n), 'isthmus')
  assert.throws(() => parseOpChainConfig({ optimism: OPTIMISM, bedrockBlock: 0, regolithTime: 5, canyonTime: 4 }), OpChainConfigError)
  assert.throws(() => parseOpChainConfig({ optimism: OPTIMISM, bedrockBlock: 0, canyonTime: 4 }), OpChainConfigError)
  assert.throws(() => parseOpChainConfig({ optimism: { eip1559Elasticity: 6, eip1559Denominator: 50 }, bedrockBlock: 0, regolithTime: 0, canyonTime: 0 }), OpChainConfigError)
})

// op-geth params/config_test.go TestCheckOptimismValidity's implied-fork cases (LGPL-3.0; its inputs and verdicts
// as data): Canyon, Ecotone and Isthmus at the times of Shanghai, Cancun and Prague, or both absent.
test('a genesis file\'s OP forks activate the Ethereum forks they imply at the same time (op-geth\'s genesis check)', () => {
  const op = { optimism: OPTIMISM }
  assert.equal(impliedForkTimesError({ ...op, canyonTime: 100, shanghaiTime: 100, cancunTime: 200, ecotoneTime: 200, pragueTime: 300, isthmusTime: 300 }), undefined)
  assert.equal(impliedForkTimesError({ ...op, shanghaiTime: 100, canyonTime: 200 }), 'shanghaiTime (100) must equal canyonTime (200)')
  assert.equal(impliedForkTimesError({ ...op, cancunTime: 200, ecotoneTime: 300 }), 'cancunTime (200) must equal ecotoneTime (300)')
  assert.equal(impliedForkTimesError({ ...op, pragueTime: 300, isthmusTime: 400 }), 'pragueTime (300) must equal isthmusTime (400)')
  assert.equal(impliedForkTimesError({ ...op, canyonTime: 200 }), 'shanghaiTime (absent) must equal canyonTime (200)')
  assert.equal(impliedForkTimesError({ ...op, ecotoneTime: 300 }), 'cancunTime (absent) must equal ecotoneTime (300)')
  assert.equal(impliedForkTimesError({ ...op, isthmusTime: 400 }), 'pragueTime (absent) must equal isthmusTime (400)')
  assert.equal(impliedForkTimesError({ shanghaiTime: 0, cancunTime: 0 }), undefined, 'an Ethereum chain is not asked')
})

test('the base fee with the chain\'s elasticity and denominator, Canyon\'s denominator, Holocene\'s and Jovian\'s extraData', () => {
  const op = parseOpChainConfig({ optimism: OPTIMISM, bedrockBlock: 0, regolithTime: 0, canyonTime: 100, ecotoneTime: 100, fjordTime: 100, graniteTime: 100, holoceneTime: 200, isthmusTime: 200, jovianTime: 300 })!
  const parent = { timestamp: 50n, gasLimit: 30_000_000n, gasUsed: 15_000_000n, baseFee: 1_000_000_000n, extraData: new Uint8Array(0) }
  // target 5M, used 15M: +1e9 × 10M / 5M / 50 = +40_000_000 before Canyon, / 250 = +8_000_000 from Canyon.
  assert.equal(opNextBaseFee(op, parent, 52n), 1_040_000_000n)
  assert.equal(opNextBaseFee(op, parent, 100n), 1_008_000_000n)
  const holocene = Uint8Array.of(0, 0, 0, 0, 10, 0, 0, 0, 2) // denominator 10, elasticity 2: target 15M = used
  assert.equal(opNextBaseFee(op, { ...parent, timestamp: 200n, extraData: holocene }, 202n), 1_000_000_000n)
  assert.equal(opNextBaseFee(op, { ...parent, timestamp: 200n, gasUsed: 0n, extraData: holocene }, 202n), 900_000_000n)
  assert.throws(() => opNextBaseFee(op, { ...parent, timestamp: 200n }, 202n))
  const jovian = Uint8Array.of(1, 0, 0, 0, 10, 0, 0, 0, 2, 0, 0, 0, 0, 0x3b, 0x9a, 0xca, 0x00) // min base fee 1e9
  assert.deepEqual(decodeEip1559ExtraData(jovian, true), { denominator: 10n, elasticity: 2n, minBaseFee: 1_000_000_000n })
  assert.equal(opNextBaseFee(op, { ...parent, timestamp: 300n, gasUsed: 0n, extraData: jovian }, 302n), 1_000_000_000n)
  assert.equal(decodeEip1559ExtraData(holocene, true), undefined)
})

test('the L1 fee parameters from the L1Block slots: Bedrock before Ecotone and in its first block, packed scalars, the operator fee from Isthmus', () => {
  const slots = new Map<bigint, bigint>([
    [L1_BLOCK_SLOTS.l1BaseFee, 7n],
    [L1_BLOCK_SLOTS.overhead, 188n],
    [L1_BLOCK_SLOTS.scalar, 684_000n],
    // baseFeeScalar 2269 at bytes [16,20), blobBaseFeeScalar 1055762 at [20,24), sequence number 3 at [24,32)
    [L1_BLOCK_SLOTS.scalars, (2269n << 96n) | (1_055_762n << 64n) | 3n],
    [L1_BLOCK_SLOTS.l1BlobBaseFee, 9n],
    [L1_BLOCK_SLOTS.operatorFee, (1_500_000n << 64n) | 7_000n],
  ])
  const read = (slot: bigint): bigint => slots.get(slot) ?? 0n
  assert.deepEqual(l1FeeParamsFromStorage('regolith', read), { format: 'bedrock', l1BaseFee: 7n, overhead: 188n, scalar: 684_000n })
  assert.deepEqual(l1FeeParamsFromStorage('fjord', read), { format: 'ecotone', l1BaseFee: 7n, l1BlobBaseFee: 9n, baseFeeScalar: 2269n, blobBaseFeeScalar: 1_055_762n })
  assert.deepEqual(operatorFeeParamsFromStorage('holocene', read), undefined)
  assert.deepEqual(operatorFeeParamsFromStorage('isthmus', read), { scalar: 1_500_000n, constant: 7_000n })
  const firstEcotone = (slot: bigint): bigint => (slot === L1_BLOCK_SLOTS.scalars ? 3n : slot === L1_BLOCK_SLOTS.l1BlobBaseFee ? 0n : read(slot))
  assert.equal(l1FeeParamsFromStorage('ecotone', firstEcotone).format, 'bedrock')
})
