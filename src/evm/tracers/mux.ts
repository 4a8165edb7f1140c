/**
 * geth's noopTracer (nothing observed, `{}` as result) and muxTracer (several tracers over one run: its
 * configuration is {tracerName: config, ...} and its result {tracerName: result, ...}). The mux only fans each
 * hook out, in configuration order; it hears state reads, and sees opcode steps, only when one of its tracers
 * does (so a mux of frame-level tracers keeps the EVM's fast path).
 */

import type { FrameObserver, StateReadObserver } from '../observer.ts'
import type { StepObserver } from '../step-observer.ts'
import type { FrameResult, Message, TxResult } from '../types.ts'
import type { TraceTxContext, Tracer } from './tracer.ts'

export class NoopTracer implements Tracer, FrameObserver {
  readonly observer: FrameObserver = this
  enter(): void {}
  exit(): void {}
  log(): void {}
  selfDestruct(): void {}
  txStart(): void {}
  txEnd(): void {}
  result(): unknown {
    return {}
  }
}

export class MuxTracer implements Tracer, FrameObserver {
  readonly observer: FrameObserver = this
  readonly state: StateReadObserver | undefined
  readonly steps?: StepObserver
  private readonly observers: readonly FrameObserver[]

  constructor(private readonly tracers: ReadonlyMap<string, Tracer>) {
    this.observers = [...tracers.values()].map((t) => t.observer)
    const readers = this.observers.map((o) => o.state).filter((s): s is StateReadObserver => s !== undefined)
    this.state =
      readers.length === 0
        ? undefined
        : {
            account: (address) => readers.forEach((r) => r.account(address)),
            slot: (address, slot) => readers.forEach((r) => r.slot(address, slot)),
          }
    const steppers = [...tracers.values()].map((t) => t.steps).filter((s): s is StepObserver => s !== undefined)
    if (steppers.length === 1) this.steps = steppers[0]!
    else if (steppers.length > 1) this.steps = { step: (...args) => steppers.forEach((s) => s.step(...args)) }
  }

  txStart(ctx: TraceTxContext): void {
    for (const t of this.tracers.values()) t.txStart(ctx)
  }

  enter(msg: Message): void {
    for (const o of this.observers) o.enter(msg)
  }

  exit(result: FrameResult, error: string | undefined, output: Uint8Array): void {
    for (const o of this.observers) o.exit(result, error, output)
  }

  log(address: bigint, topics: readonly bigint[], data: Uint8Array): void {
    for (const o of this.observers) o.log(address, topics, data)
  }

  selfDestruct(address: bigint, beneficiary: bigint, balance: bigint): void {
    for (const o of this.observers) o.selfDestruct(address, beneficiary, balance)
  }

  txEnd(result: TxResult): void {
    for (const t of this.tracers.values()) t.txEnd(result)
  }

  result(): unknown {
    const out: Record<string, unknown> = {}
    for (const [name, t] of this.tracers) out[name] = t.result()
    return out
  }
}
