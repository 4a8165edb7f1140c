/**
 * geth's struct logger (eth/tracers/logger, the default of debug_traceTransaction when no `tracer` is named):
 * one entry per executed opcode, { pc, op, gas, gasCost, depth, error?, stack?, returnData?, memory?, storage?,
 * refund? }, and the transaction's { gas, failed, returnValue, structLogs } in geth's JSON forms (numbers for
 * pc/gas/gasCost/depth/refund, 0x-quantities for stack words, 0x-prefixed 32-byte words for memory and for
 * storage keys and values, 0x data for return data; depth counts from 1).
 *
 * gasCost is not known before an opcode runs on our EVM, so each open frame holds its last entry until the
 * cost can be read: from the frame's next step (gas before minus gas after), at a sub-frame's `enter` for
 * CALL-family and CREATE opcodes (step-observer.ts: the caller's gas then), or at the frame's `exit` (its
 * gasLeft; for an exceptional halt, the cost geth reports for the halting opcode: see haltCost).
 *
 * Memory bound: every kept entry adds its JSON size to a running estimate; past MAX_TRACE_BYTES the kept
 * entries are dropped and result() throws `trace exceeds N bytes`. geth's own `limit` (a byte budget of the
 * output since geth 1.14.13: entries stop once it is passed) is honoured as well.
 *
 * It only looks: it copies what it keeps out of the borrowed stack/memory/return data, reads storage and the
 * refund counter from the WorldState without writing it, and never throws during the run.
 */

import { forkGasFor, MAX_STACK, MIN_STACK } from '../gas-rules.ts'
import type { FrameObserver } from '../observer.ts'
import { opcodeName } from '../opcode-names.ts'
import type { StepFrame, StepObserver } from '../step-observer.ts'
import { MessageKind, Status, type FrameResult, type Message, type TxResult } from '../types.ts'
import type { WorldState } from '../world-state.ts'
import type { Word } from '../words.ts'
import { configObject, flag, TracerConfigError, TraceTooLarge, type TraceTxContext, type Tracer } from './tracer.ts'

/** The largest trace (its estimated JSON size) the struct logger keeps: 256 MiB. */
export const MAX_TRACE_BYTES = 256 * 1024 * 1024

export interface StructLoggerConfig {
  readonly enableMemory: boolean
  readonly disableStack: boolean
  readonly disableStorage: boolean
  readonly enableReturnData: boolean
  /** geth's Limit: stop keeping entries once the output passes this many bytes (0: no limit). */
  readonly limit: number
  /** Our own bound on the output (MAX_TRACE_BYTES unless a test lowers it). */
  readonly maxBytes: number
}

/** geth's logger.Config as debug_traceTransaction's trace config carries it (unknown keys are ignored, as Go's JSON does). */
export function structLoggerConfig(config: unknown, maxBytes = MAX_TRACE_BYTES): StructLoggerConfig {
  const c = configObject(config)
  const limit = c.limit ?? 0
  if (typeof limit !== 'number' || !Number.isSafeInteger(limit)) throw new TracerConfigError('invalid tracer config: limit must be an integer')
  return {
    enableMemory: flag(c, 'enableMemory'),
    disableStack: flag(c, 'disableStack'),
    disableStorage: flag(c, 'disableStorage'),
    enableReturnData: flag(c, 'enableReturnData'),
    limit,
    maxBytes,
  }
}

export interface StructLogEntry {
  readonly pc: number
  readonly op: string
  readonly gas: number
  gasCost: number
  readonly depth: number
  error?: string
  readonly stack?: readonly string[]
  readonly returnData?: string
  readonly memory?: readonly string[]
  readonly storage?: Readonly<Record<string, string>>
  readonly refund?: number
}

/** What an open frame holds: its entry waiting for a cost and what the next entry may share with it. */
interface OpenFrame {
  pending: StructLogEntry | undefined
  /** The pending entry's opcode, gas and stack height (for haltCost). */
  op: number
  gas: number
  sp: number
  /** The last memory snapshot of this frame and the size it was taken at. */
  memory: readonly string[] | undefined
  memorySize: number
}

