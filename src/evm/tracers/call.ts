/**
 * geth's callTracer: the transaction's frames as a tree (type, from, to, gas, gasUsed, input, output, error,
 * revertReason, value, calls and, with `withLog`, logs with their block index and their position among the
 * frame's calls); `onlyTopCall` keeps the transaction's own frame alone. As geth: the top frame's `gas` is
 * the transaction's gas limit and its `gasUsed` the receipt's (intrinsic gas and refunds included); a
 * SELFDESTRUCT is a child frame of the frame that ran it; a failed create has no `to`; logs of frames whose
 * changes were undone (and of their children) are dropped at the end.
 *
 * It owns its frames only: every byte string it keeps is copied (observer.ts). flatCallTracer reads its
 * frames (`frames`, `top`) and adjusts them through the hooks below; nothing else may.
 */

import type { FrameObserver } from '../observer.ts'
import { MessageKind, type FrameResult, type Message, type TxResult } from '../types.ts'
import type { WorldState } from '../world-state.ts'
import { address, copy, data, hash, quantity, revertReason } from './json.ts'
import { configObject, flag, type TraceTxContext, type Tracer } from './tracer.ts'

const EMPTY = new Uint8Array(0)
const KIND_NAMES = ['CALL', 'CALLCODE', 'DELEGATECALL', 'STATICCALL', 'CREATE', 'CREATE2'] as const
export type FrameType = (typeof KIND_NAMES)[number] | 'SELFDESTRUCT'

export interface CallLog {
  readonly address: bigint
  readonly topics: readonly bigint[]
  readonly data: Uint8Array
  readonly index: number
  readonly position: number
}

export interface CallFrame {
  readonly type: FrameType
  readonly from: bigint
  gas: bigint
  gasUsed: bigint
  to: bigint | undefined
  readonly input: Uint8Array
  output: Uint8Array | undefined
  error: string | undefined
  revertReason: string | undefined
  readonly calls: CallFrame[]
  logs: CallLog[]
  value: bigint | undefined
  /** The frame's changes were undone (geth's revertedSnapshot): its logs and its children's go. */
  reverted: boolean
}

export interface CallTracerConfig {
  readonly onlyTopCall: boolean
  readonly withLog: boolean
}

export function callTracerConfig(config: unknown): CallTracerConfig {
  const c = configObject(config)
  return { onlyTopCall: flag(c, 'onlyTopCall'), withLog: flag(c, 'withLog') }
}

const totalGas = (gas: number, reserve: bigint | undefined): bigint => BigInt(gas) + (reserve ?? 0n)

export class CallTracer implements Tracer, FrameObserver {
  readonly observer: FrameObserver = this
  /** The open frames, the transaction's first; after the transaction, the transaction's frame alone. */
  readonly frames: CallFrame[] = []
  /** geth's depth of the frame running now (0 for the transaction's own). */
  private depth = 0
  private gasLimit = 0n
  private world: WorldState | undefined
  private firstLogIndex = 0

  constructor(readonly config: CallTracerConfig) {}

  txStart(ctx: TraceTxContext): void {
    this.gasLimit = ctx.tx.gasLimit
    this.world = ctx.world
    this.firstLogIndex = ctx.firstLogIndex ?? 0
  }

  enter(msg: Message): void {
    const depth = msg.depth
    this.depth = depth
    if (this.config.onlyTopCall && depth > 0) return
    const kind = msg.kind
    const isCreate = kind === MessageKind.Create || kind === MessageKind.Create2
    this.frames.push({
      type: KIND_NAMES[kind]!,
      // geth's from and to: the frame that calls and the address whose code runs (DELEGATECALL's caller is the
      // calling contract, its `to` the code's address; CALLCODE's `to` likewise)
      from: kind === MessageKind.DelegateCall ? msg.recipient : msg.caller,
      gas: depth === 0 ? this.gasLimit : totalGas(msg.gas, msg.gasReserve),
      gasUsed: 0n,
      to: isCreate ? msg.recipient : msg.codeAddress,
      input: copy(msg.input),
      output: undefined,
      error: undefined,
      revertReason: undefined,
      calls: [],
      logs: [],
      value: kind === MessageKind.StaticCall ? undefined : msg.value,
      reverted: false,
    })
  }

