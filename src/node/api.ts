/**
 * The facade that rpc/ sees: everything a JSON-RPC handler may ask of the node.
 *
 * Inputs are typed values (bigint, Uint8Array, BlockId), already parsed at the edge; outputs are the plain
 * views of chain/types.ts. Block ids resolve inside the node, in one place. A method that names a block that
 * does not exist answers `null` where geth does (blocks, receipts) and throws `notFound` where geth errors
 * (state reads at an unknown block: `header not found`).
 */

import type { DepositRequest } from '../sequencer/block-opening.ts'
import type { BlockId } from '../primitives/block-id.ts'
import type {
  AccessListEntry,
  BlockContext,
  BlockView,
  HeaderView,
  ReceiptView,
  TransactionView,
} from '../chain/types.ts'
import type { SimulatedBlock, SimulatePayload } from '../simulate/types.ts'
import type { BlockOverrides, CallRequest } from '../execution/requests.ts'
import type { StateOverrides } from '../state/account-overrides.ts'
import type { LocatedLog, LogCriteria } from '../chain/logs.ts'
import type { StateProofs } from './state-proofs.ts'
import type { TraceApi } from './trace-service.ts'

/** The request types belong to the layers that run them; rpc/ finds them here with the rest of the facade. */
export type { BlockOverrides, CallRequest } from '../execution/requests.ts'
export type { AccountOverride, StateOverrides } from '../state/account-overrides.ts'
export type { LocatedLog } from '../chain/logs.ts'
export type { AccountProof, SlotProof, StateProofs } from './state-proofs.ts'
export type { TraceApi, TraceSpec, TracedTransaction } from './trace-service.ts'

export interface AccessListResult {
  readonly accessList: readonly AccessListEntry[]
  readonly gasUsed: bigint
  /** Set when the call failed; geth still returns the list. */
  readonly error?: string
}

/** eth_getLogs' filter: a block range (or one block by hash) and what a log must match (chain/logs.ts). */
export interface LogFilter extends LogCriteria {
  readonly fromBlock?: BlockId
  readonly toBlock?: BlockId
  readonly blockHash?: Uint8Array
}

/** A transaction and where it sits; `placement` is null for one that is only in the pool. */
export interface LocatedTransaction {
  readonly tx: TransactionView
  readonly placement: { readonly context: BlockContext; readonly index: number } | null
}

export interface LocatedReceipt {
  readonly receipt: ReceiptView
  readonly context: BlockContext
}

export interface FeeHistory {
  readonly oldestBlock: bigint
  readonly baseFeePerGas: readonly bigint[]
  readonly gasUsedRatio: readonly number[]
  readonly baseFeePerBlobGas: readonly bigint[]
  readonly blobGasUsedRatio: readonly number[]
  readonly reward?: readonly (readonly bigint[])[]
}

/** eth_syncing: false, or (a follower behind its sequencer) where it started, stands and is heading. */
export type SyncStatus =
  | { readonly syncing: false }
  | { readonly syncing: true; readonly startingBlock: bigint; readonly currentBlock: bigint; readonly highestBlock: bigint }

/**
 * A pre-confirmed flashblock as subscribers see it: the accumulated pending block and what it added. Only
 * `index` and `hashes` are made up front; `block`, `transactions` and `logs` are built on first read, once
 * for all subscribers (a subscriber of hashes costs no views).
 */
export interface FlashblockEvent {
  readonly block: BlockView
  readonly index: number
  /** Hashes of the transactions this flashblock added, in order. */
  readonly hashes: readonly Uint8Array[]
  /** Transactions this flashblock added, in order, each with its receipt. */
  readonly transactions: readonly { readonly tx: LocatedTransaction; readonly receipt: LocatedReceipt }[]
  /** Logs of those transactions, in order. */
  readonly logs: readonly LocatedLog[]
}

/** A sealed block as subscribers see it; `logs` are read from the chain on first use (once for all subscribers). */
export interface SealedBlockEvent {
  readonly header: HeaderView
  readonly logs: readonly LocatedLog[]
}

/** A transaction that entered the pool's pending (executable) set, as geth's newPendingTransactions sees it. */
export interface PendingTransactionEvent {
  readonly hash: Uint8Array
  /** The transaction as a pool transaction (no block); built on first use, once for all subscribers. */
  transaction(): TransactionView
}

export interface NodeListener {
  flashblock?(event: FlashblockEvent): void
  block?(event: SealedBlockEvent): void
  /** A transaction became executable in the pool: admitted as such, or promoted when its nonce gap closed. */
  pendingTransaction?(event: PendingTransactionEvent): void
}

