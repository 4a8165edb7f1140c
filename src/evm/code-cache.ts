/**
 * Code by code hash, shared by every WorldState of this thread (each worker thread has its own): the same
 * code hash yields the same Uint8Array, so the interpreter's analysis (code-analysis.ts, a WeakMap keyed by
 * the array: jump destinations, padded code, decoded PUSH values) is made once per code, not once per call.
 * Before this cache every eth_call read its contracts' code afresh from the database and analysed it again.
 *
 * Safe to share across blocks, snapshots and requests: code is content-addressed (a hash names one code for
 * ever). Bounded: by entries and by an estimate of what an entry keeps alive with its analysis (the code, its
 * padded copy, the jump-destination map, the PUSH-value table and the gas-block sums: ~24 bytes per code byte).
 */

import { bytesToBigInt } from '../primitives/hex.ts'
import { keccak256 } from '../primitives/keccak.ts'
import { SizedLru } from '../primitives/lru.ts'
import { registerGauge } from '../primitives/memory-gauges.ts'

/** Bytes kept alive per byte of cached code, its analysis included (an estimate). */
const BYTES_PER_CODE_BYTE = 24

const cache = new SizedLru<bigint, Uint8Array>({ maxEntries: 4096, maxBytes: 48 * 1024 * 1024 }, (code) => 64 + code.length * BYTES_PER_CODE_BYTE)
registerGauge('EVM code analyses', cache, (c) => c.gauge())

/**
 * The cached code of `hash`, or what `load` reads. What is read is kept only when it is that hash's code (its
 * keccak matches: a reader that has no code for the hash yet, or a test's stand-in, never poisons the cache).
 */
export function sharedCode(hash: bigint, load: () => Uint8Array): Uint8Array {
  const hit = cache.get(hash)
  if (hit !== undefined) return hit
  const code = load()
  if (code.length > 0 && bytesToBigInt(keccak256(code)) === hash) cache.set(hash, code)
  return code
}
