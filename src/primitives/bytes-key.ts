/**
 * Map keys made from bytes (addresses, slots, hashes) for the node's in-memory caches.
 *
 * A key packs each pair of bytes into one UTF-16 code unit, so a 20-byte address is a 10-character string
 * and a 32-byte slot 16. V8 builds it from a reused argument array in one String.fromCharCode call, and a
 * short string is cheaper to hash as a Map key: measured against the hex (bytesToHex) and latin1 (a Buffer
 * view and its toString) keys it replaces, it takes about half the time to build and to look up.
 *
 * The key of a given length of bytes is injective (equal keys, equal bytes); keys of different lengths may
 * coincide (an odd length's last byte is one unit of its own), so a cache keys one length of item per map
 * or per position in a composite key, as the callers do (addresses 20 bytes, slots and hashes 32).
 */

/** Reused argument arrays by the number of code units (at most SCRATCH_MAX; longer inputs allocate). */
const SCRATCH_MAX = 64
const scratch: number[][] = []

export function bytesKey(bytes: Uint8Array): string {
  const n = bytes.length
  const units = (n + 1) >> 1
  let u = units <= SCRATCH_MAX ? scratch[units] : undefined
  if (u === undefined) {
    u = new Array<number>(units).fill(0)
    if (units <= SCRATCH_MAX) scratch[units] = u
  }
  const pairs = n >> 1
  for (let i = 0; i < pairs; i++) u[i] = (bytes[2 * i]! << 8) | bytes[2 * i + 1]!
  if ((n & 1) === 1) u[pairs] = bytes[n - 1]!
  return String.fromCharCode.apply(null, u)
}
