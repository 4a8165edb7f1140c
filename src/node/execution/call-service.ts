/**
 * Runs an execution job against a target state: the code shared by the main thread and the execution
 * workers. It owns the per-job state view (a fresh journaled overlay, with overrides), the block context
 * (the target's own header, with block overrides), and the time limit. Simulations go to this thread's
 * Simulator (its VM pool and system-call recordings stay warm across jobs), which keeps its own limits.
 */

import type { BlockHeader } from '@ethereumjs/block'
import type { ChainStore } from '../../chain/chain-store.ts'
import { chainBlockHashes, type BlockHashSource } from '../../execution/block-hashes.ts'
import { VmPool } from '../../execution/vm-pool.ts'
import { withBlockOverrides } from '../../execution/block-overrides.ts'
import { executeCall, type CallContext } from '../../execution/call-executor.ts'
import type { ChainRules } from '../../execution/chain-config.ts'
import { callFailureError } from '../../execution/vm-errors.ts'
import { JournaledState } from '../../state/journaled-state.ts'
import type { StateReader } from '../../state/state-reader.ts'
import type { BlockOverrides } from '../../execution/requests.ts'
import type { StateOverrides } from '../../state/account-overrides.ts'
import { withDeadline } from '../deadline.ts'
import { estimateGas } from '../gas-estimator.ts'
import { createAccessList } from '../access-list.ts'
import { applyStateOverrides } from '../state-overrides.ts'
import { Simulator } from '../../simulate/simulator.ts'
import type { SimulationBase } from '../../simulate/base.ts'
import type { SimulateSettings } from '../../simulate/types.ts'
import type { ExecutionJob, JobResult } from './jobs.ts'

export interface CallSettings {
  readonly gasCap: bigint
  readonly evmTimeoutMs: number
  readonly simulate: SimulateSettings
}

/** A resolved target: the header whose environment the job sees and the state it reads. */
export interface TargetState {
  readonly header: BlockHeader
  readonly state: StateReader
  /** The target as a simulation's base (asked for only by simulations, once within their limits). */
  simulationBase(): SimulationBase
}

const NO_STATE_ROOT = async (): Promise<Uint8Array> => new Uint8Array(32)

export class CallService {
  private readonly vms = new VmPool()
  /** VMs for eth_createAccessList only: its tracer wraps their opcode tables. */
  private readonly tracedVms = new VmPool()
  private readonly blockHashes: BlockHashSource
  private readonly simulator: Simulator

  constructor(
    private readonly rules: ChainRules,
    private readonly chain: ChainStore,
    private readonly settings: CallSettings,
  ) {
    this.blockHashes = chainBlockHashes(chain)
    this.simulator = new Simulator({ rules, chain, settings: settings.simulate })
  }

  private context(header: BlockHeader, overrides?: BlockOverrides, vms = this.vms): CallContext {
    return {
      rules: this.rules,
      header: overrides === undefined ? header : withBlockOverrides(header, overrides, this.rules),
      ...(overrides?.blobBaseFee !== undefined ? { blobBaseFee: overrides.blobBaseFee } : {}),
      blockHashes: this.blockHashes,
      vms,
      settings: { gasCap: this.settings.gasCap },
    }
  }

  private async fresh(base: StateReader, overrides?: StateOverrides): Promise<JournaledState> {
    // Only pre-Byzantium receipts ask a state root mid-block; nothing a call returns depends on it.
    const state = new JournaledState(base, NO_STATE_ROOT)
    if (overrides !== undefined) await applyStateOverrides(state, overrides)
    return state
  }

  async run(job: ExecutionJob, target: TargetState): Promise<JobResult> {
    const timeoutMs = this.settings.evmTimeoutMs
    switch (job.kind) {
      case 'call': {
        const ctx = this.context(target.header, job.block)
        const state = await this.fresh(target.state, job.state)
        const outcome = await withDeadline(state, timeoutMs, () => executeCall(ctx, state, job.request))
        if (outcome.failure !== undefined) throw callFailureError(outcome.failure, outcome.returnData)
        return outcome.returnData
      }
      case 'estimateGas':
        return estimateGas(this.context(target.header), () => this.fresh(target.state, job.state), job.request, { timeoutMs })
      case 'createAccessList':
        return createAccessList(this.context(target.header, undefined, this.tracedVms), () => this.fresh(target.state), job.request, { timeoutMs })
      case 'simulate':
        return this.simulator.simulate(job.payload, () => target.simulationBase())
    }
  }
}
