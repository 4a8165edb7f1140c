/**
 * A simulated block's state overrides, applied as geth applies them, and the precompile table they leave.
 *
 * Accounts are processed in address order. Each may set nonce, code, balance and either `state` (replaces
 * the whole storage) or `stateDiff` (patches slots). `movePrecompileToAddress` moves the precompile at the
 * account to another address (the destination's own account is kept; a later override of it is refused);
 * any override of a precompile's address removes the precompile from there, so its new code (or nothing)
 * runs. Every block starts again from the fork's standard precompiles: moves do not carry over.
 *
 * Where geth and the spec differ (the rpc-compat fixtures recorded from geth decide): moving a
 * non-precompile and moving onto an overridden address are -32000, and two precompiles moved to one
 * address are accepted (the later wins). A precompile moved onto itself is the spec's -38022 (geth has no
 * fixture for it and answers -32000).
 */

import { toChecksumAddress } from '@ethereumjs/util'
import type { PrecompileFunc } from '@ethereumjs/evm'
import { getActivePrecompiles } from '@ethereumjs/evm'
import type { Common } from '@ethereumjs/common'
import { applyAccountOverride, setsBothStorages, type AccountOverride } from '../state/account-overrides.ts'
import { bytesToHex } from '../primitives/hex.ts'
import type { JournaledState } from '../state/journaled-state.ts'
import { SIM_CODES, simError } from './errors.ts'

/** Unprefixed lower-case address -> precompile, as the library keys its table. */
export type PrecompileTable = Map<string, PrecompileFunc>

const key = (addrHex: string): string => addrHex.slice(2).toLowerCase()
const shown = (addrHex: string): string => toChecksumAddress(addrHex)

const standard = new WeakMap<Common, { readonly table: PrecompileTable; readonly keys: readonly string[] }>()

function standardOf(common: Common): { readonly table: PrecompileTable; readonly keys: readonly string[] } {
  let s = standard.get(common)
  if (s === undefined) {
    const table = new Map(getActivePrecompiles(common)) as PrecompileTable
    s = { table, keys: [...table.keys()] }
    standard.set(common, s)
  }
  return s
}

/** The fork's standard precompiles: a fresh table (callers change it). */
export function standardPrecompiles(common: Common): PrecompileTable {
  return new Map(standardOf(common).table)
}

/** The addresses of the fork's standard precompiles (unprefixed lower-case hex). */
export function standardPrecompileKeys(common: Common): readonly string[] {
  return standardOf(common).keys
}

/**
 * Applies `overrides` to `state` and returns the block's precompile table. `table` starts as the fork's
 * standard set and is changed in place.
 */
export async function applySimOverrides(
  state: JournaledState,
  overrides: ReadonlyMap<string, AccountOverride> | undefined,
  table: PrecompileTable,
): Promise<PrecompileTable> {
  if (overrides === undefined) return table
  const addrs = [...overrides.keys()].sort()
  const movedHere = new Set<string>()
  for (const addrHex of addrs) {
    const o = overrides.get(addrHex)!
    const k = key(addrHex)
    if (movedHere.has(k)) throw simError(SIM_CODES.generic, `account ${shown(addrHex)} has already been overridden by a precompile`)
    const precompile = table.get(k)
    const isPrecompile = table.has(k)
    if (o.movePrecompileToAddress !== undefined) {
      const dest = bytesToHex(o.movePrecompileToAddress)
      if (!isPrecompile) throw simError(SIM_CODES.generic, `account ${shown(addrHex)} is not a precompile`)
      if (dest === addrHex.toLowerCase()) {
        throw simError(SIM_CODES.movePrecompileSelfReference, `account ${shown(addrHex)} is moved to itself`)
      }
      if (overrides.has(dest)) throw simError(SIM_CODES.generic, `account ${shown(dest)} is already overridden`)
      table.set(key(dest), precompile!)
      movedHere.add(key(dest))
    }
    if (isPrecompile) table.delete(k)
    if (setsBothStorages(o)) throw simError(SIM_CODES.generic, `account ${shown(addrHex)} has both 'state' and 'stateDiff'`)
    await applyAccountOverride(state, addrHex, o)
  }
  return table
}

/**
 * The table the EVM consults. Calls find the moved precompiles, but the set warmed at the start of each
 * transaction stays the fork's standard one (geth warms `ActivePrecompiles(rules)`, not the moved table).
 */
export class SimPrecompiles extends Map<string, PrecompileFunc> {
  constructor(
    table: PrecompileTable,
    private readonly warm: readonly string[],
  ) {
    super(table)
  }

  override entries(): MapIterator<[string, PrecompileFunc]> {
    const pairs = this.warm.map((k): [string, PrecompileFunc] => [k, this.get(k)!])
    return pairs[Symbol.iterator]() as unknown as MapIterator<[string, PrecompileFunc]>
  }
}
