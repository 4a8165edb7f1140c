/**
 * 256-bit EVM words: the constants, the signed views, EXP, CLZ, and the conversions between words and
 * big-endian bytes that memory, call data and hashing use.
 *
 * A word on the stack (`Word`) is a number when it is at most MAX_SMALL (2^31 - 1, a V8 small integer: stored
 * in an array without a box) and a bigint otherwise, never the other form: one value has one representation,
 * so `===` compares words and a number is below every bigint. Why: most words compiled code computes with
 * are small (offsets, lengths, counters, flags, jump destinations), and a bigint operation allocates (~40 ns
 * an ADD here against ~3 ns on numbers). `canon` makes a bigint result a Word, `big` a Word a bigint for the
 * host and the wide arithmetic. Bigints handed in or out are non-negative and below 2^256 (signed arithmetic
 * goes through BigInt.asIntN and comes back through BigInt.asUintN). The byte conversions read and write
 * through a DataView in 64-bit pieces, with a number path for words that fit in 53 bits. Bigints become
 * numbers through a BigUint64Array store, not Number(), which V8 11 runs as a slow builtin call.
 */

/** A word on the stack: a number up to MAX_SMALL, else a bigint (see above). */
export type Word = number | bigint

/** The largest word held as a number. */
export const MAX_SMALL = 0x7fffffff
const MAX_SMALL_BIG = 0x7fffffffn

export const MAX_WORD = (1n << 256n) - 1n
export const TWO_256 = 1n << 256n
export const MAX_SAFE_WORD = BigInt(Number.MAX_SAFE_INTEGER)
const TWO_32 = 4294967296

// A bigint → number conversion through a BigUint64Array store (about twice as fast as Number() in V8 11)
const low64 = new BigUint64Array(1)
const halves = new Uint32Array(low64.buffer)
const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1
const LOW_HALF = LITTLE_ENDIAN ? 0 : 1
const HIGH_HALF = 1 - LOW_HALF

/** A word known to be below 2^53 as a number. */
export function smallWordToNumber(word: Word): number {
  if (typeof word === 'number') return word
  low64[0] = word
  return halves[HIGH_HALF]! * TWO_32 + halves[LOW_HALF]!
}

/** A bigint word (non-negative, below 2^256) as a Word: a number when small. */
export function canon(word: bigint): Word {
  if (word > MAX_SMALL_BIG) return word
  low64[0] = word
  return halves[LOW_HALF]!
}

/** 0..255 as bigints: the small constants compiled code mixes into wide arithmetic, and shift amounts, without an allocation. */
export const SMALL_BIGINTS: readonly bigint[] = Array.from({ length: 256 }, (_, i) => BigInt(i))

/** A Word as a bigint. */
export function big(word: Word): bigint {
  if (typeof word !== 'number') return word
  return word < 256 ? SMALL_BIGINTS[word]! : BigInt(word)
}

/** A non-negative integer number (at most 2^53 - 1) as a Word. */
export function numberWord(n: number): Word {
  return n <= MAX_SMALL ? n : BigInt(n)
}

/** A word that names an account: its low 160 bits, as a bigint. */
export function addressOf(word: Word): bigint {
  return typeof word === 'number' ? BigInt(word) : BigInt.asUintN(160, word)
}

/** base^exponent mod 2^256 (square and multiply). */
export function expWord(base: bigint, exponent: bigint): bigint {
  if (exponent === 0n) return 1n
  if (base === 2n) return exponent < 256n ? 1n << exponent : 0n
  if (base < 2n) return base
  let result = 1n
  let b = base
  let e = exponent
  while (e > 0n) {
    if ((e & 1n) === 1n) result = BigInt.asUintN(256, result * b)
    e >>= 1n
    if (e > 0n) b = BigInt.asUintN(256, b * b)
  }
  return result
}

/** The number of bits of a word (0 for 0). */
export function bitLength(word: Word): number {
  if (typeof word === 'number') return numberBitLength(word)
  if (word === 0n) return 0
  if (word <= MAX_SAFE_WORD) return numberBitLength(Number(word))
  const hex = word.toString(16)
  return (hex.length - 1) * 4 + (32 - Math.clz32(parseInt(hex[0]!, 16)))
}

