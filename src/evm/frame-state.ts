/**
 * The state of one running frame as the opcodes outside the dispatch loop see it (calls, creates, storage,
 * logs, copies): the host, the message, the fork's gas numbers, the stack (a flat array of words with a
 * depth `sp`), memory, gas left and the last sub-call's return data.
 *
 * The dispatch loop keeps `sp` and `gas` in locals for speed and writes them here before calling such an
 * opcode, reading them back after. An opcode function returns undefined when it ran, or the halt reason.
 * Stacks are pooled (one 1024-slot array per live frame).
 */

import type { Rules } from './fork.ts'
import type { ForkGas } from './gas-rules.ts'
import { expansionCost, type Memory } from './memory.ts'
import type { Host, Message } from './types.ts'

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
  /** The CALL or CREATE opcode the dispatch loop left to run (interpreter.ts). */
  pendingOp = 0
  returnData: Uint8Array = EMPTY_BYTES
  readonly address: bigint

  constructor(
    readonly host: Host,
    readonly msg: Message,
    readonly rules: Rules,
    readonly forkGas: ForkGas,
    readonly stack: bigint[],
    readonly memory: Memory,
    readonly code: Uint8Array,
  ) {
    this.gas = msg.gas
    this.address = msg.recipient
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
  if (cost > f.gas) return false
  f.gas -= cost
  if (end > memory.size) memory.grow(Math.ceil(end / 32) * 32)
  return true
}

/** Gas of copying `size` bytes (3 per word), `size` a number below MAX_MEMORY_END. */
export function wordCount(size: number): number {
  return Math.ceil(size / 32)
}

const stackPool: bigint[][] = []

export function takeStack(): bigint[] {
  return stackPool.pop() ?? new Array<bigint>(STACK_LIMIT).fill(0n)
}

export function releaseStack(stack: bigint[]): void {
  if (stackPool.length < 1100) stackPool.push(stack)
}
