/**
 * A reader that sees a diff on top of another reader: the state of a pre-confirmed snapshot, or of a
 * simulated block, without copying the base.
 *
 * Word reads (storageWord, accountWord: state-reader.ts) of an address the diff does not touch go to the
 * base's word reads, so a pending read of an unchanged contract costs what a read at the sealed parent does;
 * an address the diff touches reads through the diff's hex keys. Which addresses it touches is worked out
 * once per diff and thread (a diff is immutable once published: state-diff.ts).
 */

import { Account } from '@ethereumjs/util'
import { bytesToHex } from '../primitives/hex.ts'
import { touchedAddresses, type StateDiff } from './state-diff.ts'
import { accountWordFromBytes, storageWordFromBytes, type AccountWord, type StateReader } from './state-reader.ts'

/** The addresses each diff touches (state-diff.ts: touchedAddresses), as bigints. */
const touchedByDiff = new WeakMap<StateDiff, ReadonlySet<bigint>>()

function touchedWords(diff: StateDiff): ReadonlySet<bigint> {
  let touched = touchedByDiff.get(diff)
  if (touched === undefined) touchedByDiff.set(diff, (touched = new Set([...touchedAddresses(diff)].map((key) => BigInt(key)))))
  return touched
}

const EMPTY = new Uint8Array(0)

/** A fresh copy (the library constructor is marked deprecated only in favour of slower factories). */
export const copyAccount = (a: Account): Account => new Account(a.nonce, a.balance, a.storageRoot, a.codeHash)

export class OverlayReader implements StateReader {
  private touched: ReadonlySet<bigint> | undefined

  constructor(
    private readonly base: StateReader,
    private readonly diff: StateDiff,
  ) {}

  storageWord(address: bigint, slot: bigint): bigint {
    const base = this.base
    if (!this.touches(address) && base.storageWord !== undefined) return base.storageWord(address, slot)
    return storageWordFromBytes(this, address, slot)
  }

  accountWord(address: bigint): AccountWord | null {
    const base = this.base
    if (!this.touches(address) && base.accountWord !== undefined) return base.accountWord(address)
    return accountWordFromBytes(this, address)
  }

  private touches(address: bigint): boolean {
    return (this.touched ??= touchedWords(this.diff)).has(address)
  }

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
