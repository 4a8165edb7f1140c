/**
 * geth's erc7562Tracer, which ERC-4337 bundlers run to check a user operation's validation against the
 * ERC-7562 rules: callTracer's frame tree (a CallTracer with `withLog` as configured does the frames, logs,
 * gas and errors) with, per frame, what its opcodes did (erc7562-frame.ts), and the keccak preimages of the
 * whole transaction on the top frame. Everything opcode-level comes from the step observer, before each
 * opcode runs, as geth's OnOpcode sees it:
 * - usedOpcodes counts every opcode but the ignored ones (`ignoredOpcodes`, default PUSH0..SWAP16 and plain
 *   arithmetic, comparison and bit opcodes); GAS is counted at the next opcode, and only when that opcode is
 *   not a call (gas passed straight to a call is allowed);
 * - SLOAD records a slot's current value the first time the frame reads it, unless the frame wrote it first;
 *   SSTORE, TLOAD and TSTORE count per slot (keys are slots of the frame's storage address);
 * - an EXTCODE* opcode's address is recorded at the next opcode, unless it is EXTCODESIZE followed by ISZERO
 *   (a mere "is it deployed" check); RETURN and REVERT forget the last opcode. The last opcode is the
 *   transaction's, not the frame's: an EXTCODE* that ends its frame is recorded in the frame that resumes;
 * - EXTCODE* and the CALL family record the size of the target's code once per frame;
 * - KECCAK256 records its input (memory as it is before the opcode, zero-padded past its end).
 *
 * It only reads: the stack and memory it is shown (copying nothing it does not turn into its own records),
 * and the WorldState's storage and code, as the EVM is about to read them. It never writes state.
 */

import type { FrameObserver } from '../observer.ts'
import type { StepFrame, StepObserver } from '../step-observer.ts'
import type { FrameResult, TxResult } from '../types.ts'
import { addressOf, big, type Word } from '../words.ts'
import type { WorldState } from '../world-state.ts'
import { CallTracer, type CallFrame } from './call.ts'
import { bump, erc7562FrameJson, isOutOfGas, newRecord, type OpcodeRecord } from './erc7562-frame.ts'
import { data } from './json.ts'
import { configObject, flag, TracerConfigError, type TraceTxContext, type Tracer } from './tracer.ts'

const ISZERO = 0x15
const KECCAK256 = 0x20
const EXTCODESIZE = 0x3b
const EXTCODECOPY = 0x3c
const EXTCODEHASH = 0x3f
const SLOAD = 0x54
const SSTORE = 0x55
const GAS = 0x5a
const TLOAD = 0x5c
const TSTORE = 0x5d
const RETURN = 0xf3
const REVERT = 0xfd
const NONE = -1

const isExt = (op: number): boolean => op === EXTCODESIZE || op === EXTCODECOPY || op === EXTCODEHASH
const isCall = (op: number): boolean => op === 0xf1 || op === 0xf2 || op === 0xf4 || op === 0xfa

/** geth's default: PUSH0..SWAP16 and the plain arithmetic, comparison and bit opcodes. */
export const DEFAULT_IGNORED_OPCODES: readonly number[] = [
  ...Array.from({ length: 0x9f - 0x5f + 1 }, (_, i) => 0x5f + i),
  0x50, 0x01, 0x03, 0x02, 0x04, 0x14, 0x10, 0x11, 0x12, 0x13, 0x1b, 0x1c, 0x16, 0x17, 0x19, 0x15,
]

/** A keccak input longer than the memory by more than this is not recorded (as geth's padding limit). */
const MAX_PADDING = 1024n * 1024n
const INT64 = 1n << 63n
const UINT64_MASK = (1n << 64n) - 1n

export interface Erc7562TracerConfig {
  readonly ignoredOpcodes: ReadonlySet<number>
  readonly withLog: boolean
}

/** A hexutil.Uint64 as geth decodes one: a 0x-prefixed hex string without leading zeros. */
function hexUint64(v: unknown): bigint {
  if (typeof v !== 'string' || !/^0x(0|[1-9a-fA-F][0-9a-fA-F]{0,15})$/.test(v)) {
    throw new TracerConfigError(`invalid tracer config: ignoredOpcodes entries must be hex quantities, got ${JSON.stringify(v)}`)
  }
  return BigInt(v)
}

export function erc7562TracerConfig(config: unknown): Erc7562TracerConfig {
  const c = configObject(config)
  const ignored = c.ignoredOpcodes
  let ops: readonly number[] = DEFAULT_IGNORED_OPCODES
  if (ignored !== undefined && ignored !== null) {
    if (!Array.isArray(ignored)) throw new TracerConfigError('invalid tracer config: ignoredOpcodes must be an array')
    ops = ignored.map((v) => Number(hexUint64(v) & 0xffn)) // geth keeps the low byte (vm.OpCode)
  }
  // stackTopItemsSize only sizes geth's copy of the stack top, which changes no result: checked, not used
  const size = c.stackTopItemsSize
  if (size !== undefined && size !== null && !Number.isInteger(size)) throw new TracerConfigError('invalid tracer config: stackTopItemsSize must be an integer')
  return { ignoredOpcodes: new Set(ops), withLog: flag(c, 'withLog') }
}

