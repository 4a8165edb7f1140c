/**
 * Hex codecs for the JSON-RPC wire format.
 *
 * Quantities are minimal big-endian hex (`0x0`, `0x1a`, never leading zeros); data is even-length hex
 * (`0x` for empty). Parsing is strict and throws plain `Error`s whose messages are geth's wording; the rpc
 * param layer prefixes them with `invalid argument N:`. Everything here is pure and allocation-light, since
 * it runs on every request and every response field.
 */

const HEX_CHARS = '0123456789abcdef'

export type Hex = `0x${string}`

/**
 * A byte's two hex digits as one 16-bit word in the platform's byte order: written through a Uint16Array view
 * they land as the two ASCII digits in order.
 */
const DIGIT_PAIRS = new Uint16Array(256)
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1
for (let i = 0; i < 256; i++) {
  const hi = HEX_CHARS.charCodeAt(i >> 4)
  const lo = HEX_CHARS.charCodeAt(i & 15)
  DIGIT_PAIRS[i] = LITTLE_ENDIAN ? hi | (lo << 8) : (hi << 8) | lo
}

/**
 * Up to this many bytes the digits are written into a scratch buffer that already starts with `0x` and read
 * out as one latin1 string: one native call and a flat string, where a template around Buffer's hex encoder
 * made a rope (flattened again by JSON.stringify) and a per-byte concatenation ~33 pieces for a hash. Past it
 * Buffer's native encoder is faster.
 */
const SCRATCH_BYTES = 256
const scratch = Buffer.alloc(2 + 2 * SCRATCH_BYTES)
scratch[0] = 0x30 // '0'
scratch[1] = 0x78 // 'x'
const scratchPairs = new Uint16Array(scratch.buffer, scratch.byteOffset, scratch.length / 2)

/** Bytes to `0x`-prefixed lower-case hex. */
export function bytesToHex(bytes: Uint8Array): Hex {
  const n = bytes.length
  if (n > SCRATCH_BYTES) return `0x${Buffer.from(bytes.buffer, bytes.byteOffset, n).toString('hex')}`
  for (let i = 0; i < n; i++) scratchPairs[i + 1] = DIGIT_PAIRS[bytes[i]!]!
  return scratch.toString('latin1', 0, 2 + 2 * n) as Hex
}

/** Non-negative integer to a minimal hex quantity. */
export function quantity(value: bigint | number): Hex {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`not a quantity: ${value}`)
    return `0x${value.toString(16)}`
  }
  if (value < 0n) throw new RangeError(`not a quantity: ${value}`)
  return `0x${value.toString(16)}`
}

/** The value of one hex digit's char code, or -1 for a code that is not a hex digit. */
export function hexNibble(code: number): number {
  if (code >= 48 && code <= 57) return code - 48
  if (code >= 97 && code <= 102) return code - 87
  if (code >= 65 && code <= 70) return code - 55
  return -1
}

export function isHexDigits(s: string, from = 2): boolean {
  for (let i = from; i < s.length; i++) if (hexNibble(s.charCodeAt(i)) < 0) return false
  return true
}

/** Strict `0x`-prefixed hex to bytes. Odd length is an error, as in geth's hexutil.Bytes. */
export function hexToBytes(hex: string): Uint8Array {
  if (!hex.startsWith('0x') && !hex.startsWith('0X')) throw new Error('hex string without 0x prefix')
  const digits = hex.length - 2
  if (digits % 2 !== 0) throw new Error('hex string of odd length')
  const out = new Uint8Array(digits / 2)
  for (let i = 0; i < out.length; i++) {
    const hi = hexNibble(hex.charCodeAt(2 + 2 * i))
    const lo = hexNibble(hex.charCodeAt(3 + 2 * i))
    if (hi < 0 || lo < 0) throw new Error('invalid hex string')
    out[i] = (hi << 4) | lo
  }
  return out
}

/**
 * Strict hex quantity (geth's hexutil.Big rules): `0x` prefix, no leading zeros, non-empty, at most
 * `maxBits` bits.
 */
export function parseQuantity(hex: string, maxBits = 256): bigint {
  if (!hex.startsWith('0x') && !hex.startsWith('0X')) throw new Error('hex string without 0x prefix')
  if (hex.length === 2) throw new Error('hex string "0x"')
  if (hex.length > 3 && hex[2] === '0') throw new Error('hex number with leading zero digits')
  if (!isHexDigits(hex)) throw new Error('invalid hex string')
  if ((hex.length - 2) * 4 > maxBits + 3) throw new Error(`hex number > ${maxBits} bits`)
  const value = BigInt(hex)
  if (value >> BigInt(maxBits) !== 0n) throw new Error(`hex number > ${maxBits} bits`)
  return value
}

/** Big-endian unsigned bytes to bigint (empty = 0). */
export function bytesToBigInt(bytes: Uint8Array): bigint {
  // Six bytes at a time as a Number (48 bits are exact), then one shift and OR per chunk: about twice as
  // fast as parsing hex for addresses and words, which the EVM converts on every account and slot it loads.
  const n = bytes.length
  const head = n % 6
  let i = 0
  let x = 0
  for (; i < head; i++) x = x * 256 + bytes[i]!
  let value = BigInt(x)
  for (; i < n; i += 6) {
    const high = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!
    const low = (bytes[i + 3]! << 16) | (bytes[i + 4]! << 8) | bytes[i + 5]!
    value = (value << 48n) | BigInt(high * 16777216 + low)
  }
  return value
}

/** bigint to its shortest big-endian bytes (0 = empty), as RLP stores an integer. */
export function bigIntToMinimalBytes(value: bigint): Uint8Array {
  if (value <= MAX_SAFE) {
    let n = Number(value)
    let length = 0
    for (let m = n; m > 0; m = Math.floor(m / 256)) length++
    const out = new Uint8Array(length)
    for (let i = length - 1; i >= 0; i--, n = Math.floor(n / 256)) out[i] = n % 256
    return out
  }
  const hex = value.toString(16)
  return hexToBytes(hex.length % 2 === 0 ? `0x${hex}` : `0x0${hex}`)
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER)

/** bigint to big-endian bytes of exactly `length` bytes (left-padded). */
export function bigIntToFixedBytes(value: bigint, length: number): Uint8Array {
  const out = new Uint8Array(length)
  if (value <= 0n) return out
  // From the hex digits, low byte first (one native conversion instead of a bigint shift per byte: ~4×).
  const hex = value.toString(16)
  let j = hex.length - 1
  for (let i = length - 1; i >= 0 && j >= 0; i--) {
    const low = hexNibble(hex.charCodeAt(j--))
    const high = j >= 0 ? hexNibble(hex.charCodeAt(j--)) : 0
    out[i] = (high << 4) | low
  }
  return out
}

/** Left-pads `bytes` with zeros to `length` (returns the input when already long enough). */
export function leftPad(bytes: Uint8Array, length: number): Uint8Array {
  if (bytes.length >= length) return bytes
  const out = new Uint8Array(length)
  out.set(bytes, length - bytes.length)
  return out
}

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

export const ZERO_ADDRESS: Uint8Array = new Uint8Array(20)
