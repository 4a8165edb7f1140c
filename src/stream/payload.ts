/**
 * The flashblock stream's message, as JSON: Base's `FlashblocksPayloadV1` (payload_id, index, base at index 0
 * only, diff, metadata) with the metadata Base publishes (block_number, new_account_balances, receipts) and
 * what a follower needs to apply a flashblock without executing it (sequence numbers, the full state diff).
 * docs/stream.md documents every field; this file is its type (its schema: readers parse into it; the
 * sequencer writes the text field by field in this order, message-text.ts). Numbers follow Base's serde: `index`,
 * `metadata.block_number` and the sequence numbers are JSON numbers; gas, block number, gas limit, timestamp,
 * base fee, balances and nonces are 0x-quantities; hashes, addresses and bytes are 0x-hex.
 */

import type { Hex } from '../primitives/hex.ts'

/** The block's environment, fixed when it opens (index 0 only). */
export interface ExecutionPayloadBaseV1 {
  readonly parent_beacon_block_root: Hex
  readonly parent_hash: Hex
  readonly fee_recipient: Hex
  readonly prev_randao: Hex
  readonly block_number: Hex
  readonly gas_limit: Hex
  readonly timestamp: Hex
  readonly extra_data: Hex
  readonly base_fee_per_gas: Hex
}

/** What the flashblock changed of the payload. Roots and hash are zero except in a block's closing message. */
export interface ExecutionPayloadFlashblockDeltaV1 {
  readonly state_root: Hex
  readonly receipts_root: Hex
  readonly logs_bloom: Hex
  /** Cumulative over the block so far. */
  readonly gas_used: Hex
  readonly block_hash: Hex
  /** This flashblock's new transactions only, EIP-2718 encoded, in block order. */
  readonly transactions: readonly Hex[]
  readonly withdrawals: readonly never[]
  readonly withdrawals_root: Hex
  /** Cumulative; present from Cancun on. */
  readonly blob_gas_used?: Hex
}

/** A receipt as Base publishes it (internally tagged by `type`), plus what a follower would else re-derive. */
export interface StreamReceipt {
  readonly type: Hex
  readonly status: Hex
  readonly cumulativeGasUsed: Hex
  readonly logs: readonly { readonly address: Hex; readonly topics: readonly Hex[]; readonly data: Hex }[]
  readonly from: Hex
  readonly gasUsed: Hex
  readonly effectiveGasPrice: Hex
  readonly contractAddress: Hex | null
  readonly blobGasUsed?: Hex
  readonly blobGasPrice?: Hex
  /** An OP Stack deposit's (type 0x7e) nonce, from Regolith, and receipt version, from Canyon (as Base's Deposit receipts name them). */
  readonly depositNonce?: Hex
  readonly depositReceiptVersion?: Hex
}

/** An account after the flashblock: null = deleted. */
export interface StreamAccount {
  readonly balance: Hex
  readonly nonce: Hex
  readonly code_hash: Hex
}

/** The state the flashblock changed, applied on top of the previous message's state of the same block. */
export interface StreamStateDiff {
  readonly accounts: Readonly<Record<Hex, StreamAccount | null>>
  /** Address -> slot (32 bytes) -> value (32 bytes). */
  readonly storage: Readonly<Record<Hex, Readonly<Record<Hex, Hex>>>>
  /** Addresses whose whole storage was cleared before the slots listed for them were written. */
  readonly storage_cleared: readonly Hex[]
  /** New code by its hash. */
  readonly codes: Readonly<Record<Hex, Hex>>
}

export interface StreamMetadata {
  readonly block_number: number
  /** One more than the previous message's, across blocks. */
  readonly sequence: number
  /** The previous message's sequence; null for the first message since the node started. */
  readonly previous_sequence: number | null
  readonly new_account_balances: Readonly<Record<Hex, Hex>>
  /** Receipts of this flashblock's new transactions, by transaction hash. */
  readonly receipts: Readonly<Record<Hex, StreamReceipt>>
  readonly state_diff: StreamStateDiff
  /**
   * The closing message only: the sealed header, RLP-encoded. A follower checks every field it can compute
   * itself (roots, bloom, gas, parent) against it and its hash against `diff.block_hash`, and takes the rest
   * (excess blob gas, the EIP-7685 requests hash) from it.
   */
  readonly sealed_header?: Hex
}

export interface FlashblocksPayloadV1 {
  readonly payload_id: Hex
  readonly index: number
  readonly base?: ExecutionPayloadBaseV1
  readonly diff: ExecutionPayloadFlashblockDeltaV1
  readonly metadata: StreamMetadata
}