export class Erc7562Tracer implements Tracer, StepObserver {
  readonly steps: StepObserver = this
  readonly observer: FrameObserver
  private readonly calls: CallTracer
  private readonly records = new Map<CallFrame, OpcodeRecord>()
  /** The frames (never the transaction's own, whose end geth does not inspect) that ended out of gas. */
  private readonly outOfGas = new Set<CallFrame>()
  /** hex -> preimage seen by KECCAK256, over the whole transaction. */
  private readonly keccak = new Set<string>()
  private world: WorldState | undefined
  /** The previous opcode (NONE after RETURN or REVERT, and before the first) and, for EXTCODE*, its address. */
  private lastOp = NONE
  private lastAddress = 0n
  /** The record of the frame the last step ran in (the frame stack's top changes only at enter and exit). */
  private frame: CallFrame | undefined
  private record: OpcodeRecord = newRecord()

  constructor(readonly config: Erc7562TracerConfig) {
    const calls = new CallTracer({ onlyTopCall: false, withLog: config.withLog })
    this.calls = calls
    this.observer = {
      enter: (msg) => calls.enter(msg),
      exit: (result, error, output) => {
        this.frameEnds(result, error)
        calls.exit(result, error, output)
      },
      log: (address, topics, bytes) => calls.log(address, topics, bytes),
      selfDestruct: (address, beneficiary, balance) => calls.selfDestruct(address, beneficiary, balance),
    }
  }

  /**
   * Before callTracer pops the frame: out of gas by its error, or (before Homestead) a create that kept its
   * gas but could not pay for its code, which geth does not count as reverted but still calls out of gas.
   */
  private frameEnds(result: FrameResult, error: string | undefined): void {
    const frames = this.calls.frames
    if (frames.length > 1 && isOutOfGas(error ?? result.haltReason)) this.outOfGas.add(frames[frames.length - 1]!)
  }

  txStart(ctx: TraceTxContext): void {
    this.world = ctx.world
    this.calls.txStart(ctx)
  }

  txEnd(result: TxResult): void {
    this.calls.txEnd(result)
  }

  private current(): OpcodeRecord {
    const frames = this.calls.frames
    const frame = frames[frames.length - 1]!
    if (frame !== this.frame) {
      this.frame = frame
      let record = this.records.get(frame)
      if (record === undefined) {
        record = newRecord()
        this.records.set(frame, record)
      }
      this.record = record
    }
    return this.record
  }

  step(frame: StepFrame, _pc: number, op: number, _gas: number, sp: number): void {
    const stack = frame.stack
    if (op === RETURN || op === REVERT) this.lastOp = NONE
    const record = this.current()
    const last = this.lastOp
    if (isExt(last) && !(last === EXTCODESIZE && op === ISZERO)) record.extCodeAccess.push(this.lastAddress)
    if (isExt(op) || isCall(op)) {
      const n = isExt(op) ? 0 : 1
      if (sp > n) {
        const target = addressOf(stack[sp - 1 - n]!)
        if (!record.contractSize.has(target)) record.contractSize.set(target, { size: this.codeSize(target), opcode: op })
      }
    }
    if (last === GAS && !isCall(op)) bump(record.usedOpcodes, GAS)
    if (op !== GAS && !this.config.ignoredOpcodes.has(op)) bump(record.usedOpcodes, op)
    if (sp >= 1) {
      if (op === SLOAD || op === SSTORE || op === TLOAD || op === TSTORE) this.storage(record, frame.address, op, big(stack[sp - 1]!))
      else if (op === KECCAK256 && sp >= 2) this.preimage(frame, stack[sp - 1]!, stack[sp - 2]!)
    }
    this.lastOp = op
    if (isExt(op) && sp >= 1) this.lastAddress = addressOf(stack[sp - 1]!)
  }

  private codeSize(target: bigint): number {
    return this.world === undefined ? 0 : this.world.getCode(target).length
  }

  private storage(record: OpcodeRecord, storageAddress: bigint, op: number, slot: bigint): void {
    if (op === SLOAD) {
      if (!record.reads.has(slot) && !record.writes.has(slot) && this.world !== undefined) {
        record.reads.set(slot, this.world.getStorage(storageAddress, slot))
      }
    } else if (op === SSTORE) bump(record.writes, slot)
    else if (op === TLOAD) bump(record.transientReads, slot)
    else bump(record.transientWrites, slot)
  }

  /** KECCAK256's input as geth copies it: offset and size as their low 64 bits, signed; zero past memory. */
  private preimage(frame: StepFrame, offsetWord: Word, sizeWord: Word): void {
    const offset = big(offsetWord) & UINT64_MASK
    const size = big(sizeWord) & UINT64_MASK
    if (offset >= INT64 || size >= INT64) return
    const memory = frame.memory
    const length = BigInt(memory.size)
    if (offset + size > length && offset + size - length > MAX_PADDING) return
    const out = new Uint8Array(Number(size))
    if (offset < length) {
      const from = Number(offset)
      out.set(memory.buffer.subarray(from, Math.min(memory.size, from + out.length)))
    }
    this.keccak.add(data(out))
  }

  result(): unknown {
    const top = this.calls.top()
    if (top === undefined) throw new Error('incorrect number of top-level calls')
    return erc7562FrameJson(top, this.records, this.outOfGas, true, [...this.keccak].sort())
  }
}
