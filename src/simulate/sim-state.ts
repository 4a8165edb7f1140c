/**
 * The state of one simulated block on our EVM: a WorldState over the simulation's state so far, with the
 * block's state overrides underneath it.
 *
 * Overrides are written once, before anything runs, into a JournaledState over the simulation's state (the
 * one writer of overrides, state/account-overrides.ts); its diff becomes an overlay the WorldState reads
 * through, so the calls see the overridden accounts as their base. The block's changes are the overrides'
 * diff followed by the WorldState's. A block without overrides reads the simulation's state directly.
 *
 * A contract may be the sender of a call (geth's simulator skips EIP-3607, validation or not): the
 * transaction layer is told so (TxOptions.skipSenderCodeCheck), the account keeps its code.
 */

import type { Rules } from '../evm/fork.ts'
import type { PrecompileTable } from '../evm/observer.ts'
import { WorldState } from '../evm/world-state.ts'
import type { AccountOverride } from '../state/account-overrides.ts'
import { JournaledState } from '../state/journaled-state.ts'
import { OverlayReader } from '../state/overlay-reader.ts'
import { mergeDiffs, type StateDiff } from '../state/state-diff.ts'
import type { StateReader } from '../state/state-reader.ts'
import { applySimOverrides } from './overrides.ts'

export class SimState {
  private constructor(
    readonly world: WorldState,
    /** The overrides' changes, when the block has overrides. */
    private readonly overrides: StateDiff | undefined,
    /** The block's precompiles when the overrides moved or removed any (else the fork's). */
    readonly precompiles: PrecompileTable | undefined,
  ) {}

  static async open(base: StateReader, overrides: ReadonlyMap<string, AccountOverride> | undefined, rules: Rules): Promise<SimState> {
    if (overrides === undefined || overrides.size === 0) return new SimState(new WorldState(base), undefined, undefined)
    const journaled = new JournaledState(base)
    const precompiles = await applySimOverrides(journaled, overrides, rules)
    const overridden = journaled.diff()
    return new SimState(new WorldState(new OverlayReader(base, overridden)), overridden, precompiles)
  }

  /** Whether the block has state overrides (its WorldState reads them, not the simulation's state). */
  get overridden(): boolean {
    return this.overrides !== undefined
  }

  /** Everything the block changed so far, overrides included, against the simulation's state before it. */
  diff(): StateDiff {
    const ran = this.world.diff()
    return this.overrides === undefined ? ran : mergeDiffs(this.overrides, ran)
  }
}
