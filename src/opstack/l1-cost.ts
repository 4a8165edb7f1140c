/**
 * The fees an OP Stack chain charges a transaction beyond L2 gas, per fork, exactly as op-geth computes them
 * (core/types/rollup_cost.go): the L1 data fee with the "L1 gas used" op-geth reports beside it in receipts,
 * and the operator fee. bigint throughout; every division truncates, as big.Int's does.
 *
 * Owns: the formulas and the counts they read from a transaction's bytes (zero bytes, non-zero bytes, FastLZ
 * length). It never reads state or calldata (the L1 parameters come in as values: l1-attributes.ts reads them
 * from the L1-info deposit's calldata; the node, later, from the L1Block predeploy's storage), never charges
 * anyone, and never looks at deposits (they pay neither fee: `rollupCosts` answers null for them).
 *
 * Per fork:
 * - Bedrock: gas = 4·zeroes + 16·(nonZeroes + 68) + overhead; fee = gas · l1BaseFee · scalar / 1e6.
 * - Regolith: the same without the 68 bytes of signature padding. Receipts report gas (overhead included).
 * - Ecotone: calldataGas = 4·zeroes + 16·nonZeroes; fee = calldataGas · (16·l1BaseFee·baseFeeScalar +
 *   l1BlobBaseFee·blobBaseFeeScalar) / 16e6. Receipts report calldataGas.
 * - Fjord: size = max(100e6, -42.5856e6 + 836500·fastLzLength) (bytes · 1e6); fee = size ·
 *   (16·l1BaseFee·baseFeeScalar + l1BlobBaseFee·blobBaseFeeScalar) / 1e12. Receipts report size·16/1e6.
 * - Isthmus: operator fee = gas · operatorFeeScalar / 1e6 + operatorFeeConstant.
 * - Jovian: operator fee = gas · operatorFeeScalar · 100 + operatorFeeConstant.
 * The first block of Ecotone still carries Bedrock-format L1 attributes: the Bedrock formula (with Regolith's
 * rule) applies to it, which `params.format === 'bedrock'` selects.
 */

import { DEPOSIT_TX_TYPE } from './deposit-tx.ts'
import { fastLzCompressedLength } from './fastlz.ts'
import { opForkActive, type OpForkName } from './forks.ts'

/** What a transaction's bytes contribute to its L1 data fee. */
export interface RollupCostData {
  readonly zeroes: number
  readonly nonZeroes: number
  readonly fastLzLength: number
}

/** The L1 fee parameters of Bedrock-format L1 attributes (Bedrock, Regolith, and the first Ecotone block). */
export interface BedrockFeeParams {
  readonly format: 'bedrock'
  readonly l1BaseFee: bigint
  readonly overhead: bigint
  readonly scalar: bigint
}

/** The operator fee parameters (Isthmus-format L1 attributes and later). */
export interface OperatorFeeParams {
  readonly scalar: bigint
  readonly constant: bigint
}

/** The L1 fee parameters of Ecotone-format L1 attributes and every later format. */
export interface EcotoneFeeParams {
  readonly format: 'ecotone'
  readonly l1BaseFee: bigint
  readonly l1BlobBaseFee: bigint
  readonly baseFeeScalar: bigint
  readonly blobBaseFeeScalar: bigint
  /** Absent before Isthmus-format attributes (the first Isthmus block included): no operator fee. */
  readonly operatorFee?: OperatorFeeParams
}

export type L1FeeParams = BedrockFeeParams | EcotoneFeeParams

export interface L1DataFee {
  readonly fee: bigint
  /** The `l1GasUsed` op-geth puts in the receipt for this fork. */
  readonly gasUsed: bigint
}

export interface RollupCosts {
  readonly l1Fee: bigint
  readonly l1GasUsed: bigint
  readonly operatorFee: bigint
}

const ZERO_BYTE_GAS = 4n
const NON_ZERO_BYTE_GAS = 16n
const BEDROCK_SIGNATURE_PADDING = 68n
const SCALAR_DIVISOR = 1_000_000n
const ECOTONE_DIVISOR = 16n * SCALAR_DIVISOR
const FJORD_DIVISOR = 1_000_000_000_000n
const FJORD_INTERCEPT = -42_585_600n
const FJORD_FASTLZ_COEFFICIENT = 836_500n
/** The smallest size Fjord charges for, in bytes (op-geth's MinTransactionSize). */
export const FJORD_MIN_TRANSACTION_SIZE = 100n
const FJORD_MIN_SIZE_SCALED = FJORD_MIN_TRANSACTION_SIZE * SCALAR_DIVISOR
const JOVIAN_OPERATOR_SCALAR_MULTIPLIER = 100n

