/**
 * What a chain's own rules add when the sequencer opens a block, beyond Ethereum's system calls: on an OP
 * Stack chain (op-opening.ts) the coinbase and extraData the chain requires and the deposits that lead the
 * block (the L1-attributes deposit, then user deposits). An Ethereum chain has none: the sequencer then
 * takes its settings' coinbase and extraData and adds nothing, at no cost per flashblock.
 */

import type { BlockHeader } from '@ethereumjs/block'
import type { WriteBatch } from '../storage/db.ts'
import type { DepositKeeping } from './deposit-keeping.ts'

/** A user deposit asked for through the development method (no L1: the node makes its source hash). */
export interface DepositRequest {
  /** 20 bytes */
  readonly from: Uint8Array
  /** 20 bytes, or null for a contract creation */
  readonly to: Uint8Array | null
  readonly mint: bigint
  readonly value: bigint
  readonly gas: bigint
  readonly data: Uint8Array
}

export interface BlockOpening {
  /** The coinbase and extraData of the block opened after `parent` at `timestamp` (the sequencer settings' are not used). */
  environment(parent: BlockHeader, timestamp: bigint): { readonly coinbase: Uint8Array; readonly extraData: Uint8Array }
  /**
   * The deposits (envelope bytes) that open the block after `parent` at `timestamp`, in order: the
   * L1-attributes deposit, then the user deposits waiting, oldest first, then a fork's network-upgrade
   * deposits in its first block.
   */
  deposits(parent: BlockHeader, timestamp: bigint): Uint8Array[]
  /** True when the block after `parent` at `timestamp` takes no pool transaction (an OP fork's first block: op-node's noTxPool). */
  depositsOnly(parent: BlockHeader, timestamp: bigint): boolean
  /**
   * The first `count` deposits `deposits` gave were included: the user deposits among them leave the queue,
   * deleted in `batch` (the write that journals the block's opening with them).
   */
  included(batch: WriteBatch, count: number): void
  /** Keeps the user deposits with `keeping` from now on (a group leader's replicated keeper), before the start. */
  useKeeping(keeping: DepositKeeping): void
  /** The opening whose write `included` joined is acknowledged (a group's stream stored it; or no gate). */
  acknowledged(): void
  /**
   * Queues a user deposit for the block after the open block `openNumber` (or a later one, when that block
   * has no gas left for it), kept (durably, or replicated) before it resolves; answers its transaction hash.
   * Rejects for a deposit no block could hold, or one that could not be kept (deposit-keeping.ts).
   */
  queue(request: DepositRequest, openNumber: bigint, gasLimit: bigint): Promise<Uint8Array>
}
