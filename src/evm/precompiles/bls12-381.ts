/**
 * 0x0b-0x11, the BLS12-381 precompiles of EIP-2537 as finalised (Prague on), through @noble/curves.
 *
 * Encoding: a base-field element is 64 bytes, its top 16 bytes zero and its value below the modulus p; an
 * Fp2 element is c0 ‖ c1; a G1 point x ‖ y (128 bytes), a G2 point x ‖ y of Fp2 elements (256 bytes); all zero
 * is the point at infinity. A scalar is any 32-byte number. Any encoding error, a point off its curve, or a
 * point outside the order-r subgroup where the EIP asks for the check (MSM and PAIRING; not ADD) fails the
 * call, consuming all gas.
 *
 * | addr | name           | input               | gas                                                    |
 * | 0x0b | G1ADD          | 256                 | 375                                                    |
 * | 0x0c | G1MSM          | 160k, k > 0         | k * 12000 * discount_g1(k) / 1000                      |
 * | 0x0d | G2ADD          | 512                 | 600                                                    |
 * | 0x0e | G2MSM          | 288k, k > 0         | k * 22500 * discount_g2(k) / 1000                      |
 * | 0x0f | PAIRING_CHECK  | 384k, k > 0         | 37700 + 32600k; returns a word, 1 when the product is 1 |
 * | 0x10 | MAP_FP_TO_G1   | 64                  | 5500                                                   |
 * | 0x11 | MAP_FP2_TO_G2  | 128                 | 23800                                                  |
 * The MSM price takes k = floor(length / pair size) even when the length is not a multiple (then it fails).
 */

import { pippenger } from '@noble/curves/abstract/curve.js'
import { bls12_381 as curve } from '@noble/curves/bls12-381.js'
import type { Precompile } from '../types.ts'
import { checkDeadline, failure, isZeroRange, pairingIsOne, readUint, success, writeUint } from './common.ts'

type Fp2 = ReturnType<typeof curve.fields.Fp2.create>
type G1Point = ReturnType<typeof curve.G1.Point.fromAffine>
type G2Point = ReturnType<typeof curve.G2.Point.fromAffine>

const G1 = curve.G1.Point
const G2 = curve.G2.Point
const Fp2 = curve.fields.Fp2
const P = curve.fields.Fp.ORDER
const R = curve.fields.Fr.ORDER
const G2_B: Fp2 = G2.CURVE().b
// RFC 9380 map_to_curve followed by cofactor clearing (the EIP's mappings). At run time noble returns a point
// in the subgroup and takes a bare bigint for G1 (m = 1); its declared types say otherwise.
const mapToG1 = curve.G1.mapToCurve as unknown as (element: bigint) => G1Point
const mapToG2 = curve.G2.mapToCurve as unknown as (element: [bigint, bigint]) => G2Point

const FP_LENGTH = 64
const G1_LENGTH = 128
const G2_LENGTH = 256
const SCALAR_LENGTH = 32
const G1_MSM_PAIR = G1_LENGTH + SCALAR_LENGTH
const G2_MSM_PAIR = G2_LENGTH + SCALAR_LENGTH
const PAIRING_PAIR = G1_LENGTH + G2_LENGTH

/** EIP-2537's MSM discounts per mille for k = 1..128 pairs (the last applies to every larger k). */
const G1_MSM_DISCOUNT = [
  1000, 949, 848, 797, 764, 750, 738, 728, 719, 712, 705, 698, 692, 687, 682, 677,
  673, 669, 665, 661, 658, 654, 651, 648, 645, 642, 640, 637, 635, 632, 630, 627,
  625, 623, 621, 619, 617, 615, 613, 611, 609, 608, 606, 604, 603, 601, 599, 598,
  596, 595, 593, 592, 591, 589, 588, 586, 585, 584, 582, 581, 580, 579, 577, 576,
  575, 574, 573, 572, 570, 569, 568, 567, 566, 565, 564, 563, 562, 561, 560, 559,
  558, 557, 556, 555, 554, 553, 552, 551, 550, 549, 548, 547, 547, 546, 545, 544,
  543, 542, 541, 540, 540, 539, 538, 537, 536, 536, 535, 534, 533, 532, 532, 531,
  530, 529, 528, 528, 527, 526, 525, 525, 524, 523, 522, 522, 521, 520, 520, 519,
]
const G2_MSM_DISCOUNT = [
  1000, 1000, 923, 884, 855, 832, 812, 796, 782, 770, 759, 749, 740, 732, 724, 717,
  711, 704, 699, 693, 688, 683, 679, 674, 670, 666, 663, 659, 655, 652, 649, 646,
  643, 640, 637, 634, 632, 629, 627, 624, 622, 620, 618, 615, 613, 611, 609, 607,
  606, 604, 602, 600, 598, 597, 595, 593, 592, 590, 589, 587, 586, 584, 583, 582,
  580, 579, 578, 576, 575, 574, 573, 571, 570, 569, 568, 567, 566, 565, 563, 562,
  561, 560, 559, 558, 557, 556, 555, 554, 553, 552, 552, 551, 550, 549, 548, 547,
  546, 545, 545, 544, 543, 542, 541, 541, 540, 539, 538, 537, 537, 536, 535, 535,
  534, 533, 532, 532, 531, 530, 530, 529, 528, 528, 527, 526, 526, 525, 524, 524,
]

