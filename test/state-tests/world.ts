/**
 * A whole Ethereum state as plain data (every account with its code and storage), for tests that must see
 * all of it: a state test's pre-state and post-state, the library oracle's input and output, the
 * differential test's random worlds.
 *
 * Invariants: addresses and slots are bigints (as inside src/evm/); a storage map never holds a zero value
 * (a zero slot is an absent slot); an account present in the map exists (possibly empty).
 *
 * It offers the three views the tests need: a StateReader over it (the base our WorldState runs on), the
 * result of applying a StateDiff to it (what our EVM produced), and its state root (a Merkle-Patricia trie
 * built in one pass over the sorted hashed keys; trie-root.ts).
 */

import { Account, KECCAK256_NULL } from '@ethereumjs/util'
import type { StateReader } from '../../src/state/state-reader.ts'
import type { StateDiff } from '../../src/state/state-diff.ts'
import { keccak256 } from '../../src/primitives/keccak.ts'
import { bigIntToFixedBytes, bigIntToMinimalBytes, bytesToBigInt, bytesToHex } from '../../src/primitives/hex.ts'
import { encodeRlp } from '../../src/primitives/rlp-encode.ts'
import { EMPTY_TRIE_ROOT, trieRoot, type TrieEntry } from './trie-root.ts'

export interface AccountState {
  readonly nonce: bigint
  readonly balance: bigint
  readonly code: Uint8Array
  /** Non-zero slots only. */
  readonly storage: ReadonlyMap<bigint, bigint>
}

/** Every account of a state, by address. */
export type WorldSnapshot = ReadonlyMap<bigint, AccountState>

const EMPTY_CODE = new Uint8Array(0)
const NO_STORAGE: ReadonlyMap<bigint, bigint> = new Map()

export function accountState(fields: Partial<AccountState>): AccountState {
  return { nonce: fields.nonce ?? 0n, balance: fields.balance ?? 0n, code: fields.code ?? EMPTY_CODE, storage: fields.storage ?? NO_STORAGE }
}

export function storageRootOf(storage: ReadonlyMap<bigint, bigint>): Uint8Array {
  if (storage.size === 0) return EMPTY_TRIE_ROOT
  const entries: TrieEntry[] = []
  for (const [slot, value] of storage) {
    if (value !== 0n) entries.push({ key: keccak256(bigIntToFixedBytes(slot, 32)), value: encodeRlp(bigIntToMinimalBytes(value)) })
  }
  return trieRoot(entries)
}

function codeHashOf(code: Uint8Array): Uint8Array {
  return code.length === 0 ? KECCAK256_NULL : keccak256(code)
}

/** The account leaf as the state trie stores it. */
function accountOf(state: AccountState): Account {
  return new Account(state.nonce, state.balance, storageRootOf(state.storage), codeHashOf(state.code))
}

/** The state root of a whole world. */
export function stateRootOf(world: WorldSnapshot): Uint8Array {
  const entries: TrieEntry[] = []
  for (const [address, state] of world) entries.push({ key: keccak256(bigIntToFixedBytes(address, 20)), value: accountOf(state).serialize() })
  return trieRoot(entries)
}

/** A StateReader over a world (fresh Account objects on every read, as the interface promises). */
export function stateReaderOf(world: WorldSnapshot): StateReader {
  const codes = new Map<string, Uint8Array>()
  const leaves = new Map<bigint, Account>()
  for (const [address, state] of world) {
    const account = accountOf(state)
    leaves.set(address, account)
    codes.set(bytesToHex(account.codeHash), state.code)
  }
  return {
    getAccount(address: Uint8Array): Account | undefined {
      const leaf = leaves.get(bytesToBigInt(address))
      return leaf === undefined ? undefined : new Account(leaf.nonce, leaf.balance, leaf.storageRoot, leaf.codeHash)
    },
    getStorage(address: Uint8Array, slot: Uint8Array): Uint8Array {
      const value = world.get(bytesToBigInt(address))?.storage.get(bytesToBigInt(slot)) ?? 0n
      return bigIntToMinimalBytes(value)
    },
    getCode(codeHash: Uint8Array): Uint8Array {
      return codes.get(bytesToHex(codeHash)) ?? EMPTY_CODE
    },
  }
}

/** `world` with `diff` applied (StateDiff's conventions: null = deleted, wiped = storage cleared first, codes by hash). */
export function applyDiff(world: WorldSnapshot, diff: StateDiff): Map<bigint, AccountState> {
  const out = new Map(world)
  const touched = new Set<string>([...diff.accounts.keys(), ...diff.storage.keys(), ...diff.wiped])
  for (const addrHex of touched) {
    const address = BigInt(addrHex)
    const before = world.get(address)
    const next = diff.accounts.has(addrHex) ? diff.accounts.get(addrHex)! : undefined
    if (next === null) {
      out.delete(address)
      continue
    }
    const storage = new Map(diff.wiped.has(addrHex) ? NO_STORAGE : (before?.storage ?? NO_STORAGE))
    for (const [slotHex, value] of diff.storage.get(addrHex) ?? []) {
      const v = bytesToBigInt(value)
      if (v === 0n) storage.delete(BigInt(slotHex))
      else storage.set(BigInt(slotHex), v)
    }
    if (next === undefined) {
      if (before === undefined) throw new Error(`diff writes storage of ${addrHex}, an account that exists neither before nor in the diff`)
      out.set(address, { ...before, storage })
      continue
    }
    const hashHex = bytesToHex(next.codeHash)
    let code: Uint8Array
    if (hashHex === bytesToHex(KECCAK256_NULL)) code = EMPTY_CODE
    else if (before !== undefined && bytesToHex(codeHashOf(before.code)) === hashHex) code = before.code
    else {
      const fromDiff = diff.codes.get(hashHex)
      if (fromDiff === undefined) throw new Error(`diff gives ${addrHex} code ${hashHex} but not the code`)
      code = fromDiff
    }
    out.set(address, { nonce: next.nonce, balance: next.balance, code, storage })
  }
  return out
}

/** EIP-161 'empty'. */
export function isEmptyAccount(state: AccountState): boolean {
  return state.nonce === 0n && state.balance === 0n && state.code.length === 0
}
