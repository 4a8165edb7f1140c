/**
 * BLS12-381 points that are on their curve but outside the order-r subgroup, as EIP-2537's 64-byte-per-element
 * encodings: the known-bad inputs that G1MSM, G2MSM and PAIRING_CHECK must refuse (and G1ADD/G2ADD accept).
 *
 * - G1: (0, 2) and its negation (0, p - 2): on y² = x³ + 4, a point of order 3, the shape EIP-2537's
 *   "not in subgroup" vectors and execution-spec-tests use.
 * - G2: the point with x = u (c0 = 0, c1 = 1) on y² = x³ + 4(1 + u), y the field's square root.
 * Each is checked with @noble/curves when this module loads (on the curve, not torsion-free), so a wrong
 * constant here fails loudly instead of making a test vacuous. Test code only.
 */

import { bls12_381 as curve } from '@noble/curves/bls12-381.js'
import { concatBytes } from '@ethereumjs/util'
import { bigIntToFixedBytes } from '../../src/primitives/hex.ts'

const P = curve.fields.Fp.ORDER
const Fp2 = curve.fields.Fp2

const fp = (value: bigint): Uint8Array => bigIntToFixedBytes(value, 64)

function checkedG1(x: bigint, y: bigint): Uint8Array {
  const point = curve.G1.Point.fromAffine({ x, y })
  if (!isOnCurve(point) || point.isTorsionFree()) throw new Error(`(${x}, ${y}) is not an off-subgroup G1 point`)
  return concatBytes(fp(x), fp(y))
}

function offSubgroupG2(): Uint8Array {
  const x = Fp2.create({ c0: 0n, c1: 1n })
  const y = Fp2.sqrt(Fp2.add(Fp2.mul(Fp2.sqr(x), x), curve.G2.Point.CURVE().b))
  const point = curve.G2.Point.fromAffine({ x, y })
  if (!isOnCurve(point) || point.isTorsionFree()) throw new Error('x = u gives no off-subgroup G2 point')
  return concatBytes(fp(x.c0), fp(x.c1), fp(y.c0), fp(y.c1))
}

/** On the curve: noble's validity check fails only for the subgroup (an off-curve point fails for its equation). */
function isOnCurve(point: { assertValidity(): void }): boolean {
  try {
    point.assertValidity()
    return true
  } catch (e) {
    return /subgroup/.test(String(e))
  }
}

/** (0, 2): order 3. */
export const G1_OFF_SUBGROUP = checkedG1(0n, 2n)
/** (0, p - 2): the negation of (0, 2). */
export const G1_OFF_SUBGROUP_NEGATED = checkedG1(0n, P - 2n)
/** x = u, y its square root. */
export const G2_OFF_SUBGROUP = offSubgroupG2()
