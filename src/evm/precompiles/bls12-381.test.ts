import { test } from 'node:test'
import assert from 'node:assert/strict'
import { bls12_381 as curve } from '@noble/curves/bls12-381.js'
import { rulesFor } from '../fork.ts'
import type { Precompile } from '../types.ts'
import { blsG1Add, blsG1Msm, blsG2Add, blsG2Msm, blsMapFp2ToG2, blsMapFpToG1, blsPairingCheck, msmGas } from './bls12-381.ts'
import { compare, concat, flipBit, ourRun, seeded, word, type Outcome, type Random } from './test-kit.ts'
import { G1_OFF_SUBGROUP, G1_OFF_SUBGROUP_NEGATED, G2_OFF_SUBGROUP } from '../../../test/evm/off-subgroup-points.ts'

const G1 = curve.G1.Point
const G2 = curve.G2.Point
const Fp2 = curve.fields.Fp2
const P = curve.fields.Fp.ORDER
const R = curve.fields.Fr.ORDER
const FORKS = ['prague', 'osaka'] as const

const fp = (value: bigint): Uint8Array => word(value, 64)
const g1Bytes = (point: InstanceType<typeof G1>): Uint8Array => {
  if (point.is0()) return new Uint8Array(128)
  const { x, y } = point.toAffine()
  return concat(fp(x), fp(y))
}
const g2Bytes = (point: InstanceType<typeof G2>): Uint8Array => {
  if (point.is0()) return new Uint8Array(256)
  const { x, y } = point.toAffine()
  return concat(fp(x.c0), fp(x.c1), fp(y.c0), fp(y.c1))
}
const scalar = (random: Random): bigint => 1n + (random.bigint(256) % (R - 1n))

/** On the curve, (almost surely) outside the order-r subgroup. */
function g1OutsideSubgroup(random: Random): Uint8Array {
  const Fp = curve.fields.Fp
  for (;;) {
    const x = random.bigint(381) % P
    try {
      return concat(fp(x), fp(Fp.sqrt(Fp.add(Fp.mul(Fp.sqr(x), x), 4n))))
    } catch {
      // not a square
    }
  }
}

function g2OutsideSubgroup(random: Random): Uint8Array {
  const b = G2.CURVE().b
  for (;;) {
    const x = Fp2.create({ c0: random.bigint(381) % P, c1: random.bigint(381) % P })
    try {
      const y = Fp2.sqrt(Fp2.add(Fp2.mul(Fp2.sqr(x), x), b))
      return concat(fp(x.c0), fp(x.c1), fp(y.c0), fp(y.c1))
    } catch {
      // not a square
    }
  }
}

/** Breaks one field element of an encoding: a nonzero top byte, or the value plus p. */
function badField(random: Random, encoding: Uint8Array): Uint8Array {
  const out = encoding.slice()
  const element = random.int(encoding.length / 64)
  if (random.chance(0.5)) out[64 * element + random.int(16)] = 1 + random.int(255)
  else {
    const value = BigInt('0x' + Buffer.from(out.subarray(64 * element, 64 * element + 64)).toString('hex'))
    out.set(fp(value + P), 64 * element)
  }
  return out
}

function pointCase(random: Random, valid: Uint8Array, outside: () => Uint8Array): Uint8Array {
  switch (random.int(9)) {
    case 0:
      return new Uint8Array(valid.length)
    case 1:
      return flipBit(random, valid.subarray(0, valid.length)) // (almost surely) off the curve
    case 2:
      return outside()
    case 3:
      return badField(random, valid)
    default:
      return valid
  }
}

const g1Case = (random: Random): Uint8Array => pointCase(random, g1Bytes(G1.BASE.multiplyUnsafe(scalar(random))), () => g1OutsideSubgroup(random))
const g2Case = (random: Random): Uint8Array => pointCase(random, g2Bytes(G2.BASE.multiplyUnsafe(scalar(random))), () => g2OutsideSubgroup(random))
const scalarCase = (random: Random): Uint8Array => word(random.pick([0n, 1n, R - 1n, R, R + 1n, 2n ** 256n - 1n, random.bigint(256), random.bigint(256)]))

