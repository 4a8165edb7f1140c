/**
 * Jovian's DA footprint (specs protocol/jovian/exec-engine.md, "DA Footprint Block Limit"; op-geth PR #694
 * "Store DA footprint in blob gas used header field"): each non-deposit transaction's estimated compressed
 * size (Fjord's estimate, l1-cost.ts estimatedDASize) times the block's DA footprint gas scalar. A Jovian
 * block's header carries the sum in `blobGasUsed`, which must stay within the block's gas limit, and the next
 * block's base fee meters max(gasUsed, blobGasUsed) (base-fee.ts).
 *
 * Owns: the per-transaction formula, where the scalar is read (L1Block's slot 8, bytes [18, 20) counted from
 * the word's high end: l1-block-storage.ts daFootprintGasScalar) and the scalar the L1-attributes deposit
 * carries when the system config's is 0 (400: jovian/l1-attributes.md). It never accumulates a block's total
 * or refuses a transaction (execution/block-execution.ts does), and never looks at deposits (they have none).
 */

import { estimatedDASize, rollupCostData, type RollupCostData } from './l1-cost.ts'
import { L1_BLOCK_PACKED, readPacked, type L1BlockSlotReader } from './l1-block-storage.ts'

/** The scalar the L1-attributes deposit sets when the system config's is 0 (jovian/l1-attributes.md). */
export const DEFAULT_DA_FOOTPRINT_GAS_SCALAR = 400n

/** The DA footprint gas scalar L1Block holds (0 until a Jovian-layout L1-attributes deposit set it). */
export function daFootprintGasScalarFromStorage(read: L1BlockSlotReader): bigint {
  return readPacked(read, L1_BLOCK_PACKED.daFootprintGasScalar)
}

/** The scalar a Jovian-layout L1-attributes deposit carries for a system-config value (0: the default). */
export function effectiveDAFootprintGasScalar(configured: bigint): bigint {
  return configured === 0n ? DEFAULT_DA_FOOTPRINT_GAS_SCALAR : configured
}

/** The DA footprint of a non-deposit transaction with these canonical bytes under `scalar`. */
export function transactionDAFootprint(transactionBytes: Uint8Array, scalar: bigint): bigint {
  return daFootprintOf(rollupCostData(transactionBytes), scalar)
}

/** The same from the transaction's counted bytes (l1-cost.ts rollupCostData), when the caller has them. */
export function daFootprintOf(costData: RollupCostData, scalar: bigint): bigint {
  return estimatedDASize(costData) * scalar
}
