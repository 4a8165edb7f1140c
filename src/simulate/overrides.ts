/**
 * A simulated block's state overrides, applied as geth applies them, and the precompile table they leave.
 *
 * Accounts are processed in address order. Each may set nonce, code, balance and either `state` (replaces
 * the whole storage) or `stateDiff` (patches slots). `movePrecompileToAddress` moves the precompile at the
 * account to another address (the destination's own account is kept; a later override of it is refused);
 * any override of a precompile's address removes the precompile from there, so its new code (or nothing)
 * runs. Every block starts again from the fork's standard precompiles: moves do not carry over.
 *
 * The table is our EVM's (src/evm/observer.ts PrecompileTable: address -> precompile), given to each call
 * only when the overrides changed it; the set warmed at the start of each transaction stays the fork's
 * standard one (geth warms `ActivePrecompiles(rules)`, not the moved table; our EVM does the same).
 *
 * Where geth and the spec differ (the rpc-compat fixtures recorded from geth decide): moving a
 * non-precompile and moving onto an overridden address are -32000, and two precompiles moved to one
 * address are accepted (the later wins). A precompile moved onto itself is the spec's -38022 (geth has no
 * fixture for it and answers -32000).
 */

import { toChecksumAddress } from '@ethereumjs/util'
import type { Rules } from '../evm/fork.ts'
import type { PrecompileTable } from '../evm/observer.ts'
import { precompileAddresses, precompileAt } from '../evm/precompiles/registry.ts'
import type { Precompile } from '../evm/types.ts'
import { applyAccountOverride, setsBothStorages, type AccountOverride } from '../state/account-overrides.ts'
import { bytesToHex } from '../primitives/hex.ts'
import type { JournaledState } from '../state/journaled-state.ts'
import { SIM_CODES, simError } from './errors.ts'

const shown = (addrHex: string): string => toChecksumAddress(addrHex)

/** The fork's standard precompiles: a fresh table (callers change it). */
export function standardPrecompiles(rules: Rules): Map<bigint, Precompile> {
  const table = new Map<bigint, Precompile>()
  for (const a of precompileAddresses(rules)) table.set(a, precompileAt(a, rules)!)
  return table
}

/**
 * Applies `overrides` to `state` and returns the block's precompile table, or undefined when the fork's
 * standard table stands (no override touched a precompile address).
 */
export async function applySimOverrides(
  state: JournaledState,
  overrides: ReadonlyMap<string, AccountOverride> | undefined,
  rules: Rules,
): Promise<PrecompileTable | undefined> {
  if (overrides === undefined) return undefined
  let table: Map<bigint, Precompile> | undefined
  const addrs = [...overrides.keys()].sort()
  const movedHere = new Set<bigint>()
  for (const addrHex of addrs) {
    const o = overrides.get(addrHex)!
    const k = BigInt(addrHex)
    if (movedHere.has(k)) throw simError(SIM_CODES.generic, `account ${shown(addrHex)} has already been overridden by a precompile`)
    const precompile = table !== undefined ? table.get(k) : precompileAt(k, rules)
    if (o.movePrecompileToAddress !== undefined) {
      const dest = bytesToHex(o.movePrecompileToAddress)
      if (precompile === undefined) throw simError(SIM_CODES.generic, `account ${shown(addrHex)} is not a precompile`)
      if (dest === addrHex.toLowerCase()) {
        throw simError(SIM_CODES.movePrecompileSelfReference, `account ${shown(addrHex)} is moved to itself`)
      }
      if (overrides.has(dest)) throw simError(SIM_CODES.generic, `account ${shown(dest)} is already overridden`)
      table ??= standardPrecompiles(rules)
      table.set(BigInt(dest), precompile)
      movedHere.add(BigInt(dest))
    }
    if (precompile !== undefined) {
      table ??= standardPrecompiles(rules)
      table.delete(k)
    }
    if (setsBothStorages(o)) throw simError(SIM_CODES.generic, `account ${shown(addrHex)} has both 'state' and 'stateDiff'`)
    await applyAccountOverride(state, addrHex, o)
  }
  return table
}
