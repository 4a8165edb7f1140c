/**
 * Reusable VMs for calls. Building a VM costs more than a simple call (opcode tables, precompiles: ~0.6 ms
 * and much garbage), so idle VMs are kept per (fork, block-hash source) and lent out one call at a time.
 * Each VM runs on a StateForwarder that forwards to the JournaledState of the call it is lent to; the
 * library's own per-transaction journal is reset by runTx at the start of every transaction.
 */

import type { Common } from '@ethereumjs/common'
import { StateForwarder } from './state-forwarder.ts'
import { createVM, type VM } from '@ethereumjs/vm'
import type { JournaledState } from '../state/journaled-state.ts'
import type { BlockHashSource } from './block-hashes.ts'


interface Pooled {
  readonly vm: VM
  readonly state: StateForwarder<JournaledState>
}

const MAX_IDLE_PER_KEY = 8

export class VmPool {
  private readonly idle = new Map<Common, Map<BlockHashSource, Pooled[]>>()

  /** Runs `fn` with a VM for `common` whose state is `state`. */
  async with<T>(common: Common, blockHashes: BlockHashSource, state: JournaledState, fn: (vm: VM) => Promise<T>): Promise<T> {
    let bySource = this.idle.get(common)
    if (bySource === undefined) {
      bySource = new Map()
      this.idle.set(common, bySource)
    }
    let list = bySource.get(blockHashes)
    if (list === undefined) {
      list = []
      bySource.set(blockHashes, list)
    }
    let pooled = list.pop()
    if (pooled === undefined) {
      const switchable = new StateForwarder<JournaledState>()
      switchable.current = state
      // A private copy of the Common: the library's EVM subscribes to its Common's events and is never
      // unsubscribed, so a VM built on the shared fork Common could never be collected.
      pooled = { vm: await createVM({ common: common.copy(), stateManager: switchable, blockchain: blockHashes }), state: switchable }
    }
    pooled.state.current = state
    try {
      return await fn(pooled.vm)
    } finally {
      if (list.length < MAX_IDLE_PER_KEY) list.push(pooled)
    }
  }
}
