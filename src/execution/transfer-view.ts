/**
 * A would-be plain transfer as admission sees it (TransferTx): the few values the block builder needs to run
 * it on our EVM without building its library object (block-builder.ts runs one from this view when it has
 * no data and no access list, its recipient has no code, and the view was made under the block's fork).
 */

import type { TypedTransaction } from '@ethereumjs/tx'
import { getCalldataFloorGas } from '@ethereumjs/tx'
import type { Address } from '@ethereumjs/util'

/** What the builder reads of a transfer. */
export interface TransferTx {
  /** The hardfork whose rules computed `intrinsicGas` and `floorDataGas`. */
  readonly fork: string
  readonly type: number
  readonly to: Address | undefined
  readonly nonce: bigint
  readonly value: bigint
  readonly gasLimit: bigint
  /** maxFeePerGas, or gasPrice. */
  readonly feeCap: bigint
  /** maxPriorityFeePerGas, or gasPrice. */
  readonly tipCap: bigint
  readonly intrinsicGas: bigint
  /** The EIP-7623 calldata floor (getCalldataFloorGas; 0 where the fork has none). */
  readonly floorDataGas: bigint
}

/** The TransferTx of a library transaction sent by `caller`; undefined when it cannot be a plain transfer. */
export function transferOf(tx: TypedTransaction, caller: Address): TransferTx | undefined {
  if (tx.to === undefined || tx.type > 2) return undefined
  const t = tx as TypedTransaction & { gasPrice?: bigint; maxFeePerGas?: bigint; maxPriorityFeePerGas?: bigint }
  return {
    fork: tx.common.hardfork(),
    type: tx.type,
    to: tx.to,
    nonce: tx.nonce,
    value: tx.value,
    gasLimit: tx.gasLimit,
    feeCap: t.maxFeePerGas ?? t.gasPrice!,
    tipCap: t.maxPriorityFeePerGas ?? t.gasPrice!,
    intrinsicGas: tx.getIntrinsicGas(),
    floorDataGas: getCalldataFloorGas(tx, caller),
  }
}
