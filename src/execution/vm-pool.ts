/**
 * Reusable VMs for calls. Building a VM costs more than a simple call (opcode tables, precompiles: ~0.6 ms
 * and much garbage), so idle VMs are kept per (fork, block-hash source) and lent out one call at a time.
 * Each VM runs on a SwitchableState that forwards to the JournaledState of the call it is lent to; the
 * library's own per-transaction journal is reset by runTx at the start of every transaction.
 */

import type { AccountFields, Common, StateManagerInterface } from '@ethereumjs/common'
import type { Account, Address } from '@ethereumjs/util'
import { createVM, type VM } from '@ethereumjs/vm'
import type { JournaledState } from '../state/journaled-state.ts'
import type { BlockHashSource } from './block-hashes.ts'

/** A state manager that forwards every call to the state currently plugged in. */
class SwitchableState implements StateManagerInterface {
  current!: JournaledState

  get originalStorageCache() {
    return this.current.originalStorageCache
  }
  getAccount(a: Address): Promise<Account | undefined> {
    return this.current.getAccount(a)
  }
  putAccount(a: Address, account?: Account): Promise<void> {
    return this.current.putAccount(a, account)
  }
  deleteAccount(a: Address): Promise<void> {
    return this.current.deleteAccount(a)
  }
  modifyAccountFields(a: Address, f: AccountFields): Promise<void> {
    return this.current.modifyAccountFields(a, f)
  }
  putCode(a: Address, code: Uint8Array): Promise<void> {
    return this.current.putCode(a, code)
  }
  getCode(a: Address): Promise<Uint8Array> {
    return this.current.getCode(a)
  }
  getCodeSize(a: Address): Promise<number> {
    return this.current.getCodeSize(a)
  }
  getStorage(a: Address, key: Uint8Array): Promise<Uint8Array> {
    return this.current.getStorage(a, key)
  }
  putStorage(a: Address, key: Uint8Array, value: Uint8Array): Promise<void> {
    return this.current.putStorage(a, key, value)
  }
  clearStorage(a: Address): Promise<void> {
    return this.current.clearStorage(a)
  }
  checkpoint(): Promise<void> {
    return this.current.checkpoint()
  }
  commit(): Promise<void> {
    return this.current.commit()
  }
  revert(): Promise<void> {
    return this.current.revert()
  }
  getStateRoot(): Promise<Uint8Array> {
    return this.current.getStateRoot()
  }
  setStateRoot(): Promise<void> {
    return this.current.setStateRoot()
  }
  hasStateRoot(): Promise<boolean> {
    return this.current.hasStateRoot()
  }
  clearCaches(): void {}
  shallowCopy(): StateManagerInterface {
    return this.current.shallowCopy()
  }
}

interface Pooled {
  readonly vm: VM
  readonly state: SwitchableState
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
      const switchable = new SwitchableState()
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
