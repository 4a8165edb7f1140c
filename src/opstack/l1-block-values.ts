/**
 * What the L1Block predeploy holds after a block's L1-attributes deposit, read back whole: the origin
 * (number, timestamp, sequence number) and every value the next block's L1-attributes call sets again.
 *
 * Owns: the offsets of the packed words beyond the fee slots l1-block-storage.ts reads (the same layout:
 * the monorepo's storageLayout/L1Block.json): slot 0 number u64 at the low end, timestamp u64 above it;
 * slot 3 sequenceNumber u64, blobBaseFeeScalar u32, baseFeeScalar u32 from the low end; slot 4 the batcher
 * hash; slot 8 operatorFeeConstant u64, operatorFeeScalar u32, daFootprintGasScalar u16 from the low end. A
 * sequencer carries the values forward with these when nothing overrides them; it never reads state itself.
 */

import { bigIntToFixedBytes } from '../primitives/hex.ts'
import type { StoredOrigin } from './dev-l1-origin.ts'
import type { L1FeeValues } from './l1-info-deposit.ts'
import type { L1BlockSlotReader } from './l1-block-storage.ts'

const U16 = 0xffffn
const U32 = 0xffff_ffffn
const U64 = 0xffff_ffff_ffff_ffffn

export interface L1BlockValues {
  readonly origin: StoredOrigin
  readonly fees: L1FeeValues
}

export function l1BlockValues(read: L1BlockSlotReader): L1BlockValues {
  const originWord = read(0n)
  const scalars = read(3n)
  const operator = read(8n)
  return {
    origin: { number: originWord & U64, timestamp: (originWord >> 64n) & U64, sequenceNumber: scalars & U64 },
    fees: {
      l1BaseFee: read(1n),
      l1BlobBaseFee: read(7n),
      baseFeeScalar: (scalars >> 96n) & U32,
      blobBaseFeeScalar: (scalars >> 64n) & U32,
      operatorFeeConstant: operator & U64,
      operatorFeeScalar: (operator >> 64n) & U32,
      daFootprintGasScalar: (operator >> 96n) & U16,
      batcherHash: bigIntToFixedBytes(read(4n), 32),
    },
  }
}
