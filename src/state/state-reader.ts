/**
 * Read-only state at one point of the chain: the base that execution overlays write on top of.
 *
 * Reads are synchronous (the embedded database answers in microseconds) and return fresh objects, so a
 * caller may mutate what it got. Storage values are minimal big-endian bytes (empty = zero); slots are
 * 32 bytes. Implementations: the archive at a sealed block (archive-reader.ts) and an overlay of changes on
 * top of another reader (overlay-reader.ts), which is what a pre-confirmed snapshot is.
 */

import type { Account } from '@ethereumjs/util'
import { bigIntToFixedBytes, bytesToBigInt } from '../primitives/hex.ts'

export interface StateReader {
  getAccount(address: Uint8Array): Account | undefined
  getStorage(address: Uint8Array, slot: Uint8Array): Uint8Array
  getCode(codeHash: Uint8Array): Uint8Array
  /**
   * The value getStorage gives, as a word, by bigint address and slot: for readers that can answer without
   * converting to bytes and back (the archive's word cache, state/word-cache.ts). Left out by the others;
   * the EVM's WorldState then reads getStorage.
   */
  storageWord?(address: bigint, slot: bigint): bigint
  /**
   * The account getAccount gives, by bigint address, with its code hash as a bigint; null when absent. Shared
   * between callers, so never to be mutated. Left out by the readers that cannot answer from such a cache.
   */
  accountWord?(address: bigint): AccountWord | null
}

/** An account as the word caches keep it (state/word-cache.ts). */
export interface AccountWord {
  readonly account: Account
  readonly codeHash: bigint
}

/** An account as a word (shared from then on: never mutated). */
export function accountWordOf(account: Account | undefined): AccountWord | null {
  return account === undefined ? null : { account, codeHash: bytesToBigInt(account.codeHash) }
}

/** `reader`'s storage word through its byte read (for readers without a word read, and word caches' misses). */
export function storageWordFromBytes(reader: StateReader, address: bigint, slot: bigint): bigint {
  return bytesToBigInt(reader.getStorage(bigIntToFixedBytes(address, 20), bigIntToFixedBytes(slot, 32)))
}

/** `reader`'s account word through its byte read. */
export function accountWordFromBytes(reader: StateReader, address: bigint): AccountWord | null {
  return accountWordOf(reader.getAccount(bigIntToFixedBytes(address, 20)))
}

/** A storage word from `reader`: its word read when it has one, else its byte read. */
export function readStorageWord(reader: StateReader, address: bigint, slot: bigint): bigint {
  return reader.storageWord !== undefined ? reader.storageWord(address, slot) : storageWordFromBytes(reader, address, slot)
}

/** An account word from `reader`: its word read when it has one, else its byte read. */
export function readAccountWord(reader: StateReader, address: bigint): AccountWord | null {
  return reader.accountWord !== undefined ? reader.accountWord(address) : accountWordFromBytes(reader, address)
}
