/**
 * Execution jobs (eth_call, eth_estimateGas, eth_createAccessList, eth_simulateV1, the debug_trace* methods)
 * and where they run: a
 * target is either a sealed block (its number) or a pre-confirmed snapshot. Jobs and targets are plain
 * data, so they can be run here or posted to an execution worker unchanged (structured clone carries
 * bigint, Map and bytes), and so are their results. A simulation asked with `answer: 'json'` answers the
 * JSON-RPC result's text, formatted where it ran: cloning a simulation's blocks (hundreds of byte arrays
 * and bigints) cost more than formatting them, and the main thread then only splices the text in. An
 * executor tells its observer what each job's EVM runs cost (gas and seconds), for the node's
 * gas-per-second metrics.
 */

import type { AccessListResult, BlockOverrides, CallRequest, StateOverrides } from '../api.ts'
import type { PreconfirmedSnapshot } from '../../preconf/snapshot.ts'
import type { SimulatedBlock, SimulatePayload } from '../../simulate/types.ts'
import type { TraceSpec, TracedTransaction } from '../../execution/tracing.ts'

export type ExecutionJob =
  | { readonly kind: 'call'; readonly request: CallRequest; readonly state?: StateOverrides; readonly block?: BlockOverrides }
  | { readonly kind: 'estimateGas'; readonly request: CallRequest; readonly state?: StateOverrides }
  | { readonly kind: 'createAccessList'; readonly request: CallRequest }
  | { readonly kind: 'simulate'; readonly payload: SimulatePayload; readonly answer?: 'json' }
  | TraceCallJob
  | TraceBlockJob

/** debug_traceCall: the call traced on the target's state, within `timeoutMs`. */
export interface TraceCallJob {
  readonly kind: 'traceCall'
  readonly request: CallRequest
  readonly state?: StateOverrides
  readonly block?: BlockOverrides
  readonly spec: TraceSpec
  readonly timeoutMs: number
}

/**
 * debug_traceTransaction / debug_traceBlock*: the target block's transactions replayed on its parent's state,
 * the one at `index` traced (every one without it), within `timeoutMs`. A sealed target's transactions are
 * read from the chain where the job runs; a pending target's come with the job (`transactions`: a worker's
 * replica holds the open block's state, not its transactions).
 */
export interface TraceBlockJob {
  readonly kind: 'traceBlock'
  readonly spec: TraceSpec
  readonly index?: number
  readonly transactions?: readonly WireTransaction[]
  readonly timeoutMs: number
}

/** A transaction as a job carries it: its canonical encoding, sender and hash. */
export interface WireTransaction {
  readonly raw: Uint8Array
  readonly sender: Uint8Array
  readonly hash: Uint8Array
}

/** A traced call's result, boxed (a tracer's JSON may be any value). */
export interface TraceCallResult {
  readonly trace: unknown
}

/** `string`: a simulation's JSON-RPC result as text (a job with `answer: 'json'`). */
export type JobResult = Uint8Array | bigint | AccessListResult | SimulatedBlock[] | string | TraceCallResult | TracedTransaction[]

export type ExecutionTarget =
  | { readonly kind: 'sealed'; readonly number: bigint }
  | { readonly kind: 'pending'; readonly snapshot: PreconfirmedSnapshot }

/**
 * Told of each job's EVM work as the job answers (a result or an error), on the node's main thread: the gas
 * its EVM runs used and the seconds they took (execution/evm-meter.ts: every run of the job that ended,
 * summed; a run stopped at its time limit adds nothing, and a killed job, which never answers, is not
 * reported). The node's metrics implement it.
 */
export interface ExecutionObserver {
  executed(kind: ExecutionJob['kind'], gas: number, seconds: number): void
}

/** Runs jobs somewhere: on this thread, or in a worker. */
export interface Executor {
  run(job: ExecutionJob, target: ExecutionTarget): Promise<JobResult>
  /** Jobs waiting for a worker, and jobs stopped at their time limit (their worker terminated), so far. */
  stats?(): { queued: number; killed: number }
  close(): Promise<void>
}
