/**
 * The library BlockBuilder's bookkeeping that its own addTransaction maintains (fields it declares private).
 * Our builders run transactions themselves (block-builder.ts for the sequencer, simulate/sim-block.ts for
 * eth_simulateV1) and keep these fields in step, so the library's build() (header gas, bloom, roots, miner
 * value) sees what it expects. This is the one place that names them.
 */

import type { BlockBuilder, RunTxResult } from '@ethereumjs/vm'
import type { TypedTransaction } from '@ethereumjs/tx'

export interface BuilderInternals {
  transactions: TypedTransaction[]
  transactionResults: RunTxResult[]
  gasUsed: bigint
  blobGasUsed: bigint
  _minerValue: bigint
  checkpointed: boolean
  vm: { evm: { journal: { checkpoint(): Promise<void> } } }
}

export function internalsOf(builder: BlockBuilder): BuilderInternals {
  return builder as unknown as BuilderInternals
}

/** The checkpoint the library's first addTransaction opens (build() commits it, revert() reverts it). */
export async function openCheckpointOnce(builder: BlockBuilder): Promise<void> {
  const self = internalsOf(builder)
  if (self.checkpointed) return
  await self.vm.evm.journal.checkpoint()
  self.checkpointed = true
}

/** Counts a transaction's run into the block, as the library's addTransaction does. */
export function countResult(builder: BlockBuilder, result: RunTxResult, blobGas: bigint): void {
  const self = internalsOf(builder)
  self.transactionResults.push(result)
  self.gasUsed += result.blockGasSpent
  self.blobGasUsed += blobGas
  self._minerValue += result.minerValue
}
