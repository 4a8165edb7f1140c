/**
 * A set of state changes: what one block (or one flashblock, or a simulated block) did to the state.
 *
 * Invariants: an address in `wiped` had its whole storage cleared, and `storage` holds only the slots
 * written after the (last) wipe; `accounts` maps to null for a deleted account; `codes` is keyed by code
 * hash. Keys are lower-case 0x-hex (primitives/hex.ts). A diff is immutable once published, and so is what it
 * holds: its Account objects and value bytes may be shared with later diffs of the same block (evm/world-state.ts
 * reports an unchanged account or slot as the same object, which `changedSince` then finds by identity).
 */

import type { Account } from '@ethereumjs/util'

export interface StateDiff {
  readonly accounts: ReadonlyMap<string, Account | null>
  readonly storage: ReadonlyMap<string, ReadonlyMap<string, Uint8Array>>
  readonly wiped: ReadonlySet<string>
  readonly codes: ReadonlyMap<string, Uint8Array>
}

export const EMPTY_DIFF: StateDiff = {
  accounts: new Map(),
  storage: new Map(),
  wiped: new Set(),
  codes: new Map(),
}

/** Every address the diff touches. */
export function touchedAddresses(diff: StateDiff): Set<string> {
  const out = new Set<string>(diff.accounts.keys())
  for (const a of diff.storage.keys()) out.add(a)
  for (const a of diff.wiped) out.add(a)
  return out
}

/** `later` applied on top of `earlier`: the result one would get by running both in order. */
export function mergeDiffs(earlier: StateDiff, later: StateDiff): StateDiff {
  const accounts = new Map(earlier.accounts)
  for (const [k, v] of later.accounts) accounts.set(k, v)
  const wiped = new Set(earlier.wiped)
  for (const a of later.wiped) wiped.add(a)
  const storage = new Map<string, Map<string, Uint8Array>>()
  for (const [addr, slots] of earlier.storage) {
    if (!later.wiped.has(addr)) storage.set(addr, new Map(slots))
  }
  for (const [addr, slots] of later.storage) {
    const merged = storage.get(addr) ?? new Map<string, Uint8Array>()
    for (const [slot, value] of slots) merged.set(slot, value)
    storage.set(addr, merged)
  }
  const codes = new Map(earlier.codes)
  for (const [k, v] of later.codes) codes.set(k, v)
  return { accounts, storage, wiped, codes }
}

/**
 * What happened between two diffs of one block, `earlier` then `later` (later = earlier + more changes):
 * the diff that, applied on top of `earlier` with mergeDiffs, gives `later`. An account appears when it
 * differs (created, changed, deleted); a slot when its value differs; a wipe when the storage was cleared
 * again after `earlier` (a slot `earlier` held is gone), and then every slot `later` holds is listed; a code
 * when it is new. Unchanged entries are skipped by reference first, then by value.
 */
export function changedSince(earlier: StateDiff, later: StateDiff): StateDiff {
  const accounts = new Map<string, Account | null>()
  for (const [addr, account] of later.accounts) {
    const before = earlier.accounts.get(addr)
    if (before === account) continue
    if (before !== undefined && before !== null && account !== null && sameAccount(before, account)) continue
    accounts.set(addr, account)
  }
  const wiped = new Set<string>()
  const storage = new Map<string, Map<string, Uint8Array>>()
  for (const [addr, slots] of later.storage) {
    const before = earlier.storage.get(addr)
    const rewiped = later.wiped.has(addr) && (!earlier.wiped.has(addr) || lostSlot(before, slots))
    if (rewiped) {
      wiped.add(addr)
      storage.set(addr, new Map(slots))
      continue
    }
    const changed = new Map<string, Uint8Array>()
    for (const [slot, value] of slots) {
      const old = before?.get(slot)
      if (old === value || (old !== undefined && sameBytes(old, value))) continue
      changed.set(slot, value)
    }
    if (changed.size > 0) storage.set(addr, changed)
  }
  for (const addr of later.wiped) {
    if (!storage.has(addr) && !earlier.wiped.has(addr)) {
      wiped.add(addr)
      storage.set(addr, new Map())
    }
  }
  const codes = new Map<string, Uint8Array>()
  for (const [hash, code] of later.codes) if (!earlier.codes.has(hash)) codes.set(hash, code)
  return { accounts, storage, wiped, codes }
}

function lostSlot(before: ReadonlyMap<string, Uint8Array> | undefined, after: ReadonlyMap<string, Uint8Array>): boolean {
  if (before === undefined) return false
  for (const slot of before.keys()) if (!after.has(slot)) return true
  return false
}

/** Whether two accounts are equal field by field (nonce, balance, code hash, storage root). */
export function sameAccount(a: Account, b: Account): boolean {
  return a.nonce === b.nonce && a.balance === b.balance && sameBytes(a.codeHash, b.codeHash) && sameBytes(a.storageRoot, b.storageRoot)
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}