  exit(result: FrameResult, error: string | undefined, output: Uint8Array): void {
    const depth = this.depth
    if (depth === 0) {
      if (this.frames.length === 1) finish(this.frames[0]!, output, error)
      return
    }
    this.depth = depth - 1
    if (this.config.onlyTopCall || this.frames.length <= 1) return
    const frame = this.frames.pop()!
    frame.gasUsed = frame.gas - totalGas(result.gasLeft, result.gasReserve)
    finish(frame, output, error)
    this.frames[this.frames.length - 1]!.calls.push(frame)
  }

  log(addr: bigint, topics: readonly bigint[], bytes: Uint8Array): void {
    if (!this.config.withLog || (this.config.onlyTopCall && this.depth > 0)) return
    const frame = this.frames[this.frames.length - 1]
    if (frame === undefined) return
    const index = this.firstLogIndex + (this.world === undefined ? 0 : this.world.logs.length - 1)
    frame.logs.push({ address: addr, topics: topics.slice(), data: bytes, index, position: frame.calls.length })
  }

  selfDestruct(addr: bigint, beneficiary: bigint, balance: bigint): void {
    // geth enters and leaves a SELFDESTRUCT frame one deeper than the frame running it
    if (this.config.onlyTopCall) return
    const frame = this.frames[this.frames.length - 1]
    if (frame === undefined) return
    frame.calls.push({
      type: 'SELFDESTRUCT', from: addr, gas: 0n, gasUsed: 0n, to: beneficiary, input: EMPTY, output: EMPTY,
      error: undefined, revertReason: undefined, calls: [], logs: [], value: balance, reverted: false,
    })
  }

  txEnd(result: TxResult): void {
    const top = this.frames[0]
    if (top === undefined) return
    top.gasUsed = result.gasUsed
    if (this.config.withLog) clearFailedLogs(top, false)
  }

  /** The transaction's frame. */
  top(): CallFrame | undefined {
    return this.frames.length === 1 ? this.frames[0] : undefined
  }

  result(): unknown {
    const top = this.top()
    if (top === undefined) throw new Error('incorrect number of top-level calls')
    return callFrameJson(top)
  }
}

/** geth's processOutput: output on success; on failure the error, the revert data and its reason. */
function finish(frame: CallFrame, output: Uint8Array, error: string | undefined): void {
  if (error === undefined) {
    frame.output = copy(output)
    return
  }
  frame.error = error
  frame.reverted = true
  if (frame.type === 'CREATE' || frame.type === 'CREATE2') frame.to = undefined
  if (error !== 'execution reverted' || output.length === 0) return
  frame.output = copy(output)
  frame.revertReason = revertReason(output)
}

function clearFailedLogs(frame: CallFrame, parentFailed: boolean): void {
  const failed = (frame.error !== undefined && frame.reverted) || parentFailed
  if (failed) frame.logs = []
  for (const child of frame.calls) clearFailedLogs(child, failed)
}

export function callFrameJson(f: CallFrame): Record<string, unknown> {
  const out: Record<string, unknown> = { from: address(f.from), gas: quantity(f.gas), gasUsed: quantity(f.gasUsed) }
  if (f.to !== undefined) out.to = address(f.to)
  out.input = data(f.input)
  if (f.output !== undefined && f.output.length > 0) out.output = data(f.output)
  if (f.error !== undefined) out.error = f.error
  if (f.revertReason !== undefined && f.revertReason !== '') out.revertReason = f.revertReason
  if (f.calls.length > 0) out.calls = f.calls.map(callFrameJson)
  if (f.logs.length > 0) {
    out.logs = f.logs.map((l) => ({ address: address(l.address), topics: l.topics.map(hash), data: data(l.data), index: quantity(l.index), position: quantity(l.position) }))
  }
  if (f.value !== undefined) out.value = quantity(f.value)
  out.type = f.type
  return out
}

