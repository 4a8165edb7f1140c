/**
 * Code analysis, once per code array: the JUMPDEST bitmap (a 0x5b inside PUSH data is not a destination),
 * the code padded with 33 zero bytes (so the dispatch loop reads STOP past the end and a PUSH near the end
 * reads zeros, without a bounds check), a lazily filled table of PUSH values as stack words (a PUSH decodes
 * its immediate once per code, then allocates nothing) and, made on first run, the static gas of its
 * straight-line runs (gas-blocks.ts).
 *
 * The dispatch codes: the code as the interpreter's loop reads it, where a PUSH that is followed at once by a
 * JUMP or JUMPI to a valid destination reads as one fused opcode (PUSH_JUMP, PUSH_JUMPI: codes above 0xff, so
 * no byte of real code can name them) whose destination, checked here once, is in `fusedTargets`. Compiled
 * Solidity jumps this way nearly every time (about one opcode in fifteen of an ERC-20 call or a multicall is
 * such a pair), and the fused opcode neither pushes the destination as a bigint nor converts it back.
 *
 * Cached in a WeakMap keyed by the code's Uint8Array: a host that hands out the same array for the same code
 * (as a world state that keeps each account's code does) analyses each code once.
 */

import type { GasBlocks } from './gas-blocks.ts'
import { bytesToWord, type Word } from './words.ts'

export interface CodeAnalysis {
  /** The code followed by 33 zero bytes. */
  readonly padded: Uint8Array
  /** 1 at each valid jump destination (indexes < code length). */
  readonly jumpdests: Uint8Array
  /** The code as the dispatch loop reads it: `padded`, with PUSH_JUMP or PUSH_JUMPI at each fused PUSH. */
  readonly dispatch: Uint16Array
  /** At a fused PUSH's pc: its jump's destination (a JUMPDEST). */
  readonly fusedTargets: Int32Array
  /** PUSHn values by the PUSH's pc, filled on first execution. */
  readonly pushValues: (Word | undefined)[]
  /** The static gas and stack bounds of its straight-line runs for one fork (gas-blocks.ts), made on first run. */
  blocks: GasBlocks | undefined
}

/** A PUSHn followed by a JUMP to a constant, valid destination (the dispatch codes, above). */
export const PUSH_JUMP = 0x100
/** A PUSHn followed by a JUMPI to a constant, valid destination. */
export const PUSH_JUMPI = 0x101

const cache = new WeakMap<Uint8Array, CodeAnalysis>()

export function analyse(code: Uint8Array): CodeAnalysis {
  const hit = cache.get(code)
  if (hit !== undefined) return hit
  const length = code.length
  const padded = new Uint8Array(length + 33)
  padded.set(code)
  const jumpdests = new Uint8Array(length)
  for (let pc = 0; pc < length; pc++) {
    const op = code[pc]!
    if (op === 0x5b) jumpdests[pc] = 1
    else if (op >= 0x60 && op <= 0x7f) pc += op - 0x5f
  }
  const dispatch = new Uint16Array(padded)
  const fusedTargets = new Int32Array(length)
  for (let pc = 0; pc < length; pc++) {
    const op = code[pc]!
    if (op < 0x60 || op > 0x7f) continue
    const n = op - 0x5f
    const next = pc + n + 1
    if (next < length && (code[next] === 0x56 || code[next] === 0x57) && n <= 4) {
      const destination = pushedNumber(code, pc + 1, n)
      if (destination < length && jumpdests[destination] === 1) {
        dispatch[pc] = code[next] === 0x56 ? PUSH_JUMP : PUSH_JUMPI
        fusedTargets[pc] = destination
      }
    }
    pc += n
  }
  const analysis: CodeAnalysis = { padded, jumpdests, dispatch, fusedTargets, pushValues: new Array<Word | undefined>(length), blocks: undefined }
  cache.set(code, analysis)
  return analysis
}

/** The immediate of a PUSHn of at most 4 bytes (all within the code) as a number. */
function pushedNumber(code: Uint8Array, start: number, n: number): number {
  let v = 0
  for (let i = 0; i < n; i++) v = v * 256 + code[start + i]!
  return v
}

/** Decodes (and caches) the immediate of the PUSHn at `pc`; bytes past the code's end read as zero. */
export function decodePush(analysis: CodeAnalysis, pc: number, n: number): Word {
  const value = bytesToWord(analysis.padded, pc + 1, n, false)
  analysis.pushValues[pc] = value
  return value
}
