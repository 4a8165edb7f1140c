/**
 * A set of state changes: what one block (or one flashblock, or a simulated block) did to the state.
 *
 * Invariants: an address in `wiped` had its whole storage cleared, and `storage` holds only the slots
 * written after the (last) wipe; `accounts` maps to null for a deleted account; `codes` is keyed by code
 * hash. Keys are lower-case 0x-hex (primitives/hex.ts). A diff is immutable once published.
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
