/**
 * The host of a transaction whose observer follows state reads (observer.ts `state`, the prestate tracer):
 * TransactionHost with the reads an opcode makes by address reported first. It owns nothing else: every
 * read and write is TransactionHost's. executeTransaction picks it once per transaction and only when the
 * observer asks, so the ordinary host's methods stay as they are.
 */

import { TransactionHost } from './frames.ts'
import type { StateReadObserver } from './observer.ts'
import type { ExecutionContext } from './types.ts'
import type { WorldState } from './world-state.ts'

export class StateObservingHost extends TransactionHost {
  constructor(
    world: WorldState,
    ctx: ExecutionContext,
    private readonly reads: StateReadObserver,
  ) {
    super(world, ctx)
  }

  override balance(address: bigint): bigint {
    this.reads.account(address)
    return super.balance(address)
  }

  override code(address: bigint): Uint8Array {
    this.reads.account(address)
    return super.code(address)
  }

  override codeHash(address: bigint): bigint {
    this.reads.account(address)
    return super.codeHash(address)
  }

  override sload(address: bigint, slot: bigint): bigint {
    this.reads.slot(address, slot)
    return super.sload(address, slot)
  }

  override sstore(address: bigint, slot: bigint, value: bigint): void {
    this.reads.slot(address, slot)
    super.sstore(address, slot, value)
  }
}
