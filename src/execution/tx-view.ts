/**
 * A pooled transaction of type 0, 1 or 2 as admission decoded it (TxView): what the block builder needs to
 * run it on our EVM, receipt included, without building its library object (block-builder.ts). The call
 * data is read in place from the transaction's bytes. Plain data, no fork figures: the EVM charges by the
 * block's own rules, so a view made under another fork runs the same.
 * Never: a view of a blob or set-code transaction (their inputs stay the library object's: evm-env.ts).
 */

import type { AccessListEntry } from '../evm/types.ts'

export interface TxView {
  readonly type: number
  /** The recipient (20 bytes); undefined for a contract creation. */
  readonly to: Uint8Array | undefined
  readonly nonce: bigint
  readonly value: bigint
  readonly gasLimit: bigint
  /** maxFeePerGas, or gasPrice. */
  readonly feeCap: bigint
  /** maxPriorityFeePerGas, or gasPrice. */
  readonly tipCap: bigint
  /** The transaction's canonical encoding (its bytes as received). */
  readonly raw: Uint8Array
  /** Where the call data starts in `raw`; `dataLength` bytes. */
  readonly dataOffset: number
  readonly dataLength: number
  /** Types 1 and 2: the access list; undefined when empty. */
  readonly accessList: readonly AccessListEntry[] | undefined
}
