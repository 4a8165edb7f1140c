/**
 * Applies eth_call / eth_estimateGas state overrides to a fresh state view before execution.
 * (`movePrecompileToAddress` belongs to eth_simulateV1 and is refused here.)
 */

import { Address } from '@ethereumjs/util'
import { FlashnodeError } from '../errors/errors.ts'
import { hexToBytes } from '../primitives/hex.ts'
import type { JournaledState } from '../state/journaled-state.ts'
import type { StateOverrides } from './api.ts'

export async function applyStateOverrides(state: JournaledState, overrides: StateOverrides): Promise<void> {
  for (const [addrHex, o] of overrides) {
    const address = new Address(hexToBytes(addrHex))
    if (o.movePrecompileToAddress !== undefined) {
      throw new FlashnodeError('invalidParams', 'movePrecompileToAddress is only supported by eth_simulateV1')
    }
    if (o.state !== undefined && o.stateDiff !== undefined) {
      throw new FlashnodeError('invalidParams', `account ${addrHex} has both 'state' and 'stateDiff'`)
    }
    if (o.balance !== undefined) await state.modifyAccountFields(address, { balance: o.balance })
    if (o.nonce !== undefined) await state.modifyAccountFields(address, { nonce: o.nonce })
    if (o.code !== undefined) await state.putCode(address, o.code)
    if (o.state !== undefined) {
      await state.clearStorage(address)
      for (const [slot, value] of o.state) await state.putStorage(address, hexToBytes(slot), value)
    }
    if (o.stateDiff !== undefined) {
      for (const [slot, value] of o.stateDiff) await state.putStorage(address, hexToBytes(slot), value)
    }
  }
}