function numberBitLength(n: number): number {
  if (n < TWO_32) return 32 - Math.clz32(n)
  return 32 + (32 - Math.clz32(Math.floor(n / TWO_32)))
}

/** The number of bytes of a word (EXP's gas counts them). */
export function byteLength(word: Word): number {
  return (bitLength(word) + 7) >> 3
}

/** EIP-7939 CLZ: leading zero bits of a 256-bit word, 256 for zero. */
export function countLeadingZeros(word: Word): number {
  return 256 - bitLength(word)
}

/** SIGNEXTEND: extend the sign bit of byte `index` (0 = lowest) through the word; index ≥ 31 leaves it. */
export function signExtend(index: bigint, word: bigint): bigint {
  if (index >= 31n) return word
  const bits = (Number(index) + 1) * 8
  return BigInt.asUintN(256, BigInt.asIntN(bits, word))
}

/** The low 32 bits of a word, as a number. */
export function low32(word: Word): number {
  if (typeof word === 'number') return word
  low64[0] = word
  return halves[LOW_HALF]!
}

/** Reads 32 big-endian bytes at `offset` of a DataView, as a Word. */
export function readWord(view: DataView, offset: number): Word {
  if (
    view.getUint32(offset) === 0 &&
    view.getUint32(offset + 4) === 0 &&
    view.getUint32(offset + 8) === 0 &&
    view.getUint32(offset + 12) === 0 &&
    view.getUint32(offset + 16) === 0 &&
    view.getUint32(offset + 20) === 0
  ) {
    const high = view.getUint32(offset + 24)
    if (high === 0) return numberWord(view.getUint32(offset + 28))
    if (high < 0x200000) return BigInt(high * TWO_32 + view.getUint32(offset + 28))
    return view.getBigUint64(offset + 24)
  }
  return (
    (view.getBigUint64(offset) << 192n) |
    (view.getBigUint64(offset + 8) << 128n) |
    (view.getBigUint64(offset + 16) << 64n) |
    view.getBigUint64(offset + 24)
  )
}

/** Writes a word as 32 big-endian bytes at `offset` of a DataView. */
export function writeWord(view: DataView, offset: number, word: Word): void {
  if (typeof word === 'number' || word <= MAX_SAFE_WORD) {
    let high = 0
    let low: number
    if (typeof word === 'number') {
      low = word
    } else {
      low64[0] = word
      high = halves[HIGH_HALF]!
      low = halves[LOW_HALF]!
    }
    view.setUint32(offset, 0)
    view.setUint32(offset + 4, 0)
    view.setUint32(offset + 8, 0)
    view.setUint32(offset + 12, 0)
    view.setUint32(offset + 16, 0)
    view.setUint32(offset + 20, 0)
    view.setUint32(offset + 24, high)
    view.setUint32(offset + 28, low)
    return
  }
  // setBigUint64 keeps the low 64 bits of its argument
  view.setBigUint64(offset, word >> 192n)
  view.setBigUint64(offset + 8, word >> 128n)
  view.setBigUint64(offset + 16, word >> 64n)
  view.setBigUint64(offset + 24, word)
}

const scratch = new Uint8Array(32)
const scratchView = new DataView(scratch.buffer)

/**
 * The word made of `length` (≤ 32) bytes of `bytes` from `offset`, read big-endian; bytes past the end of
 * `bytes` read as zero. With `padRight` the bytes are the word's high end (PUSH past the code's end,
 * CALLDATALOAD), else its low end (a PUSHn value inside the code, a hash).
 */
export function bytesToWord(bytes: Uint8Array, offset: number, length: number, padRight: boolean): Word {
  // byte loops, not set(subarray(..)): a subarray is an allocation that costs more than copying 32 bytes
  const available = Math.max(0, Math.min(length, bytes.length - offset))
  if (available === 32) {
    for (let i = 0; i < 32; i++) scratch[i] = bytes[offset + i]!
  } else {
    scratch.fill(0)
    const start = padRight ? 0 : 32 - length
    for (let i = 0; i < available; i++) scratch[start + i] = bytes[offset + i]!
  }
  return readWord(scratchView, 0)
}

/** A word as 32 big-endian bytes (a new array). */
export function wordToBytes(word: Word): Uint8Array {
  const out = new Uint8Array(32)
  writeWord(new DataView(out.buffer), 0, word)
  return out
}
