/**
 * Runs an execution job against a target state: the code shared by the main thread and the execution
 * workers. It owns the per-job state view (the target's state, with overrides laid over it; each run makes
 * its own WorldState on it), the block context
 * (the target's own header, with block overrides), and the time limit. Simulations go to this thread's
 * Simulator (its VM pool and system-call recordings stay warm across jobs), which keeps its own limits.
 * A job's EVM runs are metered when the caller passes a meter (execution/evm-meter.ts): every run counts, so
 * an estimate is the sum of its binary search, an access list of its rounds, a simulation of its calls.
 */

import type { BlockHeader } from '@ethereumjs/block'
import type { ChainStore } from '../../chain/chain-store.ts'
import { chainBlockHash } from '../../execution/evm-env.ts'
import { withBlockOverrides } from '../../execution/block-overrides.ts'
import { executeCall, type CallContext } from '../../execution/call-executor.ts'
import type { ChainRules } from '../../execution/chain-config.ts'
import { callFailureError } from '../../execution/vm-errors.ts'
import { JournaledState } from '../../state/journaled-state.ts'
import type { StateReader } from '../../state/state-reader.ts'
import { OverlayReader } from '../../state/overlay-reader.ts'
import type { BlockOverrides } from '../../execution/requests.ts'
import type { StateOverrides } from '../../state/account-overrides.ts'
import { withDeadline } from '../deadline.ts'
import { estimateGas } from '../gas-estimator.ts'
import { createAccessList } from '../access-list.ts'
import { applyStateOverrides } from '../state-overrides.ts'
import { simulatedBlocksJson } from '../../format/simulate.ts'
import { Simulator } from '../../simulate/simulator.ts'
import type { SimulationBase } from '../../simulate/base.ts'
import type { SimulateSettings } from '../../simulate/types.ts'
import type { EvmMeter } from '../../execution/evm-meter.ts'
import type { ExecutionJob, JobResult, TraceBlockJob, WireTransaction } from './jobs.ts'
import { createTxFromRLP } from '@ethereumjs/tx'
import { FlashnodeError } from '../../errors/errors.ts'
import { decodeBlock, decodeOpBlock } from '../../execution/block-codec.ts'
import { decodeDepositTransaction, depositTransactionHash, DEPOSIT_TX_TYPE } from '../../opstack/deposit-tx.ts'
import { traceBlock, tracerFor, TraceTooLarge, type ReplayTransaction, type TracedTransaction } from '../../execution/tracing.ts'

export interface CallSettings {
  readonly gasCap: bigint
  readonly evmTimeoutMs: number
  readonly simulate: SimulateSettings
}

/** A resolved target: the header whose environment the job sees and the state it reads. */
export interface TargetState {
  readonly header: BlockHeader
  readonly state: StateReader
  /** The state the target block was built on (its parent's): where a traced replay of its transactions starts. */
  parentState(): StateReader
  /** The target as a simulation's base (asked for only by simulations, once within their limits). */
  simulationBase(): SimulationBase
}

const NO_STATE_ROOT = async (): Promise<Uint8Array> => new Uint8Array(32)

/** A trace past its tracer's output bound is the caller's response too large, not an internal error. */
function boundedTrace<T>(trace: () => T): T {
  try {
    return trace()
  } catch (e) {
    if (e instanceof TraceTooLarge) throw new FlashnodeError('responseTooLarge', e.message)
    throw e
  }
}

export class CallService {
  private readonly blockHash: (n: bigint) => bigint
  private readonly simulator: Simulator

  constructor(
    private readonly rules: ChainRules,
    private readonly chain: ChainStore,
    private readonly settings: CallSettings,
  ) {
    this.blockHash = chainBlockHash(chain)
    this.simulator = new Simulator({ rules, chain, settings: settings.simulate })
  }

  private context(header: BlockHeader, overrides?: BlockOverrides): CallContext {
    return {
      rules: this.rules,
      header: overrides === undefined ? header : withBlockOverrides(header, overrides, this.rules),
      ...(overrides?.blobBaseFee !== undefined ? { blobBaseFee: overrides.blobBaseFee } : {}),
      blockHash: this.blockHash,
      settings: { gasCap: this.settings.gasCap },
    }
  }

  /**
   * The state a call reads: the target's, with the state overrides laid over it (written through a journaled
   * view, whose net change is then read as an overlay). Each run makes its own WorldState over it.
   */
  private async fresh(base: StateReader, overrides?: StateOverrides): Promise<StateReader> {
    if (overrides === undefined) return base
    // Nothing here asks for a state root.
    const state = new JournaledState(base, NO_STATE_ROOT)
    await applyStateOverrides(state, overrides)
    return new OverlayReader(base, state.diff())
  }

