/**
 * 0x06 BN254 ADD, 0x07 BN254 MUL, 0x08 BN254 PAIRING (Byzantium on; EIP-196/197), through @noble/curves.
 *
 * Prices: 500 / 40000 / 100000 + 80000 per pair from Byzantium, 150 / 6000 / 45000 + 34000 per pair from
 * Istanbul (EIP-1108).
 * Encoding: a G1 point is x ‖ y (32-byte words), (0, 0) being the point at infinity; a G2 point is
 * x.imaginary ‖ x.real ‖ y.imaginary ‖ y.real, all zero being infinity. A coordinate not below the field
 * modulus, a point off its curve, or a G2 point outside the order-r subgroup fails the call (all gas).
 * ADD and MUL read their input right-padded with zeros to 128 / 96 bytes (longer input is ignored past that);
 * PAIRING takes a multiple of 192 bytes (else failure) and returns 1 as a word when the product of pairings is
 * one (so also for no pairs), else 0. The scalar of MUL is any 256-bit number.
 */

import { bn254 as curve } from '@noble/curves/bn254.js'
import type { Precompile } from '../types.ts'
import { checkDeadline, failure, pairingIsOne, readUint, success, writeUint } from './common.ts'

type G1Point = ReturnType<typeof curve.G1.Point.fromAffine>
type G2Point = ReturnType<typeof curve.G2.Point.fromAffine>

const G1 = curve.G1.Point
const G2 = curve.G2.Point
const Fp2 = curve.fields.Fp2
const FIELD_MODULUS = curve.fields.Fp.ORDER
const GROUP_ORDER = curve.fields.Fr.ORDER
const PAIR_LENGTH = 192

/** The G1 point at data[start, start + 64), or undefined when it is not a valid point. */
function readG1(data: Uint8Array, start: number): G1Point | undefined {
  const x = readUint(data, start, start + 32)
  const y = readUint(data, start + 32, start + 64)
  if (x >= FIELD_MODULUS || y >= FIELD_MODULUS) return undefined
  if (x === 0n && y === 0n) return G1.ZERO
  // y² = x³ + 3 (the group has cofactor 1: on the curve is in the group).
  if ((y * y - x * x * x - 3n) % FIELD_MODULUS !== 0n) return undefined
  return G1.fromAffine({ x, y })
}

/** The G2 point at data[start, start + 128), or undefined when invalid or outside the subgroup. */
function readG2(data: Uint8Array, start: number): G2Point | undefined {
  const xImaginary = readUint(data, start, start + 32)
  const xReal = readUint(data, start + 32, start + 64)
  const yImaginary = readUint(data, start + 64, start + 96)
  const yReal = readUint(data, start + 96, start + 128)
  if (xImaginary >= FIELD_MODULUS || xReal >= FIELD_MODULUS || yImaginary >= FIELD_MODULUS || yReal >= FIELD_MODULUS) return undefined
  if (xImaginary === 0n && xReal === 0n && yImaginary === 0n && yReal === 0n) return G2.ZERO
  try {
    const point = G2.fromAffine({ x: Fp2.create({ c0: xReal, c1: xImaginary }), y: Fp2.create({ c0: yReal, c1: yImaginary }) })
    point.assertValidity() // on the twist and in the order-r subgroup
    return point
  } catch {
    return undefined
  }
}

function encodeG1(point: G1Point): Uint8Array {
  const out = new Uint8Array(64)
  if (point.is0()) return out
  const { x, y } = point.toAffine()
  writeUint(out, 0, 32, x)
  writeUint(out, 32, 32, y)
  return out
}

export const bn254Add: Precompile = (input, gas, rules) => {
  const cost = rules.istanbul ? 150 : 500
  if (gas < cost) return failure(gas)
  const a = readG1(input, 0)
  const b = readG1(input, 64)
  if (a === undefined || b === undefined) return failure(gas)
  return success(cost, encodeG1(a.add(b)))
}

export const bn254Mul: Precompile = (input, gas, rules) => {
  const cost = rules.istanbul ? 6000 : 40000
  if (gas < cost) return failure(gas)
  const point = readG1(input, 0)
  if (point === undefined) return failure(gas)
  const scalar = readUint(input, 64, 96) % GROUP_ORDER
  return success(cost, encodeG1(point.multiplyUnsafe(scalar)))
}

export const bn254Pairing: Precompile = (input, gas, rules, deadline) => {
  if (input.length % PAIR_LENGTH !== 0) return failure(gas)
  const pairCount = input.length / PAIR_LENGTH
  const cost = rules.istanbul ? 45000 + 34000 * pairCount : 100000 + 80000 * pairCount
  if (gas < cost) return failure(gas)
  const pairs: { g1: G1Point; g2: G2Point }[] = []
  for (let start = 0; start < input.length; start += PAIR_LENGTH) {
    checkDeadline(deadline) // a G2 subgroup check is a scalar multiplication: the clock costs nothing beside it
    const g1 = readG1(input, start)
    const g2 = readG2(input, start + 64)
    if (g1 === undefined || g2 === undefined) return failure(gas)
    // A pair with a point at infinity contributes a factor of one.
    if (!g1.is0() && !g2.is0()) pairs.push({ g1, g2 })
  }
  const out = new Uint8Array(32)
  if (pairs.length === 0 || pairingIsOne(curve, pairs, deadline)) out[31] = 1
  return success(cost, out)
}