/** Counts a transaction's bytes (its canonical encoding, typed envelope included). */
export function rollupCostData(transactionBytes: Uint8Array): RollupCostData {
  let zeroes = 0
  for (let i = 0; i < transactionBytes.length; i++) if (transactionBytes[i] === 0) zeroes++
  return { zeroes, nonZeroes: transactionBytes.length - zeroes, fastLzLength: fastLzCompressedLength(transactionBytes) }
}

const calldataGas = (data: RollupCostData): bigint =>
  BigInt(data.zeroes) * ZERO_BYTE_GAS + BigInt(data.nonZeroes) * NON_ZERO_BYTE_GAS

/** Fjord's estimate of a transaction's size in an L1 batch, scaled by 1e6, never below the minimum. */
function estimatedSizeScaled(data: RollupCostData): bigint {
  const estimate = FJORD_INTERCEPT + FJORD_FASTLZ_COEFFICIENT * BigInt(data.fastLzLength)
  return estimate < FJORD_MIN_SIZE_SCALED ? FJORD_MIN_SIZE_SCALED : estimate
}

/** Fjord's estimate of a transaction's size in an L1 batch, in bytes (Jovian's DA footprint reads it). */
export function estimatedDASize(data: RollupCostData): bigint {
  return estimatedSizeScaled(data) / SCALAR_DIVISOR
}

function bedrockFee(params: BedrockFeeParams, data: RollupCostData, regolith: boolean): L1DataFee {
  const padding = regolith ? 0n : BEDROCK_SIGNATURE_PADDING * NON_ZERO_BYTE_GAS
  const gasUsed = calldataGas(data) + padding + params.overhead
  return { fee: (gasUsed * params.l1BaseFee * params.scalar) / SCALAR_DIVISOR, gasUsed }
}

const scaledL1FeePerByte = (params: EcotoneFeeParams): bigint =>
  NON_ZERO_BYTE_GAS * params.l1BaseFee * params.baseFeeScalar + params.l1BlobBaseFee * params.blobBaseFeeScalar

function ecotoneFee(params: EcotoneFeeParams, data: RollupCostData): L1DataFee {
  const gasUsed = calldataGas(data)
  return { fee: (gasUsed * scaledL1FeePerByte(params)) / ECOTONE_DIVISOR, gasUsed }
}

function fjordFee(params: EcotoneFeeParams, data: RollupCostData): L1DataFee {
  const size = estimatedSizeScaled(data)
  return { fee: (size * scaledL1FeePerByte(params)) / FJORD_DIVISOR, gasUsed: (size * NON_ZERO_BYTE_GAS) / SCALAR_DIVISOR }
}

/**
 * The L1 data fee of a transaction with these counts on a chain running `fork`, and the L1 gas used its
 * receipt reports. Throws when Ecotone-format parameters meet a fork before Ecotone (op-geth cannot read them
 * there either).
 */
export function l1DataFee(fork: OpForkName, params: L1FeeParams, data: RollupCostData): L1DataFee {
  if (params.format === 'bedrock') return bedrockFee(params, data, opForkActive(fork, 'regolith'))
  if (!opForkActive(fork, 'ecotone')) throw new Error(`Ecotone-format L1 fee parameters on a ${fork} chain`)
  return opForkActive(fork, 'fjord') ? fjordFee(params, data) : ecotoneFee(params, data)
}

/**
 * The operator fee for `gas` (the gas used when charging; the gas limit when a pool bounds the cost): zero
 * before Isthmus and whenever the parameters carry none.
 */
export function operatorFee(fork: OpForkName, params: L1FeeParams, gas: bigint): bigint {
  return params.format === 'ecotone' ? operatorFeeOf(fork, params.operatorFee, gas) : 0n
}

/** The same from the operator fee parameters alone (the executor reads them apart from the L1 ones). */
export function operatorFeeOf(fork: OpForkName, params: OperatorFeeParams | undefined, gas: bigint): bigint {
  if (!opForkActive(fork, 'isthmus') || params === undefined) return 0n
  if (opForkActive(fork, 'jovian')) return gas * params.scalar * JOVIAN_OPERATOR_SCALAR_MULTIPLIER + params.constant
  return (gas * params.scalar) / SCALAR_DIVISOR + params.constant
}

/**
 * Everything a transaction owes beyond L2 gas: its L1 data fee, the L1 gas used its receipt reports, and the
 * operator fee for `gas`. Null for a deposit (type 0x7e) and for empty bytes: op-geth charges neither.
 */
export function rollupCosts(fork: OpForkName, params: L1FeeParams, transactionBytes: Uint8Array, gas: bigint): RollupCosts | null {
  if (transactionBytes.length === 0 || transactionBytes[0] === DEPOSIT_TX_TYPE) return null
  const { fee, gasUsed } = l1DataFee(fork, params, rollupCostData(transactionBytes))
  return { l1Fee: fee, l1GasUsed: gasUsed, operatorFee: operatorFee(fork, params, gas) }
}
