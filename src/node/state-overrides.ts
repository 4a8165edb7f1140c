/**
 * Applies eth_call / eth_estimateGas state overrides to a fresh state view before execution: every account
 * is checked (`movePrecompileToAddress` belongs to eth_simulateV1 and is refused here; `state` with
 * `stateDiff` is invalid params) before it is written (state/account-overrides.ts).
 */

import { FlashnodeError } from '../errors/errors.ts'
import type { JournaledState } from '../state/journaled-state.ts'
import { applyAccountOverride, setsBothStorages, type StateOverrides } from '../state/account-overrides.ts'

export async function applyStateOverrides(state: JournaledState, overrides: StateOverrides): Promise<void> {
  for (const [addrHex, o] of overrides) {
    if (o.movePrecompileToAddress !== undefined) {
      throw new FlashnodeError('invalidParams', 'movePrecompileToAddress is only supported by eth_simulateV1')
    }
    if (setsBothStorages(o)) throw new FlashnodeError('invalidParams', `account ${addrHex} has both 'state' and 'stateDiff'`)
    await applyAccountOverride(state, addrHex, o)
  }
}
