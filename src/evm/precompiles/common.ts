/**
 * What every precompile module shares: the result shapes (success with its gas, or failure consuming all the
 * gas given), and the byte <-> bigint conversions the curve precompiles read and write their words with.
 *
 * Invariants: a failure always reports gasUsed = the gas given; bytes read past the end of an input are zero
 * (the precompiles' "virtual padding"); no function here allocates more than the bytes it is asked for.
 */

export interface PrecompileResult {
  readonly ok: boolean
  readonly gasUsed: number
  readonly output: Uint8Array
}

export const EMPTY = new Uint8Array(0)

/** The precompile failed: every unit of `gas` is consumed and nothing is returned. */
export function failure(gas: number): PrecompileResult {
  return { ok: false, gasUsed: gas, output: EMPTY }
}

export function success(gasUsed: number, output: Uint8Array): PrecompileResult {
  return { ok: true, gasUsed, output }
}

/** The number of 32-byte words `length` bytes take (rounded up). */
export function wordCount(length: number): number {
  return Math.ceil(length / 32)
}

const HEX_OF_BYTE: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'))

/** The big-endian number in data[start, end), with bytes past data's end read as zero. */
export function readUint(data: Uint8Array, start: number, end: number): bigint {
  let hex = ''
  const stop = Math.min(end, data.length)
  for (let i = start; i < stop; i++) hex += HEX_OF_BYTE[data[i]!]
  if (hex === '') return 0n
  let value = BigInt('0x' + hex)
  if (stop < end && stop > start) value <<= BigInt(8 * (end - stop))
  return value
}

/** Whether data[start, end) is all zero. */
export function isZeroRange(data: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (data[i] !== 0) return false
  return true
}

/** Writes `value` big-endian into out[start, start + length) (value must fit). */
export function writeUint(out: Uint8Array, start: number, length: number, value: bigint): void {
  let v = value
  for (let i = start + length - 1; i >= start && v > 0n; i--) {
    out[i] = Number(v & 0xffn)
    v >>= 8n
  }
}

/** `value` as `length` big-endian bytes. */
export function uintBytes(value: bigint, length: number): Uint8Array {
  const out = new Uint8Array(length)
  writeUint(out, 0, length, value)
  return out
}

/** `data` right-padded with zeros (or truncated) to exactly `length` bytes (a view when already long enough). */
export function rightPadded(data: Uint8Array, length: number): Uint8Array {
  if (data.length >= length) return data.subarray(0, length)
  const out = new Uint8Array(length)
  out.set(data)
  return out
}