export function msmGas(pairCount: number, perPair: number, discounts: readonly number[]): number {
  if (pairCount === 0) return 0
  const discount = discounts[Math.min(pairCount, discounts.length) - 1]!
  return Math.floor((pairCount * perPair * discount) / 1000)
}

/** The field element at data[start, start + 64), or -1n when badly encoded. */
function readFp(data: Uint8Array, start: number): bigint {
  if (!isZeroRange(data, start, start + 16)) return -1n
  const value = readUint(data, start + 16, start + FP_LENGTH)
  return value < P ? value : -1n
}

function readFp2(data: Uint8Array, start: number): Fp2 | undefined {
  const c0 = readFp(data, start)
  const c1 = readFp(data, start + FP_LENGTH)
  if (c0 < 0n || c1 < 0n) return undefined
  return Fp2.create({ c0, c1 })
}

/** The G1 point at data[start, start + 128), or undefined when invalid (or outside G1 when `inSubgroup`). */
function readG1(data: Uint8Array, start: number, inSubgroup: boolean): G1Point | undefined {
  const x = readFp(data, start)
  const y = readFp(data, start + FP_LENGTH)
  if (x < 0n || y < 0n) return undefined
  if (x === 0n && y === 0n) return G1.ZERO
  if ((y * y - x * x * x - 4n) % P !== 0n) return undefined // y² = x³ + 4
  // The curve has no point with y = 0 (its order is odd), so the constructor's y ≠ 0 rule cannot bite here.
  const point = G1.fromAffine({ x, y })
  if (inSubgroup && !point.isTorsionFree()) return undefined
  return point
}

/** The G2 point at data[start, start + 256), or undefined when invalid (or outside G2 when `inSubgroup`). */
function readG2(data: Uint8Array, start: number, inSubgroup: boolean): G2Point | undefined {
  const x = readFp2(data, start)
  const y = readFp2(data, start + 2 * FP_LENGTH)
  if (x === undefined || y === undefined) return undefined
  if (Fp2.is0(x) && Fp2.is0(y)) return G2.ZERO
  if (!Fp2.eql(Fp2.sqr(y), Fp2.add(Fp2.mul(Fp2.sqr(x), x), G2_B))) return undefined // y² = x³ + 4(1 + i)
  const point = G2.fromAffine({ x, y })
  if (inSubgroup && !point.isTorsionFree()) return undefined
  return point
}

function encodeG1(point: G1Point): Uint8Array {
  const out = new Uint8Array(G1_LENGTH)
  if (point.is0()) return out
  const { x, y } = point.toAffine()
  writeUint(out, 16, 48, x)
  writeUint(out, 80, 48, y)
  return out
}

function encodeG2(point: G2Point): Uint8Array {
  const out = new Uint8Array(G2_LENGTH)
  if (point.is0()) return out
  const { x, y } = point.toAffine()
  writeUint(out, 16, 48, x.c0)
  writeUint(out, 80, 48, x.c1)
  writeUint(out, 144, 48, y.c0)
  writeUint(out, 208, 48, y.c1)
  return out
}

/** Σ scalars[i]·points[i] in G1 (scalars in [1, r)): Pippenger's method from three terms on, where it pays. */
function sumG1(points: G1Point[], scalars: bigint[], deadline: number | undefined): G1Point {
  if (points.length > 2) return inChunks(G1.ZERO, (p, k) => pippenger(G1, p, k), points, scalars, deadline)
  let sum = G1.ZERO
  for (let i = 0; i < points.length; i++) sum = sum.add(points[i]!.multiplyUnsafe(scalars[i]!))
  return sum
}

/** Points per Pippenger run in inChunks: the clock is looked at between runs (~0.2–0.5 s of G2 work each). */
const MSM_CHUNK = 64

/** Σ scalars[i]·points[i] by `msm` (Pippenger), MSM_CHUNK points at a time with a look at the clock between (the sum is the same). */
function inChunks<T extends { add(other: T): T }>(zero: T, msm: (p: T[], s: bigint[]) => T, points: T[], scalars: bigint[], deadline: number | undefined): T {
  if (points.length <= MSM_CHUNK) return msm(points, scalars)
  let sum = zero
  for (let i = 0; i < points.length; i += MSM_CHUNK) {
    checkDeadline(deadline)
    sum = sum.add(msm(points.slice(i, i + MSM_CHUNK), scalars.slice(i, i + MSM_CHUNK)))
  }
  return sum
}

