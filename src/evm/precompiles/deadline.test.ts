import { test } from 'node:test'
import assert from 'node:assert/strict'
import { bls12_381 } from '@noble/curves/bls12-381.js'
import { bn254 } from '@noble/curves/bn254.js'
import { rulesFor } from '../fork.ts'
import { ExecutionTimeout, type Precompile } from '../types.ts'
import { blake2f } from './blake2f.ts'
import { blsG2Msm, blsPairingCheck } from './bls12-381.ts'
import { bn254Pairing } from './bn254.ts'
import { concat, word } from './test-kit.ts'

// The precompiles whose time outruns their gas (each costs seconds of a core per few million gas here) look
// at ExecutionContext.deadline while they run: past it they throw ExecutionTimeout instead of running on;
// before it they answer exactly as without one.

const rules = rulesFor('osaka')
const PAST = Date.now() - 1
const FUTURE = Date.now() + 3_600_000

const blsFp = (x: bigint): Uint8Array => word(x, 64)
const blsG1 = ((p) => concat(blsFp(p.x), blsFp(p.y)))(bls12_381.G1.Point.BASE.toAffine())
const blsG2 = ((p) => concat(blsFp(p.x.c0), blsFp(p.x.c1), blsFp(p.y.c0), blsFp(p.y.c1)))(bls12_381.G2.Point.BASE.toAffine())
const bnG1 = ((p) => concat(word(p.x), word(p.y)))(bn254.G1.Point.BASE.toAffine())
const bnG2 = ((p) => concat(word(p.x.c1), word(p.x.c0), word(p.y.c1), word(p.y.c0)))(bn254.G2.Point.BASE.toAffine())
const repeat = (unit: Uint8Array, n: number): Uint8Array => concat(...Array.from({ length: n }, () => unit))

const blake2fInput = (rounds: number): Uint8Array => {
  const input = new Uint8Array(213)
  new DataView(input.buffer).setUint32(0, rounds)
  input[212] = 1
  return input
}

const cases: { name: string; precompile: Precompile; input: Uint8Array }[] = [
  { name: 'BLAKE2F, 2^17 rounds', precompile: blake2f, input: blake2fInput(1 << 17) },
  { name: 'BN254 pairing, 9 pairs', precompile: bn254Pairing, input: repeat(concat(bnG1, bnG2), 9) },
  { name: 'BLS12-381 pairing, 9 pairs', precompile: blsPairingCheck, input: repeat(concat(blsG1, blsG2), 9) },
  { name: 'BLS12-381 G2MSM, 70 points (two Pippenger runs)', precompile: blsG2Msm, input: repeat(concat(blsG2, word(3n)), 70) },
]

for (const c of cases) {
  test(`${c.name}: past its deadline it throws ExecutionTimeout; before it, the same answer as without one`, () => {
    const gas = 10 ** 9
    assert.throws(() => c.precompile(c.input, gas, rules, PAST), ExecutionTimeout)
    const plain = c.precompile(c.input, gas, rules)
    assert.equal(plain.ok, true)
    assert.deepEqual(c.precompile(c.input, gas, rules, FUTURE), plain)
  })
}

test('pairings are still checked whole when looked at in pieces: a bilinear set is one, a broken one is not', () => {
  // e(2P, Q) · e(-P, 2Q) = 1, spread over more pairs than one look at the clock covers.
  const bnPair = (a: bigint, b: bigint): Uint8Array => {
    const g1 = bn254.G1.Point.BASE.multiply(a < 0n ? bn254.fields.Fr.ORDER + a : a).toAffine()
    const g2 = bn254.G2.Point.BASE.multiply(b).toAffine()
    return concat(word(g1.x), word(g1.y), word(g2.x.c1), word(g2.x.c0), word(g2.y.c1), word(g2.y.c0))
  }
  const ones = repeat(concat(bnPair(2n, 1n), bnPair(-1n, 2n)), 5)
  assert.equal(bn254Pairing(ones, 10 ** 9, rules, FUTURE).output[31], 1)
  const broken = concat(ones, bnPair(1n, 1n))
  assert.equal(bn254Pairing(broken, 10 ** 9, rules, FUTURE).output[31], 0)
})
