/**
 * The L1 fee parameters as the node reads them during execution: from the L1Block predeploy's storage after
 * the block's deposits ran (op-geth core/types/rollup_cost.go NewL1CostFunc/NewOperatorCostFunc read the
 * same slots), not from calldata (l1-attributes.ts reads calldata, for receipts).
 *
 * The L1Block contract's storage layout (optimism monorepo, packages/contracts-bedrock/snapshots/
 * storageLayout/L1Block.json, and op-geth's slot constants):
 * - slot 1: the L1 base fee (uint256);
 * - slot 3: sequenceNumber u64 at bytes [24,32), blobBaseFeeScalar u32 at [20,24), baseFeeScalar u32 at [16,20);
 * - slot 5: the Bedrock fee overhead; slot 6: the Bedrock fee scalar;
 * - slot 7: the L1 blob base fee (from Ecotone);
 * - slot 8: operatorFeeScalar u32 at bytes [20,24), operatorFeeConstant u64 at [24,32) (from Isthmus).
 *
 * Owns: the slots and offsets, and which formula's parameters they give per fork: before Ecotone the Bedrock
 * ones; from Ecotone the Ecotone ones, except while the Ecotone fields are still all zero (the first Ecotone
 * block, whose deposit still set the Bedrock values: op-geth then uses the Bedrock function); the operator
 * fee from Isthmus when slot 8 is non-zero, whatever the other slots hold. It never computes a fee (l1-cost.ts) and never reads state
 * itself: the caller passes a reader of the predeploy's slots.
 */

import { opForkActive, type OpForkName } from './forks.ts'
import { L1_BLOCK_ADDRESS as L1_BLOCK_PREDEPLOY } from './predeploy-addresses.ts'
import type { L1FeeParams, OperatorFeeParams } from './l1-cost.ts'

/** The L1Block predeploy. */
export const L1_BLOCK_ADDRESS = BigInt(L1_BLOCK_PREDEPLOY)

export const L1_BLOCK_SLOTS = {
  l1BaseFee: 1n,
  scalars: 3n,
  overhead: 5n,
  scalar: 6n,
  l1BlobBaseFee: 7n,
  operatorFee: 8n,
} as const

const U32 = 0xffff_ffffn
const U64 = 0xffff_ffff_ffff_ffffn

/** A slot of the L1Block predeploy's storage, as a word (0n when unset). */
export type L1BlockSlotReader = (slot: bigint) => bigint

/**
 * The L1 data fee parameters a block of `fork` charges with, read from the L1Block storage (without the
 * operator fee: `operatorFeeParamsFromStorage` reads it, on its own as op-geth does).
 */
export function l1FeeParamsFromStorage(fork: OpForkName, read: L1BlockSlotReader): L1FeeParams {
  const bedrock = (): L1FeeParams => ({
    format: 'bedrock',
    l1BaseFee: read(L1_BLOCK_SLOTS.l1BaseFee),
    overhead: read(L1_BLOCK_SLOTS.overhead),
    scalar: read(L1_BLOCK_SLOTS.scalar),
  })
  if (!opForkActive(fork, 'ecotone')) return bedrock()
  const scalars = read(L1_BLOCK_SLOTS.scalars)
  const baseFeeScalar = (scalars >> 96n) & U32
  const blobBaseFeeScalar = (scalars >> 64n) & U32
  const l1BlobBaseFee = read(L1_BLOCK_SLOTS.l1BlobBaseFee)
  if (l1BlobBaseFee === 0n && baseFeeScalar === 0n && blobBaseFeeScalar === 0n) return bedrock()
  return { format: 'ecotone', l1BaseFee: read(L1_BLOCK_SLOTS.l1BaseFee), l1BlobBaseFee, baseFeeScalar, blobBaseFeeScalar }
}

/** The operator fee parameters from Isthmus (slot 8), or undefined before Isthmus and while the slot is zero. */
export function operatorFeeParamsFromStorage(fork: OpForkName, read: L1BlockSlotReader): OperatorFeeParams | undefined {
  if (!opForkActive(fork, 'isthmus')) return undefined
  const word = read(L1_BLOCK_SLOTS.operatorFee)
  return word === 0n ? undefined : { scalar: (word >> 64n) & U32, constant: word & U64 }
}
