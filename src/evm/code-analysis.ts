/**
 * Code analysis, once per code array: the JUMPDEST bitmap (a 0x5b inside PUSH data is not a destination),
 * the code padded with 33 zero bytes (so the dispatch loop reads STOP past the end and a PUSH near the end
 * reads zeros, without a bounds check), a lazily filled table of PUSH values as bigints (a PUSH decodes
 * its immediate once per code, then allocates nothing) and, made on first run, the static gas of its
 * straight-line runs (gas-blocks.ts).
 *
 * Cached in a WeakMap keyed by the code's Uint8Array: a host that hands out the same array for the same code
 * (as a world state that keeps each account's code does) analyses each code once.
 */

import type { GasBlocks } from './gas-blocks.ts'
import { bytesToWord } from './words.ts'

export interface CodeAnalysis {
  /** The code followed by 33 zero bytes. */
  readonly padded: Uint8Array
  /** 1 at each valid jump destination (indexes < code length). */
  readonly jumpdests: Uint8Array
  /** PUSHn values by the PUSH's pc, filled on first execution. */
  readonly pushValues: (bigint | undefined)[]
  /** The static gas and stack bounds of its straight-line runs for one fork (gas-blocks.ts), made on first run. */
  blocks: GasBlocks | undefined
}

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
  const analysis: CodeAnalysis = { padded, jumpdests, pushValues: new Array<bigint | undefined>(length), blocks: undefined }
  cache.set(code, analysis)
  return analysis
}

/** Decodes (and caches) the immediate of the PUSHn at `pc`; bytes past the code's end read as zero. */
export function decodePush(analysis: CodeAnalysis, pc: number, n: number): bigint {
  const value = bytesToWord(analysis.padded, pc + 1, n, false)
  analysis.pushValues[pc] = value
  return value
}
