/**
 * A reader that sees a diff on top of another reader: the state of a pre-confirmed snapshot, or of a
 * simulated block, without copying the base.
 */

import { Account } from '@ethereumjs/util'
import { bytesToHex } from '../primitives/hex.ts'
import type { StateDiff } from './state-diff.ts'
import type { StateReader } from './state-reader.ts'

const EMPTY = new Uint8Array(0)

/** A fresh copy (the library constructor is marked deprecated only in favour of slower factories). */
export const copyAccount = (a: Account): Account => new Account(a.nonce, a.balance, a.storageRoot, a.codeHash)

export class OverlayReader implements StateReader {
  constructor(
    private readonly base: StateReader,
    private readonly diff: StateDiff,
  ) {}

  getAccount(address: Uint8Array): Account | undefined {
    // The diff maps an address to an account or to null (deleted), never to undefined.
    const a = this.diff.accounts.get(bytesToHex(address))
    if (a === undefined) return this.base.getAccount(address)
    return a === null ? undefined : copyAccount(a)
  }

  getStorage(address: Uint8Array, slot: Uint8Array): Uint8Array {
    const key = bytesToHex(address)
    const value = this.diff.storage.get(key)?.get(bytesToHex(slot))
    if (value !== undefined) return value
    if (this.diff.wiped.has(key)) return EMPTY
    return this.base.getStorage(address, slot)
  }

  getCode(codeHash: Uint8Array): Uint8Array {
    return this.diff.codes.get(bytesToHex(codeHash)) ?? this.base.getCode(codeHash)
  }
}