  /** Runs `job`; `meter`, when given, adds the gas and EVM time of every EVM run the job makes. */
  async run(job: ExecutionJob, target: TargetState, meter?: EvmMeter): Promise<JobResult> {
    const timeoutMs = this.settings.evmTimeoutMs
    switch (job.kind) {
      case 'call': {
        const ctx = this.context(target.header, job.block)
        const state = await this.fresh(target.state, job.state)
        const outcome = await withDeadline(timeoutMs, (deadline) => executeCall(ctx, state, job.request, meter === undefined ? { deadline } : { deadline, meter }))
        if (outcome.failure !== undefined) throw callFailureError(outcome.failure, outcome.returnData)
        return outcome.returnData
      }
      case 'estimateGas': {
        const state = await this.fresh(target.state, job.state)
        return estimateGas(this.context(target.header), state, job.request, meter === undefined ? { timeoutMs } : { timeoutMs, meter })
      }
      case 'createAccessList':
        return createAccessList(this.context(target.header), target.state, job.request, meter === undefined ? { timeoutMs } : { timeoutMs, meter })
      case 'simulate': {
        const blocks = await this.simulator.simulate(job.payload, () => target.simulationBase(), meter)
        return job.answer === 'json' ? simulatedBlocksJson(blocks, job.payload.returnFullTransactions) : blocks
      }
      case 'traceCall': {
        const trace = tracerFor(job.spec)
        const ctx = this.context(target.header, job.block)
        const state = await this.fresh(target.state, job.state)
        await withDeadline(Math.min(job.timeoutMs, timeoutMs), (deadline) => executeCall(ctx, state, job.request, { deadline, trace }))
        return boundedTrace(() => ({ trace: trace.result() }))
      }
      case 'traceBlock':
        return withDeadline(Math.min(job.timeoutMs, timeoutMs), async (deadline) => boundedTrace(() => this.traceBlock(job, target, deadline)))
    }
  }

  private traceBlock(job: TraceBlockJob, target: TargetState, deadline: number): TracedTransaction[] {
    const header = target.header
    const opFork = this.rules.opFork(header.number, header.timestamp)
    const transactions = job.transactions === undefined ? this.sealedTransactions(header.number) : job.transactions.map((t) => this.decoded(t, header))
    const index = job.index
    if (transactions.length === 0) return []
    const replay = {
      header,
      // The open block has no hash until it is sealed (its receipts and logs carry zero).
      blockHash: job.transactions === undefined ? header.hash() : new Uint8Array(32),
      base: target.parentState(),
      blockHashOf: this.blockHash,
      transactions,
      ...(opFork === undefined ? {} : { opFork }),
    }
    if (index === undefined) return traceBlock(replay, job.spec, () => true, transactions.length - 1, deadline)
    return traceBlock(replay, job.spec, (i) => i === index, index, deadline)
  }

  /** A sealed block's transactions; an OP Stack block's deposits decoded apart (the library cannot read them). */
  private sealedTransactions(number: bigint): ReplayTransaction[] {
    const rlp = this.chain.blockRlp(number)
    if (rlp === undefined) throw new FlashnodeError('notFound', `block #${number} not found`)
    const senders = this.chain.senders(number)
    if (this.rules.op === undefined) return decodeBlock(this.rules, rlp).transactions.map((tx, i) => ({ tx, sender: senders[i]!, hash: tx.hash() }))
    const { block, deposits } = decodeOpBlock(this.rules, rlp)
    const leading = deposits.map((envelope, i) => ({ deposit: decodeDepositTransaction(envelope), sender: senders[i]!, hash: depositTransactionHash(envelope) }))
    return [...leading, ...block.transactions.map((tx, i) => ({ tx, sender: senders[deposits.length + i]!, hash: tx.hash() }))]
  }

  /** A pre-confirmed transaction as a job carries it: a deposit (OP Stack) from its envelope. */
  private decoded(t: WireTransaction, header: BlockHeader): ReplayTransaction {
    if (t.raw[0] === DEPOSIT_TX_TYPE) return { deposit: decodeDepositTransaction(t.raw), sender: t.sender, hash: t.hash }
    return { tx: createTxFromRLP(t.raw, { common: header.common }), raw: t.raw, sender: t.sender, hash: t.hash }
  }
}
