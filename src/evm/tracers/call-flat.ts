/**
 * geth's flatCallTracer (Parity's trace format): callTracer's frames, flattened depth first, each with its
 * traceAddress and subtraces count; calls to precompiles dropped unless `includePrecompiles`; geth's error
 * words turned into Parity's with `convertParityErrors`. A frame that failed for a reason other than a revert
 * has no `result`. Built on CallTracer (call.ts), whose frames it adjusts only as geth's does: a child frame
 * always has a value (0 for STATICCALL).
 */

import type { FrameObserver } from '../observer.ts'
import { precompileAddressSet } from '../precompiles/registry.ts'
import type { FrameResult, Message, TxResult } from '../types.ts'
import { CallTracer, type CallFrame } from './call.ts'
import { address, data, hash, quantity } from './json.ts'
import { configObject, flag, type TraceTxContext, type Tracer } from './tracer.ts'

const PARITY_ERRORS: ReadonlyMap<string, string> = new Map([
  ['contract creation code storage out of gas', 'Out of gas'],
  ['out of gas', 'Out of gas'],
  ['gas uint64 overflow', 'Out of gas'],
  ['max code size exceeded', 'Out of gas'],
  ['invalid jump destination', 'Bad jump destination'],
  ['execution reverted', 'Reverted'],
  ['return data out of bounds', 'Out of bounds'],
  ['stack limit reached 1024 (1023)', 'Out of stack'],
  ['precompiled failed', 'Built-in failed'],
  ['invalid input length', 'Built-in failed'],
])
const PARITY_ERROR_PREFIXES: readonly (readonly [string, string])[] = [
  ['out of gas:', 'Out of gas'],
  ['invalid opcode:', 'Bad instruction'],
  ['stack underflow', 'Stack underflow'],
]

export function parityError(error: string): string {
  const mapped = PARITY_ERRORS.get(error)
  if (mapped !== undefined) return mapped
  for (const [prefix, parity] of PARITY_ERROR_PREFIXES) if (error.startsWith(prefix)) return parity
  return error
}

export interface FlatCallTracerConfig {
  readonly convertParityErrors: boolean
  readonly includePrecompiles: boolean
}

export function flatCallTracerConfig(config: unknown): FlatCallTracerConfig {
  const c = configObject(config)
  return { convertParityErrors: flag(c, 'convertParityErrors'), includePrecompiles: flag(c, 'includePrecompiles') }
}

export class FlatCallTracer implements Tracer, FrameObserver {
  readonly observer: FrameObserver = this
  private readonly inner = new CallTracer({ onlyTopCall: false, withLog: false })
  private precompiles: ReadonlySet<bigint> = new Set()
  private ctx: TraceTxContext | undefined

  constructor(readonly config: FlatCallTracerConfig) {}

  txStart(ctx: TraceTxContext): void {
    this.ctx = ctx
    this.precompiles = precompileAddressSet(ctx.rules)
    this.inner.txStart(ctx)
  }

  enter(msg: Message): void {
    this.inner.enter(msg)
    if (msg.depth === 0) return
    const frame = this.inner.frames[this.inner.frames.length - 1]!
    if (frame.value === undefined) frame.value = 0n
  }

  exit(result: FrameResult, error: string | undefined, output: Uint8Array): void {
    const open = this.inner.frames.length
    this.inner.exit(result, error, output)
    if (open <= 1 || this.config.includePrecompiles) return
    const calls = this.inner.frames[this.inner.frames.length - 1]!.calls
    const last = calls[calls.length - 1]!
    if ((last.type === 'CALL' || last.type === 'STATICCALL') && last.to !== undefined && this.precompiles.has(last.to)) calls.pop()
  }

  log(addr: bigint, topics: readonly bigint[], bytes: Uint8Array): void {
    this.inner.log(addr, topics, bytes)
  }

  selfDestruct(addr: bigint, beneficiary: bigint, balance: bigint): void {
    this.inner.selfDestruct(addr, beneficiary, balance)
  }

  txEnd(result: TxResult): void {
    this.inner.txEnd(result)
  }

  result(): unknown {
    const top = this.inner.top()
    if (top === undefined) throw new Error('invalid number of calls')
    const out: Record<string, unknown>[] = []
    this.flatten(top, [], out)
    return out
  }

  private flatten(frame: CallFrame, traceAddress: number[], out: Record<string, unknown>[]): void {
    const entry = flatEntry(frame)
    const ctx = this.ctx
    let error = frame.error
    if (error !== undefined && this.config.convertParityErrors) error = parityError(error)
    const dropResult = frame.error !== undefined && frame.error !== 'execution reverted'
    const json: Record<string, unknown> = {
      action: entry.action,
      blockHash: ctx?.blockHash === undefined || ctx.blockHash === 0n ? null : hash(ctx.blockHash),
      blockNumber: ctx === undefined ? 0 : Number(ctx.block.number),
      ...(error !== undefined ? { error } : {}),
      ...(entry.result !== undefined && !dropResult ? { result: entry.result } : {}),
      subtraces: frame.calls.length,
      traceAddress,
      transactionHash: ctx?.txHash === undefined || ctx.txHash === 0n ? null : hash(ctx.txHash),
      transactionPosition: ctx?.txIndex ?? 0,
      type: entry.type,
    }
    out.push(json)
    frame.calls.forEach((child, i) => this.flatten(child, [...traceAddress, i], out))
  }
}

function flatEntry(f: CallFrame): { type: string; action: Record<string, unknown>; result?: Record<string, unknown> } {
  const value = f.value === undefined ? {} : { value: quantity(f.value) }
  switch (f.type) {
    case 'CREATE':
    case 'CREATE2':
      return {
        type: 'create',
        action: { creationMethod: f.type.toLowerCase(), from: address(f.from), gas: quantity(f.gas), ...value, init: data(f.input) },
        result: { gasUsed: quantity(f.gasUsed), ...(f.to !== undefined ? { address: address(f.to) } : {}), code: data(f.output ?? EMPTY) },
      }
    case 'SELFDESTRUCT':
      return {
        type: 'suicide',
        action: { address: address(f.from), ...(f.value === undefined ? {} : { balance: quantity(f.value) }), ...(f.to !== undefined ? { refundAddress: address(f.to) } : {}) },
      }
    default:
      return {
        type: 'call',
        action: { from: address(f.from), ...(f.to !== undefined ? { to: address(f.to) } : {}), gas: quantity(f.gas), ...value, callType: f.type.toLowerCase(), input: data(f.input) },
        result: { gasUsed: quantity(f.gasUsed), output: data(f.output ?? EMPTY) },
      }
  }
}

const EMPTY = new Uint8Array(0)
