/**
 * 0x09 BLAKE2F (Istanbul on, EIP-152): the BLAKE2b compression function F with a caller-chosen round count.
 *
 * Input exactly 213 bytes: rounds (4 bytes, big-endian) ‖ h (8 × 8 bytes) ‖ m (16 × 8 bytes) ‖ t (2 × 8 bytes) ‖
 * f (1 byte, 0 or 1), the 64-bit words little-endian as in BLAKE2b. Any other length or flag fails (all gas).
 * Gas is one per round, so up to 2^32 - 1 rounds: the loop works on 64-bit words held as (low, high) 32-bit
 * halves in a Uint32Array, without allocation per round. Output: the new h, 64 bytes little-endian.
 */

import { ExecutionTimeout, type Precompile } from '../types.ts'
import { failure, success } from './common.ts'

export const BLAKE2F_INPUT_LENGTH = 213

/** BLAKE2b's initialisation vector as (low, high) 32-bit halves. */
const IV = new Uint32Array([
  0xf3bcc908, 0x6a09e667, 0x84caa73b, 0xbb67ae85, 0xfe94f82b, 0x3c6ef372, 0x5f1d36f1, 0xa54ff53a,
  0xade682d1, 0x510e527f, 0x2b3e6c1f, 0x9b05688c, 0xfb41bd6b, 0x1f83d9ab, 0x137e2179, 0x5be0cd19,
])

/** The message schedule σ of RFC 7693, ten rows of sixteen word indices. */
const SIGMA = new Uint8Array([
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
  14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3,
  11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4,
  7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8,
  9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13,
  2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9,
  12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11,
  13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10,
  6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5,
  10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0,
])

// Working state: word i of v is (v[2i], v[2i + 1]) = (low, high); the same for the message m.
const v = new Uint32Array(32)
const m = new Uint32Array(32)

/** v[a] += v[b] + m[x] (all 64-bit, indices of words). */
function add3(a: number, b: number, x: number): void {
  const aLo = v[2 * a]!
  const sum1 = aLo + v[2 * b]!
  const sum1Lo = sum1 >>> 0
  const sum2 = sum1Lo + m[2 * x]!
  const lo = sum2 >>> 0
  const carry = (sum1 > 0xffffffff ? 1 : 0) + (sum2 > 0xffffffff ? 1 : 0)
  v[2 * a] = lo
  v[2 * a + 1] = v[2 * a + 1]! + v[2 * b + 1]! + m[2 * x + 1]! + carry
}

/** v[c] += v[d] (64-bit). */
function add2(c: number, d: number): void {
  const sum = v[2 * c]! + v[2 * d]!
  v[2 * c] = sum
  v[2 * c + 1] = v[2 * c + 1]! + v[2 * d + 1]! + (sum > 0xffffffff ? 1 : 0)
}

/** v[d] = (v[d] ^ v[a]) rotated right by 32, 16 or 24 (the rotations G uses on d and b), or by 63. */
function xorRotate(d: number, a: number, by: number): void {
  const lo = v[2 * d]! ^ v[2 * a]!
  const hi = v[2 * d + 1]! ^ v[2 * a + 1]!
  if (by === 32) {
    v[2 * d] = hi
    v[2 * d + 1] = lo
  } else if (by === 63) {
    // right by 63 = left by 1
    v[2 * d] = (lo << 1) | (hi >>> 31)
    v[2 * d + 1] = (hi << 1) | (lo >>> 31)
  } else {
    v[2 * d] = (lo >>> by) | (hi << (32 - by))
    v[2 * d + 1] = (hi >>> by) | (lo << (32 - by))
  }
}

/** BLAKE2b's mixing function G on words a, b, c, d with message words x, y. */
function mix(a: number, b: number, c: number, d: number, x: number, y: number): void {
  add3(a, b, x)
  xorRotate(d, a, 32)
  add2(c, d)
  xorRotate(b, c, 24)
  add3(a, b, y)
  xorRotate(d, a, 16)
  add2(c, d)
  xorRotate(b, c, 63)
}

/** Rounds between two looks at the clock (~40 ms of rounds here; the check itself is ~50 ns). */
const ROUNDS_PER_CLOCK_CHECK = 1 << 16

/**
 * F(h, m, t, f) with `rounds` rounds over `input`'s fields; returns the new h, little-endian. Rounds cost one
 * gas each but ~0.7 µs here: 50M gas of them is half a minute, so past `deadline` it throws ExecutionTimeout.
 */
function compress(input: Uint8Array, rounds: number, final: boolean, deadline: number | undefined): Uint8Array {
  const view = new DataView(input.buffer, input.byteOffset, input.byteLength)
  for (let i = 0; i < 16; i++) {
    v[i] = view.getUint32(4 + 4 * i, true)
    v[16 + i] = IV[i]!
  }
  for (let i = 0; i < 32; i++) m[i] = view.getUint32(68 + 4 * i, true)
  // v12 ^= t low word, v13 ^= t high word; v14 inverted on the final block.
  for (let i = 0; i < 4; i++) v[24 + i] = v[24 + i]! ^ view.getUint32(196 + 4 * i, true)
  if (final) {
    v[28] = ~v[28]!
    v[29] = ~v[29]!
  }
  for (let round = 0; round < rounds; round++) {
    if (deadline !== undefined && (round & (ROUNDS_PER_CLOCK_CHECK - 1)) === ROUNDS_PER_CLOCK_CHECK - 1 && Date.now() > deadline) throw new ExecutionTimeout()
    const s = (round % 10) * 16
    mix(0, 4, 8, 12, SIGMA[s]!, SIGMA[s + 1]!)
    mix(1, 5, 9, 13, SIGMA[s + 2]!, SIGMA[s + 3]!)
    mix(2, 6, 10, 14, SIGMA[s + 4]!, SIGMA[s + 5]!)
    mix(3, 7, 11, 15, SIGMA[s + 6]!, SIGMA[s + 7]!)
    mix(0, 5, 10, 15, SIGMA[s + 8]!, SIGMA[s + 9]!)
    mix(1, 6, 11, 12, SIGMA[s + 10]!, SIGMA[s + 11]!)
    mix(2, 7, 8, 13, SIGMA[s + 12]!, SIGMA[s + 13]!)
    mix(3, 4, 9, 14, SIGMA[s + 14]!, SIGMA[s + 15]!)
  }
  const out = new Uint8Array(64)
  const outView = new DataView(out.buffer)
  for (let i = 0; i < 16; i++) outView.setUint32(4 * i, view.getUint32(4 + 4 * i, true) ^ v[i]! ^ v[16 + i]!, true)
  return out
}

export const blake2f: Precompile = (input, gas, _rules, deadline) => {
  if (input.length !== BLAKE2F_INPUT_LENGTH) return failure(gas)
  const flag = input[212]!
  if (flag > 1) return failure(gas)
  const rounds = ((input[0]! << 24) | (input[1]! << 16) | (input[2]! << 8) | input[3]!) >>> 0
  if (gas < rounds) return failure(gas)
  return success(rounds, compress(input, rounds, flag === 1, deadline))
}
