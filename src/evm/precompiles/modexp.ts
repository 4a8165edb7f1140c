/**
 * 0x05 MODEXP (Byzantium on): B^E mod M over big-endian numbers whose byte lengths head the input.
 *
 * Input: len(B) ‖ len(E) ‖ len(M) as 32-byte words, then B, E, M; bytes past the input's end are zero.
 * The lengths may be absurd (up to 2^256): the price is computed first, in bigint, from the lengths and the
 * exponent's first 32 bytes only, and nothing of a length's size is allocated before the price is paid.
 *
 * Pricing by fork:
 * - Byzantium (EIP-198): mult_complexity(max(len(B), len(M))) * max(adjusted_exp_len, 1) / 20, with the
 *   piecewise x², x²/4 + 96x - 3072, x²/16 + 480x - 199680 complexity.
 * - Berlin (EIP-2565): max(200, ceil(max_len / 8)² * max(adjusted_exp_len, 1) / 3).
 * - Osaka (EIP-7883): max(500, complexity * max(adjusted_exp_len, 1)), complexity 16 for max_len ≤ 32 bytes
 *   else 2 * ceil(max_len / 8)², and the long-exponent factor 16 instead of 8 per byte past the 32nd.
 *   EIP-7823: any length above 1024 bytes fails (all gas consumed).
 * Before Osaka an input with len(B) = len(M) = 0 returns empty output at its price whatever len(E) is, and a
 * length of 2^31 bytes or more fails (the reference library's bound; no such call is affordable anyway).
 * The output is exactly len(M) bytes: the result left-padded, or zeros when M is 0.
 */

import type { Rules } from '../fork.ts'
import type { Precompile } from '../types.ts'
import { EMPTY, failure, readUint, success, uintBytes } from './common.ts'

const OSAKA_MAX_LENGTH = 1024n
const LEGACY_MAX_LENGTH = 2147483647n

function bitLength(value: bigint): number {
  return value === 0n ? 0 : value.toString(2).length
}

/** EIP-198's mult_complexity(x). */
function byzantiumComplexity(x: bigint): bigint {
  if (x <= 64n) return x * x
  if (x <= 1024n) return (x * x) / 4n + 96n * x - 3072n
  return (x * x) / 16n + 480n * x - 199680n
}

/** The price of a call with these lengths, `input` being the whole call data. */
export function modexpGas(input: Uint8Array, baseLength: bigint, expLength: bigint, modLength: bigint, rules: Rules): bigint {
  // The exponent's first min(len(E), 32) bytes, read where E starts (zero past the input's end).
  const expStart = 96n + baseLength
  let expHead = 0n
  if (expStart < BigInt(input.length) && expLength > 0n) {
    const headLength = expLength < 32n ? Number(expLength) : 32
    const start = Number(expStart)
    expHead = readUint(input, start, start + headLength)
  }
  const headBits = bitLength(expHead)
  let adjustedExpLength = headBits > 0 ? BigInt(headBits - 1) : 0n
  if (expLength > 32n) adjustedExpLength += (expLength - 32n) * (rules.osaka ? 16n : 8n)
  const iterations = adjustedExpLength > 1n ? adjustedExpLength : 1n

  const maxLength = baseLength > modLength ? baseLength : modLength
  if (rules.osaka) {
    const words = (maxLength + 7n) / 8n
    const complexity = maxLength <= 32n ? 16n : 2n * words * words
    const gas = complexity * iterations
    return gas > 500n ? gas : 500n
  }
  if (rules.berlin) {
    const words = (maxLength + 7n) / 8n
    const gas = (words * words * iterations) / 3n
    return gas > 200n ? gas : 200n
  }
  return (byzantiumComplexity(maxLength) * iterations) / 20n
}

/** base^exponent mod modulus, modulus > 0. */
export function modPow(base: bigint, exponent: bigint, modulus: bigint): bigint {
  if (modulus === 1n) return 0n
  if (exponent === 0n) return 1n
  let square = base % modulus
  if (square <= 1n) return square
  let result = 1n
  let e = exponent
  while (e > 0n) {
    if ((e & 1n) === 1n) result = (result * square) % modulus
    e >>= 1n
    if (e > 0n) square = (square * square) % modulus
  }
  return result
}

export const modexp: Precompile = (input, gas, rules) => {
  const baseLength = readUint(input, 0, 32)
  const expLength = readUint(input, 32, 64)
  const modLength = readUint(input, 64, 96)
  const price = modexpGas(input, baseLength, expLength, modLength, rules)
  if (price > BigInt(gas)) return failure(gas)
  const gasUsed = Number(price)

  if (!rules.osaka && baseLength === 0n && modLength === 0n) return success(gasUsed, EMPTY)
  const bound = rules.osaka ? OSAKA_MAX_LENGTH : LEGACY_MAX_LENGTH
  if (baseLength > bound || expLength > bound || modLength > bound) return failure(gas)

  const bLen = Number(baseLength)
  const eLen = Number(expLength)
  const mLen = Number(modLength)
  if (mLen === 0) return success(gasUsed, EMPTY)
  const modulus = readUint(input, 96 + bLen + eLen, 96 + bLen + eLen + mLen)
  if (modulus === 0n) return success(gasUsed, new Uint8Array(mLen))
  const base = readUint(input, 96, 96 + bLen)
  const exponent = readUint(input, 96 + bLen, 96 + bLen + eLen)
  return success(gasUsed, uintBytes(modPow(base, exponent, modulus), mLen))
}
