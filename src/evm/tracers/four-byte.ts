/**
 * geth's 4byteTracer: how often each function selector was called with each argument-data size, as
 * {"0x<selector>-<size>": count}, over every call frame (the transaction's own included) with at least four
 * bytes of input, except calls to precompiles. Creates and self-destructs are not calls. It keeps counts only.
 */

import type { FrameObserver } from '../observer.ts'
import { precompileAddressSet } from '../precompiles/registry.ts'
import { MessageKind, type Message } from '../types.ts'
import { data } from './json.ts'
import type { TraceTxContext, Tracer } from './tracer.ts'

export class FourByteTracer implements Tracer, FrameObserver {
  readonly observer: FrameObserver = this
  private readonly ids = new Map<string, number>()
  private precompiles: ReadonlySet<bigint> = new Set()

  txStart(ctx: TraceTxContext): void {
    this.precompiles = precompileAddressSet(ctx.rules)
  }

  enter(msg: Message): void {
    const input = msg.input
    if (input.length < 4) return
    if (msg.kind === MessageKind.Create || msg.kind === MessageKind.Create2) return
    if (this.precompiles.has(msg.codeAddress)) return
    const key = `${data(input.subarray(0, 4))}-${input.length - 4}`
    this.ids.set(key, (this.ids.get(key) ?? 0) + 1)
  }

  exit(): void {}
  log(): void {}
  selfDestruct(): void {}
  txEnd(): void {}

  result(): unknown {
    return Object.fromEntries(this.ids)
  }
}
