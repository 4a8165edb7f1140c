/** Runs execution jobs on this thread (tests, and nodes configured without workers). */

import type { KvStore } from '../../storage/db.ts'
import { ArchiveReader } from '../../state/archive-reader.ts'
import { OverlayReader } from '../../state/overlay-reader.ts'
import type { ChainReader } from '../chain-reader.ts'
import type { CallService, TargetState } from './call-service.ts'
import { pendingBase, pendingBaseData, sealedBase } from '../../simulate/base.ts'
import type { ExecutionJob, ExecutionTarget, Executor } from './jobs.ts'

export function resolveTarget(kv: KvStore, chain: ChainReader, target: ExecutionTarget): TargetState {
  if (target.kind === 'pending') {
    const s = target.snapshot
    const state = new OverlayReader(new ArchiveReader(kv, s.parent.number), s.diff)
    return { header: s.header, state, simulationBase: () => pendingBase(kv, pendingBaseData(s), state) }
  }
  const header = chain.header(target.number)!
  const state = new ArchiveReader(kv, target.number)
  return { header, state, simulationBase: () => sealedBase(kv, header, state) }
}

export class InlineExecutor implements Executor {
  constructor(
    private readonly kv: KvStore,
    private readonly chain: ChainReader,
    private readonly service: CallService,
  ) {}

  run(job: ExecutionJob, target: ExecutionTarget) {
    return this.service.run(job, resolveTarget(this.kv, this.chain, target))
  }

  async close(): Promise<void> {}
}
