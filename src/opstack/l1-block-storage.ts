/**
 * The L1Block predeploy's storage: its layout, and what the node reads from it: the L1 fee parameters during
 * execution, after the block's deposits ran (op-geth core/types/rollup_cost.go NewL1CostFunc and
 * NewOperatorCostFunc read the same slots; l1-attributes.ts reads calldata, for receipts), and every value the
 * next block's L1-attributes call sets again (a sequencer carries them forward). The dev genesis writes the
 * same layout (dev-genesis.ts).
 *
 * The layout (optimism monorepo, packages/contracts-bedrock/snapshots/storageLayout/L1Block.json, and op-geth's
 * slot constants): slot 0 the origin's number u64 and timestamp u64 above it; slot 1 the L1 base fee; slot 2
 * the origin's hash; slot 3 sequenceNumber u64, blobBaseFeeScalar u32, baseFeeScalar u32 from the low end;
 * slot 4 the batcher hash; slots 5 and 6 Bedrock's fee overhead and scalar; slot 7 the L1 blob base fee (from
 * Ecotone); slot 8 operatorFeeConstant u64, operatorFeeScalar u32, daFootprintGasScalar u16 from the low end
 * (from Isthmus; the last from Jovian).
 *
 * Owns: the slots and offsets, and which formula's parameters they give per fork: before Ecotone the Bedrock
 * ones; from Ecotone the Ecotone ones, except while the Ecotone fields are still all zero (the first Ecotone
 * block, whose deposit still set the Bedrock values: op-geth then uses the Bedrock function); the operator
 * fee from Isthmus when slot 8 is non-zero, whatever the other slots hold. It never computes a fee (l1-cost.ts)
 * and never reads state itself: the caller passes a reader of the predeploy's slots.
 */

import { opForkActive, type OpForkName } from './forks.ts'
import { L1_BLOCK_ADDRESS as L1_BLOCK_PREDEPLOY } from './predeploy-addresses.ts'
import { bigIntToFixedBytes } from '../primitives/hex.ts'
import type { StoredOrigin } from './dev-l1-origin.ts'
import type { L1FeeValues } from './l1-info-deposit.ts'
import type { L1FeeParams, OperatorFeeParams } from './l1-cost.ts'

/** The L1Block predeploy. */
export const L1_BLOCK_ADDRESS = BigInt(L1_BLOCK_PREDEPLOY)

/** The slots: whole words, and the three that pack several fields (L1_BLOCK_PACKED). */
export const L1_BLOCK_SLOTS = {
  origin: 0n,
  l1BaseFee: 1n,
  hash: 2n,
  scalars: 3n,
  batcherHash: 4n,
  overhead: 5n,
  scalar: 6n,
  l1BlobBaseFee: 7n,
  operatorFee: 8n,
} as const

/** A field packed into a slot: its slot, its offset from the word's low end and its width, in bits. */
export interface PackedField {
  readonly slot: bigint
  readonly shift: bigint
  readonly bits: bigint
}

/** The packed fields. */
export const L1_BLOCK_PACKED = {
  number: { slot: L1_BLOCK_SLOTS.origin, shift: 0n, bits: 64n },
  timestamp: { slot: L1_BLOCK_SLOTS.origin, shift: 64n, bits: 64n },
  sequenceNumber: { slot: L1_BLOCK_SLOTS.scalars, shift: 0n, bits: 64n },
  blobBaseFeeScalar: { slot: L1_BLOCK_SLOTS.scalars, shift: 64n, bits: 32n },
  baseFeeScalar: { slot: L1_BLOCK_SLOTS.scalars, shift: 96n, bits: 32n },
  operatorFeeConstant: { slot: L1_BLOCK_SLOTS.operatorFee, shift: 0n, bits: 64n },
  operatorFeeScalar: { slot: L1_BLOCK_SLOTS.operatorFee, shift: 64n, bits: 32n },
  daFootprintGasScalar: { slot: L1_BLOCK_SLOTS.operatorFee, shift: 96n, bits: 16n },
} as const satisfies Record<string, PackedField>

/** A slot of the L1Block predeploy's storage, as a word (0n when unset). */
export type L1BlockSlotReader = (slot: bigint) => bigint

/** A packed field's value, read from its slot. */
export const readPacked = (read: L1BlockSlotReader, field: PackedField): bigint => (read(field.slot) >> field.shift) & ((1n << field.bits) - 1n)

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
  const baseFeeScalar = readPacked(read, L1_BLOCK_PACKED.baseFeeScalar)
  const blobBaseFeeScalar = readPacked(read, L1_BLOCK_PACKED.blobBaseFeeScalar)
  const l1BlobBaseFee = read(L1_BLOCK_SLOTS.l1BlobBaseFee)
  if (l1BlobBaseFee === 0n && baseFeeScalar === 0n && blobBaseFeeScalar === 0n) return bedrock()
  return { format: 'ecotone', l1BaseFee: read(L1_BLOCK_SLOTS.l1BaseFee), l1BlobBaseFee, baseFeeScalar, blobBaseFeeScalar }
}

/** The operator fee parameters from Isthmus (slot 8), or undefined before Isthmus and while the slot is zero. */
export function operatorFeeParamsFromStorage(fork: OpForkName, read: L1BlockSlotReader): OperatorFeeParams | undefined {
  if (!opForkActive(fork, 'isthmus')) return undefined
  if (read(L1_BLOCK_SLOTS.operatorFee) === 0n) return undefined
  return { scalar: readPacked(read, L1_BLOCK_PACKED.operatorFeeScalar), constant: readPacked(read, L1_BLOCK_PACKED.operatorFeeConstant) }
}

/** What the L1Block predeploy holds after a block's L1-attributes deposit, read back whole. */
export interface L1BlockValues {
  readonly origin: StoredOrigin
  readonly fees: L1FeeValues
}

export function l1BlockValues(read: L1BlockSlotReader): L1BlockValues {
  const packed = (name: keyof typeof L1_BLOCK_PACKED): bigint => readPacked(read, L1_BLOCK_PACKED[name])
  return {
    origin: { number: packed('number'), timestamp: packed('timestamp'), sequenceNumber: packed('sequenceNumber') },
    fees: {
      l1BaseFee: read(L1_BLOCK_SLOTS.l1BaseFee),
      l1BlobBaseFee: read(L1_BLOCK_SLOTS.l1BlobBaseFee),
      baseFeeScalar: packed('baseFeeScalar'),
      blobBaseFeeScalar: packed('blobBaseFeeScalar'),
      operatorFeeConstant: packed('operatorFeeConstant'),
      operatorFeeScalar: packed('operatorFeeScalar'),
      daFootprintGasScalar: packed('daFootprintGasScalar'),
      batcherHash: bigIntToFixedBytes(read(L1_BLOCK_SLOTS.batcherHash), 32),
      l1FeeOverhead: read(L1_BLOCK_SLOTS.overhead),
      l1FeeScalar: read(L1_BLOCK_SLOTS.scalar),
    },
  }
}
