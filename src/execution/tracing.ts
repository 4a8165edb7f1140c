/**
 * Tracing on our EVM, as geth's debug_trace* methods run it: the transactions of a block replayed on their
 * parent's state (block-execution.ts, the same code that built and imported the block) with a tracer on the
 * ones asked for, and a call traced on a block's state (call-executor.ts). The tracer is geth's by name
 * (evm/tracers: callTracer, prestateTracer, …) or, when none is named, the struct logger.
 *
 * It owns the order of a replay: the block's opening system calls, every earlier transaction untraced, the
 * traced one with its tracer's observers and its place in the block (log index, hash, position). It never
 * writes: the WorldState it runs on is dropped with the replay. Everything is bounded by the caller's deadline
 * (the EVM stops at it with ExecutionTimeout).
 */

import type { BlockHeader } from '@ethereumjs/block'
import type { TypedTransaction } from '@ethereumjs/tx'
import { createTracer, type Tracer } from '../evm/tracers/index.ts'
import type { StateReader } from '../state/state-reader.ts'
import { bytesToBigInt } from '../primitives/hex.ts'
import { BlockExecution } from './block-execution.ts'
import { txInputOf } from './evm-env.ts'

export { TracerConfigError, TraceTooLarge } from '../evm/tracers/index.ts'

/** What to trace with: geth's TraceConfig, parsed (rpc/params/trace.ts). */
export interface TraceSpec {
  /** A tracer's name; absent: the struct logger, configured by `logger`. */
  readonly tracer?: string
  readonly tracerConfig?: unknown
  /** The struct logger's options (geth's top-level enableMemory, disableStack, disableStorage, enableReturnData, limit). */
  readonly logger?: Readonly<Record<string, unknown>>
}

/** One transaction's trace, as debug_traceBlock* answers it. */
export interface TracedTransaction {
  readonly txHash: Uint8Array
  readonly result: unknown
}

/** A block's transaction to replay: the decoded transaction, its sender and hash. */
export interface ReplayTransaction {
  readonly tx: TypedTransaction
  readonly sender: Uint8Array
  readonly hash: Uint8Array
}

export function tracerFor(spec: TraceSpec): Tracer {
  if (spec.tracer === undefined || spec.tracer === '') return createTracer('', spec.logger ?? {})
  return createTracer(spec.tracer, spec.tracerConfig)
}

/** Checks a spec before any work: an unknown tracer or a bad configuration throws TracerConfigError. */
export function checkTraceSpec(spec: TraceSpec): void {
  tracerFor(spec)
}

export interface BlockReplay {
  /** The block's header (its environment), and its hash where it has one (zero for the open block). */
  readonly header: BlockHeader
  readonly blockHash: Uint8Array
  /** The parent's state. */
  readonly base: StateReader
  /** BLOCKHASH. */
  readonly blockHashOf: (n: bigint) => bigint
  readonly transactions: readonly ReplayTransaction[]
}

/**
 * Replays `replay`'s transactions and traces those whose position `traced` accepts (stopping after the last
 * one asked for). A transaction the block could not include would mean a corrupt store: it throws.
 */
export function traceBlock(replay: BlockReplay, spec: TraceSpec, traced: (index: number) => boolean, last: number, deadline: number): TracedTransaction[] {
  const exec = new BlockExecution(replay.base, replay.header, replay.blockHashOf)
  exec.open(replay.header.parentHash, replay.header.parentBeaconBlockRoot)
  const out: TracedTransaction[] = []
  let logs = 0
  const blockHash = bytesToBigInt(replay.blockHash)
  for (let i = 0; i <= last && i < replay.transactions.length; i++) {
    const { tx, sender, hash } = replay.transactions[i]!
    const input = txInputOf(tx, sender)
    if (!traced(i)) {
      logs += exec.run(input, { deadline }).logs.length
      continue
    }
    const tracer = tracerFor(spec)
    tracer.txStart({ world: exec.world, block: exec.env, rules: exec.rules, tx: input, firstLogIndex: logs, blockHash, txHash: bytesToBigInt(hash), txIndex: i })
    const result = exec.run(input, { deadline, observer: tracer.observer, ...(tracer.steps === undefined ? {} : { steps: tracer.steps }) })
    tracer.txEnd(result)
    logs += result.logs.length
    out.push({ txHash: hash, result: tracer.result() })
  }
  return out
}
