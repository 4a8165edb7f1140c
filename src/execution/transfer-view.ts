/**
 * A would-be plain transfer as admission sees it (TransferTx): the few values the block builder needs to run
 * it on our EVM without building its library object (block-builder.ts runs one from this view when it has
 * no data and no access list, its recipient has no code, and the view was made under the block's fork).
 */

import type { Address } from '@ethereumjs/util'

/** What the builder reads of a transfer. */
export interface TransferTx {
  /** The hardfork whose rules computed `intrinsicGas`. */
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
}