// Opcodes that write memory without necessarily growing it: after one, the frame's memory snapshot is stale.
const WRITES_MEMORY = new Uint8Array(256)
for (const op of [0x37, 0x39, 0x3c, 0x3e, 0x52, 0x53, 0x5e, 0xf1, 0xf2, 0xf4, 0xfa]) WRITES_MEMORY[op] = 1

const HEX: string[] = []
for (let i = 0; i < 256; i++) HEX.push(i.toString(16).padStart(2, '0'))

const wordHex = (w: Word): string => '0x' + w.toString(16)
const slotHex = (v: bigint): string => '0x' + v.toString(16).padStart(64, '0')

function bytesHex(bytes: Uint8Array, from: number, to: number): string {
  let s = '0x'
  for (let i = from; i < to; i++) s += HEX[bytes[i]!]
  return s
}

/** JSON bytes of an entry without its stack, memory and storage: `{"pc":…,"op":"…","gas":…,"gasCost":…,"depth":…}` and a margin. */
const ENTRY_BASE_BYTES = 96

export class StructLogger implements Tracer, FrameObserver, StepObserver {
  readonly observer: FrameObserver = this
  readonly steps: StepObserver = this
  private readonly logs: StructLogEntry[] = []
  private readonly open: OpenFrame[] = []
  private readonly storage = new Map<bigint, Map<bigint, bigint>>()
  private world: WorldState | undefined
  private staticGas: Int32Array = new Int32Array(256)
  private lastFrame: StepFrame | undefined
  private size = 0
  private overflow = false
  private gasUsed = 0n
  private output: Uint8Array = new Uint8Array(0)
  private error: string | undefined

  constructor(readonly config: StructLoggerConfig) {}

  txStart(ctx: TraceTxContext): void {
    this.world = ctx.world
    this.staticGas = forkGasFor(ctx.rules).staticGas
  }

  step(frame: StepFrame, pc: number, op: number, gas: number, sp: number, depth: number): void {
    this.lastFrame = frame
    const open = this.open[this.open.length - 1]
    if (open === undefined) return
    if (open.pending !== undefined) {
      open.pending.gasCost = open.gas - gas
      open.pending = undefined
    }
    const stale = WRITES_MEMORY[open.op] === 1
    open.op = op
    open.gas = gas
    open.sp = sp
    if (this.overflow || (this.config.limit !== 0 && this.size > this.config.limit)) return
    const entry = this.entry(frame, open, stale, pc, op, gas, sp, depth + 1)
    open.pending = entry
    this.logs.push(entry)
    if (this.size > this.config.maxBytes) {
      this.overflow = true
      this.logs.length = 0
      open.pending = undefined
    }
  }

  private entry(frame: StepFrame, open: OpenFrame, stale: boolean, pc: number, op: number, gas: number, sp: number, depth: number): StructLogEntry {
    const c = this.config
    const name = opcodeName(op)
    let bytes = ENTRY_BASE_BYTES + name.length
    const e: { -readonly [K in keyof StructLogEntry]: StructLogEntry[K] } = { pc, op: name, gas, gasCost: 0, depth, error: undefined }
    // `error` holds its place in geth's field order (JSON.stringify leaves it out while undefined)
    if (!c.disableStack) {
      const stack: string[] = new Array<string>(sp)
      const words = frame.stack
      for (let i = 0; i < sp; i++) {
        const s = wordHex(words[i]!)
        stack[i] = s
        bytes += s.length + 3
      }
      e.stack = stack
    }
    if (c.enableReturnData && frame.returnData.length > 0) {
      e.returnData = bytesHex(frame.returnData, 0, frame.returnData.length)
      bytes += e.returnData.length + 16
    }
    const mem = frame.memory
    if (c.enableMemory && mem.size > 0) {
      // the frame's memory words are shared with its previous entry while nothing can have changed them
      if (stale || open.memory === undefined || open.memorySize !== mem.size) {
        const words: string[] = []
        for (let at = 0; at < mem.size; at += 32) words.push(bytesHex(mem.buffer, at, at + 32))
        open.memory = words
        open.memorySize = mem.size
      }
      e.memory = open.memory
      bytes += (mem.size / 32) * 69 + 12
    }
    if (!c.disableStorage && (op === 0x54 || op === 0x55)) {
      const storage = this.storageOf(frame, op, sp)
      if (storage !== undefined) {
        e.storage = storage
        bytes += Object.keys(storage).length * 136 + 12
      }
    }
    const refund = this.world?.refund ?? 0
    if (refund !== 0) e.refund = refund
    this.size += bytes
    return e
  }