/** The same in G2. */
function sumG2(points: G2Point[], scalars: bigint[], deadline: number | undefined): G2Point {
  if (points.length > 2) return inChunks(G2.ZERO, (p, k) => pippenger(G2, p, k), points, scalars, deadline)
  let sum = G2.ZERO
  for (let i = 0; i < points.length; i++) sum = sum.add(points[i]!.multiplyUnsafe(scalars[i]!))
  return sum
}

export const blsG1Add: Precompile = (input, gas) => {
  const cost = 375
  if (gas < cost || input.length !== 2 * G1_LENGTH) return failure(gas)
  const a = readG1(input, 0, false)
  const b = readG1(input, G1_LENGTH, false)
  if (a === undefined || b === undefined) return failure(gas)
  return success(cost, encodeG1(a.add(b)))
}

export const blsG2Add: Precompile = (input, gas) => {
  const cost = 600
  if (gas < cost || input.length !== 2 * G2_LENGTH) return failure(gas)
  const a = readG2(input, 0, false)
  const b = readG2(input, G2_LENGTH, false)
  if (a === undefined || b === undefined) return failure(gas)
  return success(cost, encodeG2(a.add(b)))
}

export const blsG1Msm: Precompile = (input, gas, _rules, deadline) => {
  const pairCount = Math.floor(input.length / G1_MSM_PAIR)
  const cost = msmGas(pairCount, 12000, G1_MSM_DISCOUNT)
  if (pairCount === 0 || input.length % G1_MSM_PAIR !== 0 || gas < cost) return failure(gas)
  const points: G1Point[] = []
  const scalars: bigint[] = []
  for (let start = 0; start < input.length; start += G1_MSM_PAIR) {
    checkDeadline(deadline) // a subgroup check is a scalar multiplication: the clock costs nothing beside it
    const point = readG1(input, start, true)
    if (point === undefined) return failure(gas)
    const scalar = readUint(input, start + G1_LENGTH, start + G1_MSM_PAIR) % R
    if (scalar !== 0n && !point.is0()) {
      points.push(point)
      scalars.push(scalar)
    }
  }
  return success(cost, encodeG1(sumG1(points, scalars, deadline)))
}

export const blsG2Msm: Precompile = (input, gas, _rules, deadline) => {
  const pairCount = Math.floor(input.length / G2_MSM_PAIR)
  const cost = msmGas(pairCount, 22500, G2_MSM_DISCOUNT)
  if (pairCount === 0 || input.length % G2_MSM_PAIR !== 0 || gas < cost) return failure(gas)
  const points: G2Point[] = []
  const scalars: bigint[] = []
  for (let start = 0; start < input.length; start += G2_MSM_PAIR) {
    checkDeadline(deadline)
    const point = readG2(input, start, true)
    if (point === undefined) return failure(gas)
    const scalar = readUint(input, start + G2_LENGTH, start + G2_MSM_PAIR) % R
    if (scalar !== 0n && !point.is0()) {
      points.push(point)
      scalars.push(scalar)
    }
  }
  return success(cost, encodeG2(sumG2(points, scalars, deadline)))
}

export const blsPairingCheck: Precompile = (input, gas, _rules, deadline) => {
  const pairCount = input.length / PAIRING_PAIR
  const cost = 37700 + 32600 * Math.floor(pairCount)
  if (input.length === 0 || !Number.isInteger(pairCount) || gas < cost) return failure(gas)
  const pairs: { g1: G1Point; g2: G2Point }[] = []
  for (let start = 0; start < input.length; start += PAIRING_PAIR) {
    checkDeadline(deadline)
    const g1 = readG1(input, start, true)
    const g2 = readG2(input, start + G1_LENGTH, true)
    if (g1 === undefined || g2 === undefined) return failure(gas)
    // A pair with a point at infinity contributes a factor of one.
    if (!g1.is0() && !g2.is0()) pairs.push({ g1, g2 })
  }
  const out = new Uint8Array(32)
  if (pairs.length === 0 || pairingIsOne(curve, pairs, deadline)) out[31] = 1
  return success(cost, out)
}

export const blsMapFpToG1: Precompile = (input, gas) => {
  const cost = 5500
  if (gas < cost || input.length !== FP_LENGTH) return failure(gas)
  const element = readFp(input, 0)
  if (element < 0n) return failure(gas)
  return success(cost, encodeG1(mapToG1(element)))
}

export const blsMapFp2ToG2: Precompile = (input, gas) => {
  const cost = 23800
  if (gas < cost || input.length !== 2 * FP_LENGTH) return failure(gas)
  const c0 = readFp(input, 0)
  const c1 = readFp(input, FP_LENGTH)
  if (c0 < 0n || c1 < 0n) return failure(gas)
  return success(cost, encodeG2(mapToG2([c0, c1])))
}
