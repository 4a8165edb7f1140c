/**
 * The contract of geth's built-in tracers on our EVM (callTracer, flatCallTracer, prestateTracer, 4byteTracer,
 * noopTracer, muxTracer, erc7562Tracer): a tracer is a FrameObserver (observer.ts), optionally a StepObserver
 * (step-observer.ts), plus the two transaction-level moments geth's OnTxStart / OnTxEnd give it, and a result
 * in geth's JSON.
 *
 * How a caller runs one (traceTransaction below does exactly this): `txStart` with the transaction and the
 * WorldState it is about to run on (before any gas is bought: the prestate tracer reads the sender's balance
 * then), executeTransaction with `observer` (and `steps` when the tracer has them), `txEnd` with its TxResult, then `result()`. A transaction that is
 * invalid (InvalidTransaction) has no trace: the caller reports the error instead.
 *
 * Tracers only look: they never write the WorldState, never change a frame's result, and copy whatever
 * borrowed bytes they keep (observer.ts). One tracer object traces one transaction.
 */

import type { Rules } from '../fork.ts'
import type { FrameObserver } from '../observer.ts'
import type { StepObserver } from '../step-observer.ts'
import { executeTransaction } from '../transaction.ts'
import type { BlockEnv, TxInput, TxOptions, TxResult } from '../types.ts'
import type { WorldState } from '../world-state.ts'

/** What a tracer knows of the transaction it traces. */
export interface TraceTxContext {
  readonly world: WorldState
  readonly block: BlockEnv
  readonly rules: Rules
  readonly tx: TxInput
  /** The block index of the transaction's first log (logs of earlier transactions of the block); default 0. */
  readonly firstLogIndex?: number
  /** For flatCallTracer's entries (geth's tracers.Context): the block's and transaction's hash and position. */
  readonly blockHash?: bigint
  readonly txHash?: bigint
  readonly txIndex?: number
  /**
   * Accounts the chain's own rules credit around every transaction, which prestateTracer looks up as it does
   * the coinbase: on an OP Stack chain op-geth's base fee vault (eth/tracers/native/prestate.go OnTxStart).
   */
  readonly chainAccounts?: readonly bigint[]
}

export interface Tracer {
  readonly observer: FrameObserver
  /** Opcode-level tracers (the struct logger, erc7562Tracer) also see every step (step-observer.ts). */
  readonly steps?: StepObserver
  txStart(ctx: TraceTxContext): void
  txEnd(result: TxResult): void
  /** The tracer's JSON value (plain objects, strings and numbers), after txEnd. */
  result(): unknown
}

/** A tracer name geth does not know, or a configuration it refuses (the RPC layer's invalid-params). */
export class TracerConfigError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'TracerConfigError'
  }
}

/** A trace that grew past its tracer's output bound (the struct logger's): the RPC layer's response too large. */
export class TraceTooLarge extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'TraceTooLarge'
  }
}

/** txStart, executeTransaction with the tracer's observer, txEnd: the trace of one transaction. */
export function traceTransaction(
  tracer: Tracer,
  ctx: TraceTxContext,
  options: Omit<TxOptions, 'observer' | 'steps'> = {},
): { readonly result: TxResult; readonly trace: unknown } {
  tracer.txStart(ctx)
  const steps = tracer.steps === undefined ? {} : { steps: tracer.steps }
  const result = executeTransaction(ctx.world, ctx.block, ctx.rules, ctx.tx, { ...options, observer: tracer.observer, ...steps })
  tracer.txEnd(result)
  return { result, trace: tracer.result() }
}

/** A configuration object's boolean option (absent is false); anything else is refused. */
export function flag(config: Readonly<Record<string, unknown>>, name: string): boolean {
  const v = config[name]
  if (v === undefined || v === null) return false
  if (typeof v !== 'boolean') throw new TracerConfigError(`invalid tracer config: ${name} must be a boolean`)
  return v
}

/** A configuration as an object (absent or null is empty). */
export function configObject(config: unknown): Readonly<Record<string, unknown>> {
  if (config === undefined || config === null) return {}
  if (typeof config !== 'object' || Array.isArray(config)) throw new TracerConfigError('invalid tracer config: not an object')
  return config as Record<string, unknown>
}
