/**
 * What a caller asks execution to run: a transaction call object (eth_call, eth_estimateGas,
 * eth_createAccessList, each call of eth_simulateV1) and block-level overrides. Typed values, already parsed
 * at the edge (rpc/params); the facade (node/api.ts) re-exports them for rpc/.
 */

import type { AccessListEntry, AuthorizationView } from '../chain/types.ts'

/** A transaction call object after parsing (eth_call, eth_estimateGas, eth_createAccessList). */
export interface CallRequest {
  readonly from?: Uint8Array
  readonly to?: Uint8Array | null
  readonly gas?: bigint
  readonly gasPrice?: bigint
  readonly maxFeePerGas?: bigint
  readonly maxPriorityFeePerGas?: bigint
  readonly maxFeePerBlobGas?: bigint
  readonly value?: bigint
  readonly data?: Uint8Array
  readonly nonce?: bigint
  readonly chainId?: bigint
  readonly type?: number
  readonly accessList?: readonly AccessListEntry[]
  readonly blobVersionedHashes?: readonly Uint8Array[]
  readonly authorizationList?: readonly AuthorizationView[]
}

/** Block-level overrides accepted by eth_call (fourth parameter). */
export interface BlockOverrides {
  readonly number?: bigint
  readonly time?: bigint
  readonly gasLimit?: bigint
  readonly feeRecipient?: Uint8Array
  readonly prevRandao?: Uint8Array
  readonly baseFeePerGas?: bigint
  readonly blobBaseFee?: bigint
}
