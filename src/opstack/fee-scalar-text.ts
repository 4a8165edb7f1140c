/**
 * The text op-geth gives a pre-Ecotone receipt's `l1FeeScalar`: the L1 fee scalar divided by 1e6, as Go's
 * big.Float prints itself (String(), that is Text('g', 10)): at most ten significant digits, trailing zeros
 * dropped, and the exponent form when the decimal exponent is below -4 or reaches the digits shown
 * (7000000 → "7", 684000 → "0.684", 1 → "1e-06").
 *
 * Owns: that formatting for non-negative integers over 1e6. The value is rounded half-up on its exact
 * decimal expansion; Go rounds the nearest binary float (at least 64 bits of mantissa), which can only differ
 * on an exact tie at the eleventh digit, so for scalars with more than ten significant digits. It never
 * formats other numbers.
 */

const SIGNIFICANT_DIGITS = 10
const SCALAR_DECIMALS = 6

/** Rounds a digit string to `n` digits (half-up); returns the digits and whether the point moved one place. */
function roundDigits(digits: string, n: number): { digits: string; carried: boolean } {
  if (digits.length <= n) return { digits, carried: false }
  let kept = digits.slice(0, n)
  if (digits.charCodeAt(n) >= 0x35 /* '5' */) {
    const bumped = (BigInt(kept) + 1n).toString()
    if (bumped.length > n) return { digits: bumped.slice(0, n), carried: true }
    kept = bumped
  }
  return { digits: kept, carried: false }
}

/** scalar / 1e6 as Go's big.Float String() prints it. */
export function feeScalarText(scalar: bigint): string {
  if (scalar < 0n) throw new RangeError('fee scalar is negative')
  if (scalar === 0n) return '0'
  const all = scalar.toString()
  // value = 0.<digits> × 10^point
  let point = all.length - SCALAR_DECIMALS
  const rounded = roundDigits(all, SIGNIFICANT_DIGITS)
  if (rounded.carried) point++
  const digits = rounded.digits.replace(/0+$/, '')
  const exponent = point - 1
  const exponentLimit = SIGNIFICANT_DIGITS > digits.length && digits.length >= point ? digits.length : SIGNIFICANT_DIGITS
  if (exponent < -4 || exponent >= exponentLimit) {
    const mantissa = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits
    const sign = exponent < 0 ? '-' : '+'
    return `${mantissa}e${sign}${String(Math.abs(exponent)).padStart(2, '0')}`
  }
  const integerPart = point > 0 ? digits.slice(0, point).padEnd(point, '0') : '0'
  const decimals = Math.max(digits.length - point, 0)
  if (decimals === 0) return integerPart
  const fraction = point < 0 ? '0'.repeat(-point) + digits : digits.slice(point)
  return `${integerPart}.${fraction.slice(0, decimals)}`
}
