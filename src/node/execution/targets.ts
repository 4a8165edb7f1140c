/**
 * A job's target made ready to run (call-service.ts, TargetState): the header whose environment the job
 * sees, the state it reads and, for simulations, the base they build on. The same for the main thread
 * (inline-executor.ts) and an execution worker (worker-main.ts, from its replica), so both read a target
 * the same way; the pre-confirmed state reader comes from preconf/state.ts, its one builder.
 */

import type { BlockHeader } from '@ethereumjs/block'
import type { KvStore } from '../../storage/db.ts'
import { ArchiveReader } from '../../state/archive-reader.ts'
import { preconfirmedReader, type PreconfirmedState } from '../../preconf/state.ts'
import { pendingBase, sealedBase } from '../../simulate/base.ts'
import type { TargetState } from './call-service.ts'

/** Sealed block `header`: its own state. */
export function sealedTarget(kv: KvStore, header: BlockHeader): TargetState {
  const state = new ArchiveReader(kv, header.number)
  return { header, state, parentState: () => new ArchiveReader(kv, header.number - 1n), simulationBase: () => sealedBase(kv, header, state) }
}

/** A pre-confirmed snapshot's state: the open block's environment over the parent's state and the diff. */
export function pendingTarget(kv: KvStore, p: PreconfirmedState): TargetState {
  const state = preconfirmedReader(kv, p)
  return { header: p.header, state, parentState: () => new ArchiveReader(kv, p.parentNumber), simulationBase: () => pendingBase(kv, p, state) }
}
