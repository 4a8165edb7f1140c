/**
 * Jump-destination analysis once per contract code, not once per call frame.
 *
 * Before its first JUMP, the EVM library's interpreter scans the whole code of the frame: valid JUMPDESTs,
 * every PUSH's value as a bigint, and the opcode entry at each position. It does so for every frame of
 * every call, and the scan is linear in the code's size: ~80 µs for 2 KB of code and ~0.8 ms for a 24 KB
 * contract on this project's machine, paid again by each eth_call, estimateGas step, simulated call and
 * pooled transaction that enters the contract. geth keeps this analysis per code hash; so does this module.
 *
 * The result depends on the code's bytes and on the opcode table of the EVM that runs it (the opcode entries,
 * and EIP-8024's immediates, which are per fork). Entries are keyed by the keccak of the code (~4 ns a byte,
 * a tenth of the scan; code arrays are copied on every read, so their identity says nothing), then by the
 * EVM's opcode table (one per EVM instance and fork: a new table gets its own analysis, made by the
 * library's own function). Nothing the library does writes into the analysis: it only reads the JUMPDEST
 * bitmap, the cached PUSH values and the opcode entries.
 *
 * Bounded per thread: the newest 128 codes, and analyses weighing at most 32 MiB in all (an analysis is ~17
 * bytes per byte of code, mostly the bigints: ~0.4 MB for a 24 KB contract; one per code and opcode table,
 * and every pooled VM has its own table).
 *
 * Pinned to @ethereumjs/evm 10.1.3: the interpreter is not exported, so its module is loaded from the file
 * beside the package's entry (the same module instance the EVM uses), and the patched method is its
 * `_getValidJumpDestinations(code)`. Installed when this module loads; `jump-analysis-cache.test.ts`
 * checks that the patch is in place and that results equal the library's.
 */

import { keccak256 } from '../primitives/keccak.ts'
import { SizedLru } from '../primitives/lru.ts'
import { latin1 } from '../state/history-cache.ts'

interface JumpAnalysis {
  readonly jumps: Uint8Array
  readonly pushes: Record<number, bigint>
  readonly opcodesCached: unknown[]
}

interface InterpreterInternals {
  readonly _evm: { readonly _opcodeMap: object }
  _getValidJumpDestinations(code: Uint8Array): JumpAnalysis
}

const CODES_KEPT = 128
const BYTES_KEPT = 32 * 1024 * 1024
/** Heap bytes of one analysis per byte of code (measured: ~0.4 MB for 24 KB). */
const BYTES_PER_CODE_BYTE = 17

/** The analyses of one code, one per opcode table; weighed by how many were made. */
interface CodeEntry {
  readonly byTable: WeakMap<object, JumpAnalysis>
  readonly codeLength: number
  tables: number
}

const interpreterModule = (await import(new URL('./interpreter.js', import.meta.resolve('@ethereumjs/evm')).href)) as {
  Interpreter: { prototype: InterpreterInternals }
}
const proto = interpreterModule.Interpreter.prototype
const libraryAnalysis = proto._getValidJumpDestinations
if (typeof libraryAnalysis !== 'function') throw new Error('@ethereumjs/evm: the interpreter has no _getValidJumpDestinations to cache')

const byCode = new SizedLru<string, CodeEntry>(
  { maxEntries: CODES_KEPT, maxBytes: BYTES_KEPT },
  (entry) => 256 + entry.tables * entry.codeLength * BYTES_PER_CODE_BYTE,
)
let scans = 0

proto._getValidJumpDestinations = function cachedJumpAnalysis(this: InterpreterInternals, code: Uint8Array): JumpAnalysis {
  const key = latin1(keccak256(code))
  let entry = byCode.get(key)
  if (entry === undefined) entry = { byTable: new WeakMap(), codeLength: code.length, tables: 0 }
  const table = this._evm._opcodeMap
  let analysis = entry.byTable.get(table)
  if (analysis === undefined) {
    scans++
    analysis = libraryAnalysis.call(this, code)
    entry.byTable.set(table, analysis)
    entry.tables++
    byCode.set(key, entry) // weighed again with its new analysis
  }
  return analysis
}

// --- for tests ---------------------------------------------------------------------------------------

/** How many times the library's scan has run in this thread. */
export function jumpAnalysisScans(): number {
  return scans
}

/** The analysis of `code` as an interpreter of `evm` makes it: through the cache, or the library's own scan. */
export function jumpAnalysis(evm: { readonly common: unknown }, code: Uint8Array, cached: boolean): JumpAnalysis {
  const interpreter = Object.assign(Object.create(proto) as InterpreterInternals, { _evm: evm, common: evm.common })
  return cached ? interpreter._getValidJumpDestinations(code) : libraryAnalysis.call(interpreter, code)
}
