import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { FeeHistory } from '../../node/api.ts'
import { formatFeeHistory } from './fee-history.ts'

const history: FeeHistory = {
  oldestBlock: 0x30n,
  baseFeePerGas: [10n, 11n, 12n],
  gasUsedRatio: [0.5, 0.25],
  baseFeePerBlobGas: [1n, 1n, 1n],
  blobGasUsedRatio: [0, 0.5],
}

test('without percentiles there is no reward field', () => {
  const out = formatFeeHistory(history)
  assert.deepEqual(Object.keys(out).sort(), ['baseFeePerBlobGas', 'baseFeePerGas', 'blobGasUsedRatio', 'gasUsedRatio', 'oldestBlock'])
  assert.equal(out.oldestBlock, '0x30')
  assert.deepEqual(out.baseFeePerGas, ['0xa', '0xb', '0xc'])
  assert.deepEqual(out.gasUsedRatio, [0.5, 0.25])
})

test('with percentiles, rewards are quantities per block', () => {
  const out = formatFeeHistory({ ...history, reward: [[1n, 2n], [3n, 0n]] })
  assert.deepEqual(out.reward, [['0x1', '0x2'], ['0x3', '0x0']])
})

test('an empty range prints as geth prints its nil slices', () => {
  const out = formatFeeHistory({ oldestBlock: 0n, baseFeePerGas: [], gasUsedRatio: [], baseFeePerBlobGas: [], blobGasUsedRatio: [], reward: [] })
  assert.deepEqual(out, { oldestBlock: '0x0', gasUsedRatio: null })
})
