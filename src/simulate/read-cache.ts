/**
 * Memoizes reads of the base state for the length of one simulation. The base (a sealed block's archive
 * state, or a published pre-confirmed snapshot) never changes, and a simulation reads the same accounts
 * and slots again and again (every call of a bundle, every block of a chain), each read otherwise a
 * database lookup. Accounts are handed out as fresh copies, as StateReader promises.
 */

import type { Account } from '@ethereumjs/util'
import { bytesToHex } from '../primitives/hex.ts'
import { copyAccount } from '../state/overlay-reader.ts'
import type { StateReader } from '../state/state-reader.ts'

export class CachedReader implements StateReader {
  private readonly accounts = new Map<string, Account | undefined>()
  private readonly slots = new Map<string, Uint8Array>()
  private readonly codes = new Map<string, Uint8Array>()

  constructor(private readonly base: StateReader) {}

  getAccount(address: Uint8Array): Account | undefined {
    const key = bytesToHex(address)
    let account: Account | undefined
    if (this.accounts.has(key)) {
      account = this.accounts.get(key)
    } else {
      account = this.base.getAccount(address)
      this.accounts.set(key, account === undefined ? undefined : copyAccount(account))
    }
    return account === undefined ? undefined : copyAccount(account)
  }

  getStorage(address: Uint8Array, slot: Uint8Array): Uint8Array {
    const key = bytesToHex(address) + bytesToHex(slot).slice(2)
    let value = this.slots.get(key)
    if (value === undefined) {
      value = this.base.getStorage(address, slot)
      this.slots.set(key, value)
    }
    return value
  }

  getCode(codeHash: Uint8Array): Uint8Array {
    const key = bytesToHex(codeHash)
    let code = this.codes.get(key)
    if (code === undefined) {
      code = this.base.getCode(codeHash)
      this.codes.set(key, code)
    }
    return code
  }
}
