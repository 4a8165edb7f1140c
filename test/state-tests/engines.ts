/**
 * The two engines the state tests run through: our EVM (src/evm/: a WorldState over the pre-state, one
 * executeTransaction, the post-state from its diff) and the EVM library (test/evm/library-oracle.ts).
 *
 * Our EVM's modules are loaded on first use, so the runner (and the oracle run) works while they are
 * still being written.
 */

import type { Engine } from './runner.ts'
import { rulesFor } from '../../src/evm/fork.ts'
import { applyDiff, stateReaderOf } from './world.ts'

/** Per-transaction deadline for our EVM: a runaway loop fails its check instead of hanging the run. */
const TX_DEADLINE_MS = 60_000

type OurModules = {
  WorldState: typeof import('../../src/evm/world-state.ts').WorldState
  executeTransaction: typeof import('../../src/evm/transaction.ts').executeTransaction
}

let ours: OurModules | undefined

async function loadOurs(): Promise<OurModules> {
  if (ours === undefined) {
    const [world, transaction] = await Promise.all([import('../../src/evm/world-state.ts'), import('../../src/evm/transaction.ts')])
    ours = { WorldState: world.WorldState, executeTransaction: transaction.executeTransaction }
  }
  return ours
}

export async function ourEngine(): Promise<Engine> {
  const { WorldState, executeTransaction } = await loadOurs()
  return (pre, block, fork, tx) => {
    const world = new WorldState(stateReaderOf(pre))
    const result = executeTransaction(world, block, rulesFor(fork), tx, { deadline: Date.now() + TX_DEADLINE_MS })
    return { post: applyDiff(pre, world.diff()), logs: result.logs }
  }
}

export async function libraryEngine(): Promise<Engine> {
  const { runWithLibrary } = await import('../evm/library-oracle.ts')
  return async (pre, block, fork, tx) => {
    const run = await runWithLibrary(pre, block, fork, tx)
    return { post: run.post, logs: run.result.logs }
  }
}
