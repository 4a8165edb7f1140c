/** Runs execution jobs on this thread (tests, and nodes configured without workers). */

import type { KvStore } from '../../storage/db.ts'
import { preconfirmedState } from '../../preconf/state.ts'
import type { ChainReader } from '../chain-reader.ts'
import type { CallService, TargetState } from './call-service.ts'
import type { ExecutionJob, ExecutionTarget, Executor } from './jobs.ts'
import { pendingTarget, sealedTarget } from './targets.ts'

export function resolveTarget(kv: KvStore, chain: ChainReader, target: ExecutionTarget): TargetState {
  if (target.kind === 'pending') return pendingTarget(kv, preconfirmedState(target.snapshot))
  return sealedTarget(kv, chain.header(target.number)!)
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
