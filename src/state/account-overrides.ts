/**
 * Per-account state overrides (eth_call's and eth_estimateGas' third parameter, eth_simulateV1's
 * stateOverrides) and the one place they are written into a journaled state.
 *
 * What the two methods check differently stays with them (node/state-overrides.ts for calls,
 * simulate/overrides.ts for simulations: their error codes and wording, precompile moves); what reaches
 * `applyAccountOverride` has passed those checks and is applied as given: nonce, code, balance, then the
 * storage (`state` replaces the whole storage, `stateDiff` patches slots). The fields are independent, so
 * their order does not change the result.
 */

import { Address } from '@ethereumjs/util'
import { hexToBytes } from '../primitives/hex.ts'
import type { JournaledState } from './journaled-state.ts'

/** Per-address state override. */
export interface AccountOverride {
  readonly balance?: bigint
  readonly nonce?: bigint
  readonly code?: Uint8Array
  /** Replaces the whole storage. */
  readonly state?: ReadonlyMap<string, Uint8Array>
  /** Patches individual slots. Keys are 0x-hex 32-byte slots. */
  readonly stateDiff?: ReadonlyMap<string, Uint8Array>
  readonly movePrecompileToAddress?: Uint8Array
}

/** Keys are lower-case 0x-hex addresses. */
export type StateOverrides = ReadonlyMap<string, AccountOverride>

/** Both `state` and `stateDiff`: refused by both methods (each with its own error). */
export function setsBothStorages(o: AccountOverride): boolean {
  return o.state !== undefined && o.stateDiff !== undefined
}

/** Writes one account's override (already checked) into `state`. */
export async function applyAccountOverride(state: JournaledState, addrHex: string, o: AccountOverride): Promise<void> {
  const address = new Address(hexToBytes(addrHex))
  if (o.nonce !== undefined) await state.modifyAccountFields(address, { nonce: o.nonce })
  if (o.code !== undefined) await state.putCode(address, o.code)
  if (o.balance !== undefined) await state.modifyAccountFields(address, { balance: o.balance })
  if (o.state !== undefined) {
    await state.clearStorage(address)
    for (const [slot, value] of o.state) await state.putStorage(address, hexToBytes(slot), value)
  }
  if (o.stateDiff !== undefined) {
    for (const [slot, value] of o.stateDiff) await state.putStorage(address, hexToBytes(slot), value)
  }
}