export type TransactionStatus = 'Known' | 'Unknown'

export interface NodeApi {
  readonly chainId: bigint
  readonly networkId: bigint
  readonly clientVersion: string

  blockNumber(): bigint
  syncing(): SyncStatus

  // State reads. Throw notFound (`header not found`) when the block does not exist.
  getBalance(address: Uint8Array, block: BlockId): Promise<bigint>
  getTransactionCount(address: Uint8Array, block: BlockId): Promise<bigint>
  getCode(address: Uint8Array, block: BlockId): Promise<Uint8Array>
  /** `slot` is 32 bytes; the result is 32 bytes. */
  getStorageAt(address: Uint8Array, slot: Uint8Array, block: BlockId): Promise<Uint8Array>
  /**
   * eth_getProof, as a port of its own (node/state-proofs.ts). A family of methods that needs more than a
   * member or two of its own comes as such a port, so that this facade stops growing and a test fakes one
   * family alone.
   */
  readonly proofs: StateProofs
  /** The debug_trace* methods, as a port of their own (node/trace-service.ts). */
  readonly traces: TraceApi

  // Execution.
  call(request: CallRequest, block: BlockId, state?: StateOverrides, blockOverrides?: BlockOverrides): Promise<Uint8Array>
  estimateGas(request: CallRequest, block: BlockId, state?: StateOverrides): Promise<bigint>
  createAccessList(request: CallRequest, block: BlockId): Promise<AccessListResult>
  /** eth_simulateV1 on top of `block` (pending: the pre-confirmed state). Facades with pre-confirmations only. */
  simulateV1(payload: SimulatePayload, block: BlockId): Promise<SimulatedBlock[]>
  /** The same simulation's JSON-RPC result as text (format/simulate.ts), formatted where it ran. */
  simulateV1Json(payload: SimulatePayload, block: BlockId): Promise<string>

  // Blocks, transactions, receipts, logs. Unknown block / tx answers null.
  getBlock(block: BlockId): Promise<BlockView | null>
  /** A sealed block's RLP encoding (the pending block has none until it is sealed). */
  rawBlock(block: BlockId): Promise<Uint8Array | null>
  /**
   * One block's receipts in order, all with the same context. For a pre-confirmed block (context.preconfirmed) the list is frozen and the same object for the same snapshot, so callers may memoize on it.
   */
  getBlockReceipts(block: BlockId): Promise<readonly LocatedReceipt[] | null>
  getTransactionByHash(hash: Uint8Array): Promise<LocatedTransaction | null>
  getTransactionByBlockAndIndex(block: BlockId, index: number): Promise<LocatedTransaction | null>
  getTransactionReceipt(hash: Uint8Array): Promise<LocatedReceipt | null>
  getLogs(filter: LogFilter): Promise<LocatedLog[]>

  // Fees.
  gasPrice(): Promise<bigint>
  maxPriorityFeePerGas(): Promise<bigint>
  blobBaseFee(): Promise<bigint>
  feeHistory(blockCount: number, newest: BlockId, rewardPercentiles?: readonly number[]): Promise<FeeHistory>

  // Write path and pre-confirmations. A node that does not sequence answers methodNotFound.
  /**
   * True when `pending` is the pre-confirmed state. False on a read-only node, and on the facade of a
   * sequencing node that serves sealed state only (it still accepts transactions).
   */
  readonly preconfirmations: boolean
  /** Admits a signed transaction into the pool; resolves to its hash once it is stored durably. */
  sendRawTransaction(raw: Uint8Array): Promise<Uint8Array>
  /** EIP-7966: admits, then waits (at most timeoutMs) for its receipt: pre-confirmed, or sealed without pre-confirmations. */
  sendRawTransactionSync(raw: Uint8Array, timeoutMs?: number, signal?: AbortSignal): Promise<LocatedReceipt>
  /** Known = in the pool, pre-confirmed or sealed. */
  transactionStatus(hash: Uint8Array): Promise<TransactionStatus>
  /** Development: pre-confirms what the pool holds and seals the block now. */
  mine(): Promise<void>
  /** Development: pre-confirms what the pool holds in a new flashblock, without sealing. */
  flashblock(): Promise<void>
  /**
   * Development, OP Stack chains: queues a user deposit for the next block (after its L1-attributes deposit,
   * before its other transactions); resolves to the deposit's hash.
   */
  sendDeposit(request: DepositRequest): Promise<Uint8Array>
  /** Subscribes to flashblocks (facades with pre-confirmations) and sealed blocks; returns the unsubscribe function. */
  subscribe(listener: NodeListener): () => void
}