  /** geth's view of the frame's storage at SLOAD/SSTORE: every slot of this address read or written so far, sorted. */
  private storageOf(frame: StepFrame, op: number, sp: number): Record<string, string> | undefined {
    if (sp < (op === 0x54 ? 1 : 2)) return undefined
    let slots = this.storage.get(frame.address)
    if (slots === undefined) this.storage.set(frame.address, (slots = new Map()))
    const key = BigInt(frame.stack[sp - 1]!)
    const value = op === 0x54 ? (this.world?.getStorage(frame.address, key) ?? 0n) : BigInt(frame.stack[sp - 2]!)
    slots.set(key, value)
    const out: Record<string, string> = {}
    for (const k of [...slots.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) out[slotHex(k)] = slotHex(slots.get(k)!)
    return out
  }

  enter(msg: Message): void {
    const caller = this.open[this.open.length - 1]
    if (caller?.pending !== undefined && this.lastFrame !== undefined) {
      // geth's cost of a CALL includes the gas it gives; of a CREATE, not (CREATE takes that gas as it runs)
      let cost = caller.gas - this.lastFrame.gas
      if (msg.kind === MessageKind.Create || msg.kind === MessageKind.Create2) cost -= msg.gas
      caller.pending.gasCost = cost
      caller.pending = undefined
    }
    this.open.push({ pending: undefined, op: 0, gas: 0, sp: 0, memory: undefined, memorySize: 0 })
  }

  exit(result: FrameResult, error: string | undefined, output: Uint8Array): void {
    const frame = this.open.pop()
    if (frame?.pending !== undefined) {
      if (result.status === Status.Halt && error !== undefined) this.haltCost(frame, frame.pending, error)
      else frame.pending.gasCost = frame.gas - result.gasLeft
    }
    if (this.open.length === 0) {
      this.error = error
      this.output = output.slice()
    }
  }

  /**
   * geth's gasCost and error of an opcode that halted its frame. A stack error or an out-of-gas on the static
   * cost happen before the opcode is traced: the entry carries the error and the static cost. An out-of-gas on
   * the dynamic part also carries the error, but its cost (static + dynamic, more than the frame had) is not
   * known here: the entry shows the frame's whole gas. Halts while the opcode runs (invalid jump, write
   * protection, invalid opcode: geth's undefined opcodes cost 0) carry no error, as geth's.
   */
  private haltCost(f: OpenFrame, entry: StructLogEntry, error: string): void {
    const fixed = this.staticGas[f.op]!
    if (fixed < 0) {
      entry.gasCost = 0
      return
    }
    const stackError = f.sp < MIN_STACK[f.op]! || f.sp > MAX_STACK[f.op]!
    if (stackError || f.gas < fixed || error === 'gas uint64 overflow') {
      entry.gasCost = fixed
      entry.error = error
      this.size += error.length + 12
    } else if (error.startsWith('out of gas')) {
      entry.gasCost = f.gas
      entry.error = error
      this.size += error.length + 12
    } else {
      entry.gasCost = fixed
    }
  }

  log(): void {}
  selfDestruct(): void {}

  txEnd(result: TxResult): void {
    this.gasUsed = result.gasUsed
  }

  result(): unknown {
    if (this.overflow) throw new TraceTooLarge(`trace exceeds ${this.config.maxBytes} bytes`)
    const failed = this.error !== undefined
    const returnValue = failed && this.error !== 'execution reverted' ? '0x' : bytesHex(this.output, 0, this.output.length)
    return { gas: Number(this.gasUsed), failed, returnValue, structLogs: this.logs }
  }
}
