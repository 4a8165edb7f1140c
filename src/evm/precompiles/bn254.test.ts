import { test } from 'node:test'
import assert from 'node:assert/strict'
import { bn254 as curve } from '@noble/curves/bn254.js'
import { rulesFor } from '../fork.ts'
import { bn254Add, bn254Mul, bn254Pairing } from './bn254.ts'
import { compare, concat, flipBit, ourRun, seeded, word, type Random } from './test-kit.ts'

const G1 = curve.G1.Point
const G2 = curve.G2.Point
const Fp2 = curve.fields.Fp2
const P = curve.fields.Fp.ORDER
const R = curve.fields.Fr.ORDER
const FORKS = ['byzantium', 'istanbul', 'cancun', 'osaka'] as const

function g1Bytes(point: InstanceType<typeof G1>): Uint8Array {
  if (point.is0()) return new Uint8Array(64)
  const { x, y } = point.toAffine()
  return concat(word(x), word(y))
}

function g2Bytes(point: InstanceType<typeof G2>): Uint8Array {
  if (point.is0()) return new Uint8Array(128)
  const { x, y } = point.toAffine()
  return concat(word(x.c1), word(x.c0), word(y.c1), word(y.c0))
}

const scalar = (random: Random): bigint => 1n + (random.bigint(256) % (R - 1n))

/** A G1 encoding: valid, infinity, off the curve, a coordinate shifted by p, or random bytes. */
function g1Case(random: Random): Uint8Array {
  const valid = g1Bytes(G1.BASE.multiply(scalar(random)))
  switch (random.int(7)) {
    case 0:
      return new Uint8Array(64)
    case 1:
      return flipBit(random, valid)
    case 2: {
      const { x, y } = G1.BASE.multiply(scalar(random)).toAffine()
      return random.chance(0.5) && x + P < 2n ** 256n ? concat(word(x + P), word(y)) : concat(word(x), word(y + P))
    }
    case 3:
      return random.bytes(64)
    case 4:
      return g1Bytes(G1.BASE) // (1, 2)
    default:
      return valid
  }
}

/** A point on the twist that is (almost surely) outside the order-r subgroup. */
function g2OutsideSubgroup(random: Random): Uint8Array {
  const b = G2.CURVE().b
  for (;;) {
    const x = Fp2.create({ c0: random.bigint(256) % P, c1: random.bigint(256) % P })
    try {
      const y = Fp2.sqrt(Fp2.add(Fp2.mul(Fp2.sqr(x), x), b))
      return concat(word(x.c1), word(x.c0), word(y.c1), word(y.c0))
    } catch {
      // not a square: try another x
    }
  }
}

function g2Case(random: Random): Uint8Array {
  const valid = g2Bytes(G2.BASE.multiply(scalar(random)))
  switch (random.int(8)) {
    case 0:
      return new Uint8Array(128)
    case 1:
      return flipBit(random, valid)
    case 2:
      return g2OutsideSubgroup(random)
    case 3: {
      const shifted = valid.slice()
      shifted.set(word(BigInt('0x' + Buffer.from(valid.subarray(32, 64)).toString('hex')) + P), 32)
      return shifted
    }
    default:
      return valid
  }
}

function resize(random: Random, input: Uint8Array): Uint8Array {
  if (random.chance(0.7)) return input
  return random.chance(0.5) ? input.subarray(0, random.int(input.length + 1)) : concat(input, random.bytes(random.int(64)))
}

test('BN254 ADD and MUL match the library on valid, infinite, invalid and resized inputs, per fork and gas', async () => {
  const random = seeded('bn254 add/mul')
  for (let i = 0; i < 80; i++) {
    const fork = random.pick(FORKS)
    const addPrice = rulesFor(fork).istanbul ? 150 : 500
    const sum = random.chance(0.2) ? (() => { const p = g1Case(random); return concat(p, p) })() : concat(g1Case(random), g1Case(random))
    for (const gas of [addPrice, addPrice - 1, addPrice + random.int(1000)]) await compare(6n, bn254Add, resize(random, sum), gas, fork, 'add')
    const mulPrice = rulesFor(fork).istanbul ? 6000 : 40000
    const k = random.pick([0n, 1n, 2n, R - 1n, R, R + 1n, 2n ** 256n - 1n, random.bigint(256), random.bigint(64)])
    const product = concat(g1Case(random), word(k))
    for (const gas of [mulPrice, mulPrice - 1]) await compare(7n, bn254Mul, resize(random, product), gas, fork, 'mul')
  }
})

test('BN254 PAIRING matches the library on bilinear sets, random sets, invalid and subgroup-less points, lengths', async () => {
  const random = seeded('bn254 pairing')
  for (let i = 0; i < 16; i++) {
    const fork = random.pick(FORKS)
    const a = scalar(random)
    const b = scalar(random)
    // e(aP, bQ) · e(-abP, Q) = 1
    const pairs = [
      concat(g1Bytes(G1.BASE.multiply(a)), g2Bytes(G2.BASE.multiply(b))),
      concat(g1Bytes(G1.BASE.multiply((a * b) % R).negate()), g2Bytes(G2.BASE)),
    ]
    if (random.chance(0.3)) pairs.push(concat(new Uint8Array(64), g2Bytes(G2.BASE.multiply(a))))
    if (random.chance(0.3)) pairs.push(concat(g1Case(random), g2Case(random)))
    if (random.chance(0.3)) pairs[random.int(pairs.length)] = concat(g1Bytes(G1.BASE.multiply(b)), g2Bytes(G2.BASE.multiply(a)))
    let input = concat(...pairs)
    if (random.chance(0.15)) input = input.subarray(0, input.length - 1 - random.int(191))
    if (random.chance(0.1)) input = new Uint8Array(0)
    const count = Math.floor(input.length / 192)
    const price = rulesFor(fork).istanbul ? 45000 + 34000 * count : 100000 + 80000 * count
    await compare(8n, bn254Pairing, input, price, fork, 'pairing')
    await compare(8n, bn254Pairing, input, price - 1, fork, 'pairing, too little gas')
  }
})

test('BN254 known answers: G + G = 2G, 2·G, an empty pairing is 1, a G2 point outside the subgroup fails', () => {
  const rules = rulesFor('cancun')
  const twoG = Buffer.from(g1Bytes(G1.BASE.double())).toString('hex')
  assert.equal(ourRun(bn254Add, concat(g1Bytes(G1.BASE), g1Bytes(G1.BASE)), 150, rules).output, twoG)
  assert.equal(ourRun(bn254Mul, concat(g1Bytes(G1.BASE), word(2n)), 6000, rules).output, twoG)
  assert.equal(ourRun(bn254Pairing, new Uint8Array(0), 45000, rules).output, '00'.repeat(31) + '01')
  const random = seeded('bn254 subgroup')
  const outside = concat(g1Bytes(G1.BASE), g2OutsideSubgroup(random))
  assert.equal(ourRun(bn254Pairing, outside, 10 ** 6, rules).ok, false)
})
