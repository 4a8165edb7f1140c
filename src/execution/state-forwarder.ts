/**
 * A state manager that forwards every call to the state currently plugged in: it lets one VM (whose EVM
 * holds on to its state manager) be reused for many calls or blocks, each on its own state.
 */

import type { AccountFields, StateManagerInterface } from '@ethereumjs/common'
import type { Account, Address } from '@ethereumjs/util'

export class StateForwarder<S extends StateManagerInterface> implements StateManagerInterface {
  current!: S

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
  setStateRoot(root: Uint8Array, clearCache?: boolean): Promise<void> {
    return this.current.setStateRoot(root, clearCache)
  }
  hasStateRoot(root: Uint8Array): Promise<boolean> {
    return this.current.hasStateRoot(root)
  }
  clearCaches(): void {}
  shallowCopy(): StateManagerInterface {
    return this.current.shallowCopy()
  }
}
