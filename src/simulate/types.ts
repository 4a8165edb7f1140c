/**
 * eth_simulateV1's values: the parsed payload the facade receives, the simulated blocks it returns, and the
 * settings that bound one simulation.
 *
 * The payload is already typed (bigint, Uint8Array) by rpc/params; nothing here is JSON. A simulated block is
 * the plain BlockView of a built block plus one result per call; its transactions carry their senders (the
 * calls are unsigned, so a sender cannot be recovered from them). Call errors carry their JSON-RPC code
 * already chosen (the revert code is a setting), so the formatter only prints.
 */

import type { BlockOverrides, CallRequest } from '../execution/requests.ts'
import type { AccountOverride } from '../state/account-overrides.ts'
import type { BlockView, LogView, WithdrawalView } from '../chain/types.ts'

/** A call of a simulated block: eth_call's call object (geth's TransactionArgs). */
export interface SimCall extends CallRequest {
  /**
   * Set when both `gasPrice` and an EIP-1559 fee were given: geth accepts the object and refuses the call
   * only when it reaches it (after the blocks before it ran), with -32000.
   */
  readonly conflictingFees?: true
}

/** eth_simulateV1's block overrides: eth_call's, plus difficulty, beaconRoot and withdrawals. */
export interface SimBlockOverrides extends BlockOverrides {
  readonly difficulty?: bigint
  readonly beaconRoot?: Uint8Array
  readonly withdrawals?: readonly WithdrawalView[]
}

export interface SimBlockInput {
  readonly blockOverrides?: SimBlockOverrides
  /** Keys are lower-case 0x-hex addresses. */
  readonly stateOverrides?: ReadonlyMap<string, AccountOverride>
  readonly calls: readonly SimCall[]
}

export interface SimulatePayload {
  readonly blockStateCalls: readonly SimBlockInput[]
  readonly traceTransfers: boolean
  readonly validation: boolean
  readonly returnFullTransactions: boolean
}

/** A log of a call result, with its place in the simulated block. */
export interface SimLog {
  readonly log: LogView
  readonly logIndex: number
}

export interface SimCallError {
  /** 3 (or the configured revert code) for a revert, -32015 for another VM error. */
  readonly code: number
  readonly message: string
  /** Revert data; absent for VM errors. */
  readonly data?: Uint8Array
}

export interface SimCallResult {
  readonly status: 0 | 1
  readonly gasUsed: bigint
  /** Gas used before refunds (and at least the EIP-7623 floor). */
  readonly maxUsedGas: bigint
  readonly returnData: Uint8Array
  /** The call's logs in execution order, ETH transfer logs included when traced; empty on failure. */
  readonly logs: readonly SimLog[]
  readonly error?: SimCallError
}

export interface SimulatedBlock {
  /** The built block; its transactions carry their senders as `from`. */
  readonly block: BlockView
  readonly calls: readonly SimCallResult[]
}

export interface SimulateSettings {
  readonly maxBlocks: number
  readonly maxCallsPerBlock: number
  readonly maxCalls: number
  /** One gas budget shared by every call of a request (geth: the RPC gas cap). */
  readonly gasBudget: bigint
  /** One wall-clock limit for the whole request. */
  readonly timeoutMs: number
  /** Compute real state roots (and so real block hashes). The contract says 32 zero bytes. */
  readonly computeStateRoot: boolean
  /** The code of a reverted call's `error`: the contract's -32000 by default, geth's 3 as a setting. */
  readonly revertCode: number
}

export const DEFAULT_SIMULATE_SETTINGS: SimulateSettings = {
  maxBlocks: 256,
  maxCallsPerBlock: 5_000,
  maxCalls: 10_000,
  gasBudget: 50_000_000n,
  timeoutMs: 5_000,
  computeStateRoot: false,
  revertCode: -32000,
}