function resize(random: Random, input: Uint8Array): Uint8Array {
  if (random.chance(0.85)) return input
  return random.chance(0.5) ? input.subarray(0, random.int(input.length)) : concat(input, random.bytes(1 + random.int(64)))
}

class Tally {
  readonly seen = new Map<string, number>()
  add(name: string, outcome: Outcome): void {
    const key = `${name} ${outcome.ok ? 'ok' : 'fail'}`
    this.seen.set(key, (this.seen.get(key) ?? 0) + 1)
  }
  /** Each precompile both succeeded and failed at least once. */
  assertBoth(names: readonly string[]): void {
    for (const name of names) for (const kind of ['ok', 'fail']) assert.ok((this.seen.get(`${name} ${kind}`) ?? 0) > 0, `${name}: no ${kind} case (${[...this.seen]})`)
  }
}

async function run(tally: Tally, name: string, address: bigint, precompile: Precompile, input: Uint8Array, gas: number, random: Random): Promise<void> {
  tally.add(name, await compare(address, precompile, input, gas, random.pick(FORKS), name))
}

test('G1ADD, G2ADD, MAP_FP_TO_G1 and MAP_FP2_TO_G2 match the library (infinity, outside the subgroup, off the curve, bad encodings, lengths)', async () => {
  const random = seeded('bls add/map')
  const tally = new Tally()
  for (let i = 0; i < 30; i++) {
    const a = g1Case(random)
    await run(tally, 'G1ADD', 0x0bn, blsG1Add, resize(random, concat(a, random.chance(0.2) ? a : g1Case(random))), random.pick([375, 375, 374, 1000]), random)
    const b = g2Case(random)
    await run(tally, 'G2ADD', 0x0dn, blsG2Add, resize(random, concat(b, random.chance(0.2) ? b : g2Case(random))), random.pick([600, 600, 599, 1000]), random)
    const element = random.chance(0.8) ? fp(random.bigint(381) % P) : badField(random, fp(random.bigint(381) % P))
    await run(tally, 'MAP_FP_TO_G1', 0x10n, blsMapFpToG1, resize(random, element), random.pick([5500, 5500, 5499]), random)
    const element2 = concat(fp(random.bigint(381) % P), fp(random.bigint(381) % P))
    await run(tally, 'MAP_FP2_TO_G2', 0x11n, blsMapFp2ToG2, resize(random, random.chance(0.8) ? element2 : badField(random, element2)), random.pick([23800, 23800, 23799]), random)
  }
  tally.assertBoth(['G1ADD', 'G2ADD', 'MAP_FP_TO_G1', 'MAP_FP2_TO_G2'])
})

test('G1MSM and G2MSM match the library on 0-4 pairs, bad points and scalars, lengths, gas at the discounted price', async () => {
  const random = seeded('bls msm')
  const tally = new Tally()
  for (let i = 0; i < 16; i++) {
    const k = random.pick([0, 1, 1, 2, 3])
    const g1Pairs: Uint8Array[] = []
    const g2Pairs: Uint8Array[] = []
    for (let j = 0; j < k; j++) {
      g1Pairs.push(concat(random.chance(0.85) ? g1Bytes(G1.BASE.multiplyUnsafe(scalar(random))) : g1Case(random), scalarCase(random)))
      g2Pairs.push(concat(random.chance(0.85) ? g2Bytes(G2.BASE.multiplyUnsafe(scalar(random))) : g2Case(random), scalarCase(random)))
    }
    const g1Input = resize(random, concat(...g1Pairs))
    const g1Price = msmGas(Math.floor(g1Input.length / 160), 12000, [1000, 949, 848, 797])
    await run(tally, 'G1MSM', 0x0cn, blsG1Msm, g1Input, random.chance(0.8) ? g1Price : Math.max(0, g1Price - 1), random)
    const g2Input = resize(random, concat(...g2Pairs))
    const g2Price = msmGas(Math.floor(g2Input.length / 288), 22500, [1000, 1000, 923, 884])
    await run(tally, 'G2MSM', 0x0en, blsG2Msm, g2Input, random.chance(0.8) ? g2Price : Math.max(0, g2Price - 1), random)
  }
  tally.assertBoth(['G1MSM', 'G2MSM'])
  // Past the end of the discount tables (k > 128) the last discount applies (small scalars keep this cheap).
  const g1Many = (count: number): Uint8Array => concat(...Array.from({ length: count }, () => concat(g1Bytes(G1.BASE), word(BigInt(random.int(4))))))
  const g1Input = g1Many(129)
  await compare(0x0cn, blsG1Msm, g1Input, msmGas(129, 12000, [519]), 'prague', 'G1MSM of 129 at its price')
  await compare(0x0cn, blsG1Msm, g1Input, msmGas(129, 12000, [519]) - 1, 'prague', 'G1MSM of 129, one below')
  await compare(0x0cn, blsG1Msm, g1Many(200), msmGas(200, 12000, [519]) - 1, 'prague', 'G1MSM of 200, one below')
  const g2Input = concat(...Array.from({ length: 130 }, () => concat(g2Bytes(G2.BASE), word(BigInt(random.int(4))))))
  await compare(0x0en, blsG2Msm, g2Input, Math.floor((130 * 22500 * 524) / 1000), 'prague', 'G2MSM of 130 at its price')
  await compare(0x0en, blsG2Msm, g2Input, Math.floor((130 * 22500 * 524) / 1000) - 1, 'prague', 'G2MSM of 130, one below')
})

