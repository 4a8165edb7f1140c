/**
 * Hex value parsers with geth's hexutil rules and reason wording, in geth's order of checks.
 *
 * - fixed-size data (address, hash): `0x` required, even length, exact size (`hex string has length 38, want 40
 *   for common.Address`), hex digits;
 * - data (`hexutil.Bytes`): `0x` required, even length, hex digits; `""` is empty data;
 * - quantities (`hexutil.Big` ≤ 256 bits, `hexutil.Uint64`, `hexutil.Uint`): `0x` required, no leading zero
 *   digit, at most 64 / 16 digits, hex digits; `""` reads as zero (as geth does);
 * - block numbers (`hexutil.DecodeUint64`): the same, but `""` is an error and the range is checked per digit.
 * Non-strings fail with geth's `json: cannot unmarshal non-string into Go value of type …`.
 */

import { fail } from './param-error.ts'
import { typeError } from './json.ts'

const has0x = (s: string): boolean => s.length >= 2 && s[0] === '0' && (s[1] === 'x' || s[1] === 'X')

function nibble(code: number): number {
  if (code >= 48 && code <= 57) return code - 48
  if (code >= 97 && code <= 102) return code - 87
  if (code >= 65 && code <= 70) return code - 55
  return -1
}

/** Digits at or above this length are decoded natively: calldata of kilobytes cost ~30 ns a byte in the loop. */
const NATIVE_FROM = 128

function decodeDigits(digits: string): Uint8Array {
  const out = new Uint8Array(digits.length / 2)
  if (digits.length >= NATIVE_FROM) {
    // Node's hex decoder stops at the first pair that is not two hex digits: fewer bytes written = invalid.
    const written = Buffer.from(out.buffer, out.byteOffset, out.length).write(digits, 'hex')
    if (written !== out.length) fail('invalid hex string')
    return out
  }
  for (let i = 0; i < out.length; i++) {
    const hi = nibble(digits.charCodeAt(2 * i))
    const lo = nibble(digits.charCodeAt(2 * i + 1))
    if (hi < 0 || lo < 0) fail('invalid hex string')
    out[i] = (hi << 4) | lo
  }
  return out
}

function allHex(digits: string): boolean {
  for (let i = 0; i < digits.length; i++) if (nibble(digits.charCodeAt(i)) < 0) return false
  return true
}

function stringOf(raw: unknown, goType: string): string {
  if (typeof raw !== 'string') throw typeError('non-string', goType)
  return raw
}

/** Even-length `0x` data of exactly `size` bytes (common.Address, common.Hash). */
export function parseFixedBytes(raw: unknown, size: number, goType: string): Uint8Array {
  const s = stringOf(raw, goType)
  let digits = s
  if (s.length > 0) {
    if (!has0x(s)) fail('hex string without 0x prefix')
    digits = s.slice(2)
    if (digits.length % 2 !== 0) fail('hex string of odd length')
  }
  if (digits.length !== size * 2) fail(`hex string has length ${digits.length}, want ${size * 2} for ${goType}`)
  if (!allHex(digits)) fail('invalid hex string')
  return decodeDigits(digits)
}

export const parseAddress = (raw: unknown): Uint8Array => parseFixedBytes(raw, 20, 'common.Address')

export const parseHash = (raw: unknown): Uint8Array => parseFixedBytes(raw, 32, 'common.Hash')

/** hexutil.Bytes. */
export function parseBytes(raw: unknown): Uint8Array {
  const s = stringOf(raw, 'hexutil.Bytes')
  if (s.length === 0) return new Uint8Array(0)
  if (!has0x(s)) fail('hex string without 0x prefix')
  const digits = s.slice(2)
  if (digits.length % 2 !== 0) fail('hex string of odd length')
  return decodeDigits(digits)
}

function numberDigits(s: string, maxDigits: number, rangeReason: string): string {
  if (!has0x(s)) fail('hex string without 0x prefix')
  const digits = s.slice(2)
  if (digits.length === 0) fail('hex string "0x"')
  if (digits.length > 1 && digits[0] === '0') fail('hex number with leading zero digits')
  if (digits.length > maxDigits) fail(rangeReason)
  if (!allHex(digits)) fail('invalid hex string')
  return digits
}

/** hexutil.Big: a quantity of at most 256 bits. */
export function parseQuantity(raw: unknown): bigint {
  const s = stringOf(raw, '*hexutil.Big')
  if (s.length === 0) return 0n
  return BigInt(`0x${numberDigits(s, 64, 'hex number > 256 bits')}`)
}

/** hexutil.Uint64. */
export function parseUint64(raw: unknown): bigint {
  const s = stringOf(raw, 'hexutil.Uint64')
  if (s.length === 0) return 0n
  return BigInt(`0x${numberDigits(s, 16, 'hex number > 64 bits')}`)
}

/** hexutil.Uint (an index). Values past 2^53 cannot name anything, so they clamp to MAX_SAFE_INTEGER. */
export function parseUint(raw: unknown): number {
  const s = stringOf(raw, 'hexutil.Uint')
  if (s.length === 0) return 0
  const v = BigInt(`0x${numberDigits(s, 16, 'hex number > 64 bits')}`)
  return v > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(v)
}

/** hexutil.DecodeUint64 over a string (block numbers). */
export function decodeUint64(s: string): bigint {
  if (s.length === 0) fail('empty hex string')
  if (!has0x(s)) fail('hex string without 0x prefix')
  const digits = s.slice(2)
  if (digits.length === 0) fail('hex string "0x"')
  if (digits.length > 1 && digits[0] === '0') fail('hex number with leading zero digits')
  let v = 0n
  for (let i = 0; i < digits.length; i++) {
    const n = nibble(digits.charCodeAt(i))
    if (n < 0) fail('invalid hex string')
    v = v * 16n + BigInt(n)
    if (v > 0xffff_ffff_ffff_ffffn) fail('hex number > 64 bits')
  }
  return v
}

/** hexutil.Decode (log filter addresses and topics): `""` is an error, and there is no size check. */
export function decodeHex(s: string): Uint8Array {
  if (s.length === 0) fail('empty hex string')
  if (!has0x(s)) fail('hex string without 0x prefix')
  const digits = s.slice(2)
  if (!allHex(digits)) fail('invalid hex string')
  if (digits.length % 2 !== 0) fail('hex string of odd length')
  return decodeDigits(digits)
}

