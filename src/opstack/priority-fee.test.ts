/**
 * op-geth's OP priority fee rule (priority-fee.ts) on op-geth's own cases: eth/gasprice/optimism-gasprice_test.go
 * TestSuggestOptimismPriorityFee (op-geth, LGPL-3.0; its inputs and expected answers as data): a block of gas
 * limit 3 × 21,000, a minimum of 1e8 wei, transactions given by tip and gas used.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { OP_MAX_SUGGESTED_PRICE, OP_MIN_SUGGESTED_PRIORITY_FEE, opSuggestedPriorityFee } from './priority-fee.ts'

const GWEI = 1_000_000_000n
const GAS_LIMIT = 3n * 21_000n
const MIN = 100_000_000n

const block = (txs: readonly (readonly [tip: bigint, gas: bigint])[]) => ({
  gasLimit: GAS_LIMIT,
  gasUsed: txs.reduce((sum, [, gas]) => sum + gas, 0n),
  txGasUsed: txs.map(([, gas]) => gas),
  tips: txs.map(([tip]) => tip),
})

test("op-geth's cases: the minimum under capacity, the median tip + 10% when the block was full", () => {
  assert.equal(opSuggestedPriorityFee(block([[GWEI, 21_000n]]), MIN), MIN, 'well under capacity')
  assert.equal(opSuggestedPriorityFee(block([[GWEI, 21_000n], [GWEI, 21_000n]]), MIN), MIN, 'two transactions, still under capacity')
  assert.equal(opSuggestedPriorityFee(block([[GWEI, 21_000n], [GWEI, 21_001n]]), MIN), 1_100_000_000n, 'one gas over capacity: 10% over the 1 gwei median')
  assert.equal(opSuggestedPriorityFee(block([[10n * GWEI, 21_000n], [GWEI, 21_000n], [100n * GWEI, 21_000n]]), MIN), 11n * GWEI, 'full: 10% over the 10 gwei median')
})

test('the edges: a median under the minimum, the 500 gwei cap, a transaction over the gas limit, the defaults', () => {
  assert.equal(opSuggestedPriorityFee(block([[0n, 21_000n], [1n, 42_000n]]), MIN), MIN, 'a full block of tiny tips keeps the minimum')
  assert.equal(opSuggestedPriorityFee(block([[1_000n * GWEI, 21_000n], [1_000n * GWEI, 42_000n]]), MIN), OP_MAX_SUGGESTED_PRICE)
  assert.equal(opSuggestedPriorityFee({ gasLimit: GAS_LIMIT, gasUsed: GAS_LIMIT, txGasUsed: [GAS_LIMIT + 1n], tips: [GWEI] }, MIN), MIN)
  assert.equal(OP_MIN_SUGGESTED_PRIORITY_FEE, 1_000_000n, "op-geth's default --gpo.minsuggestedpriorityfee, 0.001 gwei")
  assert.equal(opSuggestedPriorityFee(block([])), OP_MIN_SUGGESTED_PRIORITY_FEE)
})
