/**
 * Where the user deposits waiting for a block are kept (op-opening.ts asks; it never keeps them itself):
 * the port between the OP opening and its two keepers. A single node keeps them in its own store
 * (deposit-queue.ts: a deposit leaves the queue in the write that journals the opening that includes it); a
 * sequencer group's leader keeps them in a replicated bucket on the group's brokers
 * (stream/replicated-deposits.ts), so that a successor finds every deposit whose hash was answered.
 *
 * A keeper's promise: `keep` resolves only once the deposit is kept where the next sequencer of the chain
 * will find it (the node's disk, or a quorum of brokers), and rejects otherwise (the caller then answers an
 * error, never the hash). `taken` is called in the write that journals the opening including the first
 * deposits; `acknowledged` once that opening is in the chain's record (a group's replicated stream) or, on a
 * single node, right after the write. It never builds deposits nor decides which block takes them.
 */

import type { WriteBatch } from '../storage/db.ts'

export interface KeptDeposit {
  /** The L2 block it was sent for (its source hash is made from it and `logIndex`). */
  readonly forBlock: bigint
  /** Its log index: unique among the deposits sent for `forBlock` (a group leader's from term · 2^32). */
  readonly logIndex: bigint
  /** The deposit's envelope (0x7e ‖ RLP). */
  readonly envelope: Uint8Array
}

export interface DepositKeeping {
  /** The deposits waiting, in the order they were kept. */
  readonly waiting: readonly KeptDeposit[]
  /**
   * Keeps a new deposit for `forBlock`: `build` makes its envelope for a log index the keeper chose (unique
   * for `forBlock` among every deposit ever kept for it); resolves with what was kept.
   */
  keep(forBlock: bigint, build: (logIndex: bigint) => Uint8Array): Promise<KeptDeposit>
  /** The first `count` waiting deposits were included in the opening journaled by `batch`: they wait no more. */
  taken(batch: WriteBatch, count: number): void
  /** The opening that took them is acknowledged (in the chain's record): a keeper may forget them for good. */
  acknowledged(): void
}

/** A deposit could not be kept (a group leader's brokers without quorum): its hash was not answered. */
export class DepositNotKept extends Error {
  override readonly name = 'DepositNotKept'
  constructor(
    /** The hash the deposit would have had (it may still be included, when a write without answer was stored). */
    readonly hash: Uint8Array,
    options: ErrorOptions,
  ) {
    super(`the deposit could not be kept, so it is not queued (no hash answered): ${options.cause instanceof Error ? options.cause.message : String(options.cause)}`, options)
  }
}
