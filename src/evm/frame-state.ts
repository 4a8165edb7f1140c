/**
 * The state of one running frame as the opcodes outside the dispatch loop see it (calls, creates, storage,
 * logs, copies): the host, the message, the fork's gas numbers, the stack (a flat array of words with a
 * depth `sp`), memory, gas left and the last sub-call's return data.
 *
 * The dispatch loop keeps `sp` and `gas` in locals for speed and writes them here before calling such an
 * opcode, reading them back after. An opcode function returns undefined when it ran, or the halt reason.
 * Stacks are pooled (one 1024-slot array per live frame).
 *
 * Gas is exact at any size: `gas` (a number) is what charges come from, and `reserve` (a bigint, 0n unless the
 * frame got more than 2^53 - 1 gas) holds the rest. A charge `gas` cannot pay takes the slow path
 * (chargeFromReserve), which charges the exact total gas + reserve and refills `gas` from the reserve.
 */

import type { Rules } from './fork.ts'
import type { ForkGas } from './gas-rules.ts'
import { expansionCost, type Memory } from './memory.ts'
import type { FrameResult, Host, Message, Status } from './types.ts'
import { canon, type Word } from './words.ts'

export const EMPTY_BYTES = new Uint8Array(0)
export const OUT_OF_GAS = 'out of gas'
export const WRITE_PROTECTION = 'write protection'
/** geth's error for a memory range beyond any gas (its end past 0x1fffffffe0). */
export const GAS_OVERFLOW = 'gas uint64 overflow'
export const STACK_LIMIT = 1024

export class Frame {
  pc = 0
  sp = 0
  gas: number
  /** Gas beyond `gas` (0n unless the frame's gas exceeds Number.MAX_SAFE_INTEGER). */
  reserve: bigint
  /** The CALL or CREATE opcode the dispatch loop left to run (interpreter.ts). */
  pendingOp = 0
  returnData: Uint8Array = EMPTY_BYTES
  readonly address: bigint
  /** `address` as a stack word (ADDRESS). */
  readonly addressWord: Word

  constructor(
    readonly host: Host,
    readonly msg: Message,
    readonly rules: Rules,
    readonly forkGas: ForkGas,
    readonly stack: Word[],
    readonly memory: Memory,
    readonly code: Uint8Array,
  ) {
    this.gas = msg.gas
    this.reserve = msg.gasReserve ?? 0n
    this.address = msg.recipient
    this.addressWord = canon(msg.recipient)
  }
}

/**
 * Charges `extra` gas plus the expansion of memory to `end` (a memoryEnd result: -1 is out of gas) and grows
 * memory; false when gas does not suffice (nothing is grown then).
 */
export function chargeWithMemory(f: Frame, end: number, extra: number): boolean {
  if (end < 0) return false
  const memory = f.memory
  const cost = extra + expansionCost(memory.size, end)
  if (cost <= f.gas) f.gas -= cost
  else if (chargeFromReserve(f, f.gas, cost) < 0) return false
  if (end > memory.size) memory.grow(Math.ceil(end / 32) * 32)
  return true
}

/** Gas of copying `size` bytes (3 per word), `size` a number below MAX_MEMORY_END. */
export function wordCount(size: number): number {
  return Math.ceil(size / 32)
}

const stackPool: Word[][] = []

export function takeStack(): Word[] {
  return stackPool.pop() ?? new Array<Word>(STACK_LIMIT).fill(0)
}

export function releaseStack(stack: Word[]): void {
  if (stackPool.length < 1100) stackPool.push(stack)
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER
const MAX_SAFE_BIG = BigInt(MAX_SAFE)

/**
 * The slow path of a charge the number part `gas` cannot pay: charges `cost` from the exact gas + f.reserve.
 * Returns the frame's new number part (also in f.gas, the reserve updated), or -1 when the total cannot pay.
 */
export function chargeFromReserve(f: Frame, gas: number, cost: number): number {
  if (f.reserve === 0n) return -1
  const total = BigInt(gas) + f.reserve - BigInt(cost)
  if (total < 0n) return -1
  return setTotalGas(f, total)
}

/** Makes the frame's gas exactly `total` (the number part as full as it may be); returns the number part. */
export function setTotalGas(f: Frame, total: bigint): number {
  if (total > MAX_SAFE_BIG) {
    f.reserve = total - MAX_SAFE_BIG
    f.gas = MAX_SAFE
  } else {
    f.reserve = 0n
    f.gas = Number(total)
  }
  return f.gas
}

/** The frame's exact gas left. */
export function totalGas(f: Frame): bigint {
  return f.reserve === 0n ? BigInt(f.gas) : BigInt(f.gas) + f.reserve
}

/** Adds a sub-frame's unused gas (its number and reserve) to the frame, exactly. */
export function addReturnedGas(f: Frame, result: FrameResult): void {
  const sum = f.gas + result.gasLeft
  if (sum <= MAX_SAFE && f.reserve === 0n && result.gasReserve === undefined) f.gas = sum
  else setTotalGas(f, BigInt(f.gas) + f.reserve + BigInt(result.gasLeft) + (result.gasReserve ?? 0n))
}

/**
 * Splits exact gas into a number part and a reserve (undefined when it fits a number), for a message or a
 * result.
 */
export function splitGas(total: bigint): { readonly gas: number; readonly reserve: bigint | undefined } {
  return total > MAX_SAFE_BIG ? { gas: MAX_SAFE, reserve: total - MAX_SAFE_BIG } : { gas: Number(total), reserve: undefined }
}

/** A frame's end that keeps its gas: `gas` (the loop's number part) and the frame's reserve. */
export function ended(f: Frame, status: Status, gas: number, output: Uint8Array): FrameResult {
  const reserve = f.reserve
  return reserve === 0n ? { status, gasLeft: gas, output } : { status, gasLeft: gas, output, gasReserve: reserve }
}
