/**
 * Straight-line runs of code, so the interpreter charges static gas and checks the stack once per run instead
 * of once per opcode (its fast mode, interpreter.ts). For every instruction start `pc`, over the instructions
 * from `pc` up to and including the next block end: `gas[pc]` is their static gas summed, `low[pc]` the least
 * stack depth at `pc` with which none of them underflows, `high[pc]` the greatest with which none overflows. An
 * opcode not active in the fork makes every run through it unaffordable (UNAFFORDABLE), so the interpreter
 * goes op by op there and halts exactly where the fork says.
 *
 * Only the opcodes of CONTINUES_BLOCK continue a run; every other opcode ends one, because something after it
 * could tell that later opcodes were paid for in advance: it ends the frame or jumps, reads the gas left (GAS,
 * the calls and creates, SSTORE's stipend check), is run outside the dispatch loop, may halt for a reason
 * other than gas after it paid (write protection), or charges a cold access. The opcodes in a run that charge
 * dynamic gas (EXP, MLOAD, MSTORE, MSTORE8) give back the rest of the run's precharge (`gas[pc + 1]`) and go op
 * by op when that charge fails, so an out-of-gas halt, and its reason, land on the opcode geth halts at.
 *
 * Made once per code and fork: kept on the code's analysis (code-analysis.ts), remade when the fork differs.
 */

import type { CodeAnalysis } from './code-analysis.ts'
import { MAX_STACK, MIN_STACK } from './gas-rules.ts'

export interface GasBlocks {
  /** The fork's static gas table these sums were made with. */
  readonly staticGas: Int32Array
  /** Float64 so that UNAFFORDABLE (Infinity) is beyond any gas, however large. */
  readonly gas: Float64Array
  readonly low: Int16Array
  readonly high: Int16Array
}

/** The sum of a run through an invalid opcode: no gas pays it. */
export const UNAFFORDABLE = Number.POSITIVE_INFINITY

/** 1 for the opcodes a run continues past (see the module comment); every other opcode ends a run. */
const CONTINUES_BLOCK = new Uint8Array(256)
for (let op = 0x01; op <= 0x0b; op++) CONTINUES_BLOCK[op] = 1
for (let op = 0x10; op <= 0x1e; op++) CONTINUES_BLOCK[op] = 1
for (const op of [0x30, 0x32, 0x33, 0x34, 0x35, 0x36, 0x38, 0x3a, 0x3d]) CONTINUES_BLOCK[op] = 1
for (let op = 0x40; op <= 0x4a; op++) CONTINUES_BLOCK[op] = 1
for (const op of [0x50, 0x51, 0x52, 0x53, 0x58, 0x59, 0x5b, 0x5c]) CONTINUES_BLOCK[op] = 1
for (let op = 0x5f; op <= 0x9f; op++) CONTINUES_BLOCK[op] = 1

export function blocksFor(analysis: CodeAnalysis, staticGas: Int32Array): GasBlocks {
  const made = analysis.blocks
  if (made !== undefined && made.staticGas === staticGas) return made
  const blocks = makeBlocks(analysis.padded, analysis.padded.length - 33, staticGas)
  analysis.blocks = blocks
  return blocks
}

function makeBlocks(code: Uint8Array, length: number, staticGas: Int32Array): GasBlocks {
  // past the end the padded code reads STOP: a run of its own (no gas, no stack)
  const size = length + 33
  const gas = new Float64Array(size)
  const low = new Int16Array(size)
  const high = new Int16Array(size).fill(MAX_STACK[0x00]!)
  const starts: number[] = []
  for (let pc = 0; pc < length; pc++) {
    starts.push(pc)
    const op = code[pc]!
    if (op >= 0x60 && op <= 0x7f) pc += op - 0x5f
  }
  for (let i = starts.length - 1; i >= 0; i--) {
    const pc = starts[i]!
    const op = code[pc]!
    const cost = staticGas[op]!
    const own = cost < 0 ? UNAFFORDABLE : cost
    if (CONTINUES_BLOCK[op] === 0 || cost < 0) {
      gas[pc] = own
      low[pc] = MIN_STACK[op]!
      high[pc] = MAX_STACK[op]!
      continue
    }
    const next = op >= 0x60 && op <= 0x7f ? pc + op - 0x5e : pc + 1
    // depth change of the opcode: geth's maxStack is 1024 + pops - pushes
    const delta = 1024 - MAX_STACK[op]!
    gas[pc] = own + gas[next]!
    low[pc] = Math.max(MIN_STACK[op]!, low[next]! - delta)
    high[pc] = Math.min(MAX_STACK[op]!, high[next]! - delta)
  }
  return { staticGas, gas, low, high }
}
