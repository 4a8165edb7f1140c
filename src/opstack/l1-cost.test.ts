import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { OpForkName } from './forks.ts'
import { l1DataFee, operatorFee, rollupCostData, rollupCosts, type EcotoneFeeParams, type L1FeeParams } from './l1-cost.ts'
import { big, bytes, readVectors } from './test-kit.ts'

interface Vectors {
  parameters: Record<'l1BaseFee' | 'overhead' | 'scalar' | 'l1BlobBaseFee' | 'baseFeeScalar' | 'blobBaseFeeScalar' | 'operatorFeeScalar' | 'operatorFeeConstant', string>
  emptyTxRlp: string
  emptyTxWithGasRlp: string
  l1CostOfEmptyTx: { test: string; fork: OpForkName; fee: string; gasUsed: string }[]
  fjordMinimumBounds: { fastLzSizesAtMinimum: number[]; minimumFee: string; minimumGasUsed: string; fastLzSizesAboveMinimum: number[] }
  fjordSolidityParity: { l1BaseFee: string; l1BlobBaseFee: string; baseFeeScalar: string; blobBaseFeeScalar: string; fastLzSize: number; gasUsed: string; fee: string }
  operatorFee: { gas: string; cases: { fork: OpForkName; fee: string }[] }
  totalRollupCost: { cases: { fork: OpForkName; l1Fee: string; operatorFee: string }[] }
}

const vectors = readVectors<Vectors>('op-geth/rollup-cost-vectors.json')
const p = vectors.parameters

const bedrockParams: L1FeeParams = { format: 'bedrock', l1BaseFee: big(p.l1BaseFee), overhead: big(p.overhead), scalar: big(p.scalar) }
const ecotoneParams: EcotoneFeeParams = {
  format: 'ecotone',
  l1BaseFee: big(p.l1BaseFee),
  l1BlobBaseFee: big(p.l1BlobBaseFee),
  baseFeeScalar: big(p.baseFeeScalar),
  blobBaseFeeScalar: big(p.blobBaseFeeScalar),
}
const withOperatorFee: EcotoneFeeParams = {
  ...ecotoneParams,
  operatorFee: { scalar: big(p.operatorFeeScalar), constant: big(p.operatorFeeConstant) },
}
/** op-geth's test hands the Bedrock helper the Bedrock parameters and every later function the Ecotone ones. */
const paramsFor = (fork: OpForkName): L1FeeParams => (fork === 'bedrock' || fork === 'regolith' ? bedrockParams : withOperatorFee)

test("the L1 data fee and L1 gas used of op-geth's emptyTx, per fork", () => {
  const costData = rollupCostData(bytes(vectors.emptyTxRlp))
  assert.equal(vectors.l1CostOfEmptyTx.length, 4)
  for (const c of vectors.l1CostOfEmptyTx) {
    assert.deepEqual(l1DataFee(c.fork, paramsFor(c.fork), costData), { fee: big(c.fee), gasUsed: big(c.gasUsed) }, c.test)
  }
})

test('Fjord charges the minimum size below the regression floor and more above it (TestFjordL1CostFuncMinimumBounds)', () => {
  const bounds = vectors.fjordMinimumBounds
  const minimum = { fee: big(bounds.minimumFee), gasUsed: big(bounds.minimumGasUsed) }
  for (const fastLzLength of bounds.fastLzSizesAtMinimum) {
    assert.deepEqual(l1DataFee('fjord', ecotoneParams, { zeroes: 0, nonZeroes: 0, fastLzLength }), minimum, `size ${fastLzLength}`)
  }
  for (const fastLzLength of bounds.fastLzSizesAboveMinimum) {
    const { fee, gasUsed } = l1DataFee('fjord', ecotoneParams, { zeroes: 0, nonZeroes: 0, fastLzLength })
    assert.ok(fee > minimum.fee && gasUsed > minimum.gasUsed, `size ${fastLzLength}`)
  }
})

test("Fjord's fee matches the GasPriceOracle's Solidity test (TestFjordL1CostSolidityParity)", () => {
  const v = vectors.fjordSolidityParity
  const params: L1FeeParams = {
    format: 'ecotone',
    l1BaseFee: big(v.l1BaseFee),
    l1BlobBaseFee: big(v.l1BlobBaseFee),
    baseFeeScalar: big(v.baseFeeScalar),
    blobBaseFeeScalar: big(v.blobBaseFeeScalar),
  }
  assert.deepEqual(l1DataFee('fjord', params, { zeroes: 0, nonZeroes: 0, fastLzLength: v.fastLzSize }), { fee: big(v.fee), gasUsed: big(v.gasUsed) })
})

test('the operator fee: none before Isthmus, Isthmus divides the scalar by 1e6, Jovian multiplies it by 100 (TestNewOperatorCostFunc)', () => {
  const gas = big(vectors.operatorFee.gas)
  for (const c of vectors.operatorFee.cases) assert.equal(operatorFee(c.fork, withOperatorFee, gas), big(c.fee), c.fork)
})

test('the total rollup cost of emptyTxWithGas across Isthmus and Jovian (TestTotalRollupCostFunc)', () => {
  const tx = bytes(vectors.emptyTxWithGasRlp)
  const gas = big(vectors.operatorFee.gas)
  for (const c of vectors.totalRollupCost.cases) {
    const costs = rollupCosts(c.fork, withOperatorFee, tx, gas)
    assert.equal(costs?.l1Fee, big(c.l1Fee), c.fork)
    assert.equal(costs?.operatorFee, big(c.operatorFee), c.fork)
  }
})

test('deposits (deposits.md: no L1-cost fee) and empty cost data (TestNewL1CostFunc: nil fee) cost nothing; Ecotone parameters are refused before Ecotone', () => {
  assert.equal(rollupCosts('jovian', withOperatorFee, Uint8Array.of(0x7e, 0xc0), 21000n), null)
  assert.equal(rollupCosts('jovian', withOperatorFee, new Uint8Array(0), 21000n), null)
  assert.throws(() => l1DataFee('regolith', ecotoneParams, rollupCostData(bytes(vectors.emptyTxRlp))), /Ecotone-format/)
  // the first Isthmus block still carries Ecotone-format attributes: the operator fee slot is empty and
  // op-geth's NewOperatorCostFunc charges nothing
  assert.equal(operatorFee('isthmus', ecotoneParams, big(vectors.operatorFee.gas)), 0n)
})
