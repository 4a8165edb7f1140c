/**
 * The debug_trace* methods' port (NodeApi.traces): a transaction traced by its hash, a call traced at a
 * block, every transaction of a block traced, with geth's tracers (execution/tracing.ts), at every block the
 * node keeps and, where pre-confirmations are on, at `pending`: a pre-confirmed transaction is traced in the
 * open block it was pre-confirmed in, replayed on the sealed parent's state up to it.
 *
 * It owns finding what to trace (the chain's transaction index, the request's one snapshot) and checking the
 * tracer before any work; the work itself runs where eth_call runs (the executor: the execution workers, never
 * the thread that keeps the flashblock cadence), bounded by the trace's timeout and the node's execution
 * limit. It never writes.
 */

import { FlashnodeError } from '../errors/errors.ts'
import { checkTraceSpec, TracerConfigError, type TraceSpec, type TracedTransaction } from '../execution/tracing.ts'
import { PENDING, type BlockId } from '../primitives/block-id.ts'
import { bytesToHex } from '../primitives/hex.ts'
import type { PreconfirmedSnapshot } from '../preconf/snapshot.ts'
import type { BlockOverrides, CallRequest } from '../execution/requests.ts'
import type { StateOverrides } from '../state/account-overrides.ts'
import type { BlockResolver, ResolvedBlock } from './block-resolver.ts'
import type { ChainReader } from './chain-reader.ts'
import type { ExecutionTarget, Executor, TraceCallResult, WireTransaction } from './execution/jobs.ts'

export type { TraceSpec, TracedTransaction } from '../execution/tracing.ts'

/** geth's default trace timeout. */
export const DEFAULT_TRACE_TIMEOUT_MS = 5_000

export interface TraceApi {
  /** geth's `transaction not found` when the node has no such transaction in a block (pre-confirmed included). */
  traceTransaction(hash: Uint8Array, spec: TraceSpec, timeoutMs: number): Promise<unknown>
  traceCall(request: CallRequest, block: BlockId, spec: TraceSpec, timeoutMs: number, state?: StateOverrides, blockOverrides?: BlockOverrides): Promise<unknown>
  /** Every transaction of the block, each with its trace; `notFound` for a block the node does not have. */
  traceBlock(block: BlockId, spec: TraceSpec, timeoutMs: number): Promise<TracedTransaction[]>
}

export class TraceService implements TraceApi {
  constructor(
    private readonly chain: ChainReader,
    private readonly resolver: BlockResolver,
    private readonly executor: Executor,
  ) {}

  async traceTransaction(hash: Uint8Array, spec: TraceSpec, timeoutMs: number): Promise<unknown> {
    check(spec)
    const sealed = this.chain.store.txLocation(hash)
    if (sealed !== undefined) return this.traceAt({ kind: 'sealed', number: sealed.number }, spec, timeoutMs, sealed.index)
    const snapshot = this.resolver.tryResolve(PENDING)?.snapshot
    const index = snapshot?.positions.get(bytesToHex(hash))
    if (snapshot === undefined || index === undefined) throw new FlashnodeError('notFound', 'transaction not found')
    return this.traceAt({ kind: 'pending', snapshot }, spec, timeoutMs, index, snapshot)
  }

  async traceCall(request: CallRequest, block: BlockId, spec: TraceSpec, timeoutMs: number, state?: StateOverrides, blockOverrides?: BlockOverrides): Promise<unknown> {
    check(spec)
    const job = { kind: 'traceCall' as const, request, spec, timeoutMs, ...(state ? { state } : {}), ...(blockOverrides ? { block: blockOverrides } : {}) }
    return ((await this.executor.run(job, targetOf(this.resolver.resolve(block)))) as TraceCallResult).trace
  }

  async traceBlock(id: BlockId, spec: TraceSpec, timeoutMs: number): Promise<TracedTransaction[]> {
    check(spec)
    const block = this.resolver.resolve(id)
    const job = { kind: 'traceBlock' as const, spec, timeoutMs, ...(block.snapshot !== undefined ? { transactions: wireTransactions(block.snapshot) } : {}) }
    return (await this.executor.run(job, targetOf(block))) as TracedTransaction[]
  }

  private async traceAt(target: ExecutionTarget, spec: TraceSpec, timeoutMs: number, index: number, snapshot?: PreconfirmedSnapshot): Promise<unknown> {
    const job = { kind: 'traceBlock' as const, spec, timeoutMs, index, ...(snapshot !== undefined ? { transactions: wireTransactions(snapshot, index + 1) } : {}) }
    const traced = (await this.executor.run(job, target)) as TracedTransaction[]
    return traced[0]!.result
  }
}

function targetOf(block: ResolvedBlock): ExecutionTarget {
  return block.snapshot !== undefined ? { kind: 'pending', snapshot: block.snapshot } : { kind: 'sealed', number: block.number }
}

/** The open block's transactions (the first `count`) as a job carries them. */
function wireTransactions(snapshot: PreconfirmedSnapshot, count = snapshot.transactions.length): WireTransaction[] {
  return snapshot.transactions.slice(0, count).map((t) => ({ raw: t.raw, sender: t.sender, hash: t.hash }))
}

/** An unknown tracer or a bad configuration is the caller's mistake, found before any work. */
function check(spec: TraceSpec): void {
  try {
    checkTraceSpec(spec)
  } catch (e) {
    if (e instanceof TracerConfigError) throw new FlashnodeError('invalidParams', e.message)
    throw e
  }
}
