/**
 * Runs execution jobs on this thread (tests, and nodes configured without workers); with an observer, each
 * job's EVM gas and seconds are metered and reported as it answers.
 */

import type { KvStore } from '../../storage/db.ts'
import { preconfirmedState } from '../../preconf/state.ts'
import type { ChainReader } from '../chain-reader.ts'
import type { CallService, TargetState } from './call-service.ts'
import type { ExecutionJob, ExecutionObserver, ExecutionTarget, Executor, JobResult } from './jobs.ts'
import { EvmMeter } from '../../execution/evm-meter.ts'
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
    private readonly observer?: ExecutionObserver,
  ) {}

  async run(job: ExecutionJob, target: ExecutionTarget): Promise<JobResult> {
    const observer = this.observer
    if (observer === undefined) return this.service.run(job, resolveTarget(this.kv, this.chain, target))
    const meter = new EvmMeter()
    try {
      return await this.service.run(job, resolveTarget(this.kv, this.chain, target), meter)
    } finally {
      observer.executed(job.kind, meter.gas, meter.seconds)
    }
  }

  async close(): Promise<void> {}
}