test('PAIRING_CHECK matches the library on bilinear sets, infinities, points outside the subgroups, lengths', async () => {
  const random = seeded('bls pairing')
  const tally = new Tally()
  let onesSeen = 0
  for (let i = 0; i < 10; i++) {
    // The first set is left whole and paid in full, and the second is paid one gas short, so that a product of
    // one and a failure are always among the cases; the others are broken at random (a clock seed could
    // otherwise draw ten broken sets, as it did once in CI).
    const whole = i === 0
    const underpaid = i === 1
    const a = scalar(random)
    const b = scalar(random)
    // e(aP, bQ) · e(-abP, Q) = 1
    const pairs = [
      concat(g1Bytes(G1.BASE.multiplyUnsafe(a)), g2Bytes(G2.BASE.multiplyUnsafe(b))),
      concat(g1Bytes(G1.BASE.multiplyUnsafe((a * b) % R).negate()), g2Bytes(G2.BASE)),
    ]
    if (random.chance(0.3)) pairs.push(concat(new Uint8Array(128), g2Bytes(G2.BASE)))
    if (!whole && random.chance(0.3)) pairs.push(concat(g1Case(random), g2Case(random)))
    if (!whole && random.chance(0.2)) pairs[random.int(pairs.length)] = concat(g1Bytes(G1.BASE.multiplyUnsafe(b)), g2Bytes(G2.BASE.multiplyUnsafe(b)))
    let input = concat(...pairs)
    if (!whole && random.chance(0.1)) input = input.subarray(0, input.length - 1 - random.int(383))
    if (!whole && random.chance(0.07)) input = new Uint8Array(0)
    const price = 37700 + 32600 * Math.floor(input.length / 384)
    const paid = whole || (!underpaid && random.chance(0.85)) ? price : price - 1
    const outcome = await compare(0x0fn, blsPairingCheck, input, paid, random.pick(FORKS), 'PAIRING_CHECK')
    tally.add('PAIRING_CHECK', outcome)
    if (outcome.output.endsWith('01')) onesSeen++
  }
  tally.assertBoth(['PAIRING_CHECK'])
  assert.ok(onesSeen > 0, 'some pairing products were one')
})

test('known answers: G + (-G) is infinity, MSM by r is infinity, a lone infinity pair checks to 1', () => {
  const rules = rulesFor('prague')
  assert.equal(ourRun(blsG1Add, concat(g1Bytes(G1.BASE), g1Bytes(G1.BASE.negate())), 375, rules).output, '00'.repeat(128))
  assert.equal(ourRun(blsG2Add, concat(g2Bytes(G2.BASE), g2Bytes(G2.BASE)), 600, rules).output, Buffer.from(g2Bytes(G2.BASE.double())).toString('hex'))
  assert.equal(ourRun(blsG1Msm, concat(g1Bytes(G1.BASE), word(R)), 12000, rules).output, '00'.repeat(128))
  assert.equal(ourRun(blsPairingCheck, concat(new Uint8Array(128), g2Bytes(G2.BASE)), 70300, rules).output, '00'.repeat(31) + '01')
  assert.equal(ourRun(blsPairingCheck, new Uint8Array(0), 10 ** 6, rules).ok, false, 'an empty pairing input fails')
  assert.equal(ourRun(blsG1Msm, new Uint8Array(0), 10 ** 6, rules).ok, false, 'an empty MSM fails')
})

test('EIP-2537 subgroup vectors: MSMs and the pairing refuse points off the r-subgroup on every run, ADD accepts them', async () => {
  const rules = rulesFor('prague')
  const g1Off = [G1_OFF_SUBGROUP, G1_OFF_SUBGROUP_NEGATED]
  for (const point of g1Off) {
    for (const k of [0n, 1n, 3n, R - 1n]) {
      assert.equal(ourRun(blsG1Msm, concat(point, word(k)), 12000, rules).ok, false, `G1MSM of an off-subgroup point times ${k}`)
      // Behind a valid pair, the second point is checked too.
      assert.equal(ourRun(blsG1Msm, concat(g1Bytes(G1.BASE), word(1n), point, word(k)), 2 * 12000, rules).ok, false, 'G1MSM, off-subgroup second pair')
    }
    assert.equal(ourRun(blsPairingCheck, concat(point, g2Bytes(G2.BASE)), 70300, rules).ok, false, 'PAIRING_CHECK with an off-subgroup G1 point')
    assert.equal(ourRun(blsPairingCheck, concat(g1Bytes(G1.BASE), g2Bytes(G2.BASE), point, g2Bytes(G2.BASE)), 102900, rules).ok, false, 'PAIRING_CHECK, second pair off-subgroup')
  }
  for (const k of [0n, 1n, R - 1n]) {
    assert.equal(ourRun(blsG2Msm, concat(G2_OFF_SUBGROUP, word(k)), 22500, rules).ok, false, `G2MSM of an off-subgroup point times ${k}`)
  }
  assert.equal(ourRun(blsPairingCheck, concat(g1Bytes(G1.BASE), G2_OFF_SUBGROUP), 70300, rules).ok, false, 'PAIRING_CHECK with an off-subgroup G2 point')
  assert.equal(ourRun(blsPairingCheck, concat(new Uint8Array(128), G2_OFF_SUBGROUP), 70300, rules).ok, false, 'an off-subgroup G2 point beside infinity is still refused')
  // ADD has no subgroup check: (0, 2) + (0, 2) is the point's double, (0, 2) + (0, p - 2) infinity.
  const sum = ourRun(blsG1Add, concat(G1_OFF_SUBGROUP, G1_OFF_SUBGROUP), 375, rules)
  const off = G1.fromAffine({ x: 0n, y: 2n })
  assert.deepEqual(sum, { ok: true, gasUsed: 375, output: Buffer.from(g1Bytes(off.double())).toString('hex') })
  assert.equal(ourRun(blsG1Add, concat(G1_OFF_SUBGROUP, G1_OFF_SUBGROUP_NEGATED), 375, rules).output, '00'.repeat(128))
  assert.equal(ourRun(blsG2Add, concat(G2_OFF_SUBGROUP, new Uint8Array(256)), 600, rules).output, Buffer.from(G2_OFF_SUBGROUP).toString('hex'))
  // And the library agrees on each (the oracle refuses the same inputs).
  await compare(0x0cn, blsG1Msm, concat(G1_OFF_SUBGROUP, word(1n)), 12000, 'prague', 'G1MSM off-subgroup')
  await compare(0x0en, blsG2Msm, concat(G2_OFF_SUBGROUP, word(1n)), 22500, 'osaka', 'G2MSM off-subgroup')
  await compare(0x0fn, blsPairingCheck, concat(G1_OFF_SUBGROUP, g2Bytes(G2.BASE)), 70300, 'prague', 'PAIRING off-subgroup G1')
})
