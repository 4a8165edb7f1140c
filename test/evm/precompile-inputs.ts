/**
 * Inputs for calls to precompiles in random programs: for each precompile a mix of well-formed inputs that
 * take the real computation path (valid signatures made here with @noble/curves, curve generators and their
 * negations, points at infinity, a valid KZG opening) and malformed ones (wrong lengths, points off the curve
 * or off the BLS12-381 r-subgroup, field elements out of range, bad flags, ECRECOVER v words with high bytes
 * set), so both the success and the failure paths of each are reached.
 * Deterministic in the Rng given.
 */

import { secp256k1 } from '@noble/curves/secp256k1.js'
import { p256 } from '@noble/curves/nist.js'
import { bn254 } from '@noble/curves/bn254.js'
import { bls12_381 } from '@noble/curves/bls12-381.js'
import type { Rng } from '../support/rng.ts'
import { G1_OFF_SUBGROUP, G1_OFF_SUBGROUP_NEGATED, G2_OFF_SUBGROUP } from './off-subgroup-points.ts'

export const PRECOMPILE_SINCE: ReadonlyMap<bigint, string> = new Map([
  [1n, 'frontier'], [2n, 'frontier'], [3n, 'frontier'], [4n, 'frontier'],
  [5n, 'byzantium'], [6n, 'byzantium'], [7n, 'byzantium'], [8n, 'byzantium'],
  [9n, 'istanbul'], [10n, 'cancun'],
  [11n, 'prague'], [12n, 'prague'], [13n, 'prague'], [14n, 'prague'], [15n, 'prague'], [16n, 'prague'], [17n, 'prague'],
  [0x100n, 'osaka'],
])

export const PRECOMPILE_ADDRESSES: readonly bigint[] = [...PRECOMPILE_SINCE.keys()]

function word(value: bigint, length = 32): Uint8Array {
  const out = new Uint8Array(length)
  let v = value
  for (let i = length - 1; i >= 0 && v > 0n; i--) {
    out[i] = Number(v & 0xffn)
    v >>= 8n
  }
  return out
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}

/** Expensive values (signatures, curve multiples) are made once per index and reused: `pool(n, make)(rng)`. */
function pool<T>(size: number, make: (i: number) => T): (rng: Rng) => T {
  const made: T[] = []
  return (rng) => {
    const i = rng.int(size)
    for (let j = made.length; j <= i; j++) made.push(make(j))
    return made[i]!
  }
}

function bytesToBig(bytes: Uint8Array): bigint {
  let v = 0n
  for (const b of bytes) v = (v << 8n) | BigInt(b)
  return v
}

/** Sometimes cut or extend a well-formed input by a few bytes (malformed length). */
function maybeMangleLength(rng: Rng, input: Uint8Array): Uint8Array {
  if (!rng.chance(0.12)) return input
  if (rng.chance(0.5) && input.length > 0) return input.subarray(0, rng.int(input.length))
  return concat(input, rng.bytes(rng.range(1, 40)))
}

// ---- secp256k1 (0x01) ----

const secpSignature = pool(12, (i) => {
  const key = word(BigInt(i + 1) * 0x1234567n)
  const hash = keccakLike(i)
  return { hash, sig: secp256k1.sign(hash, key, { prehash: false, format: 'recovered' }) }
})

/** 32 bytes that depend on i (no need for a real hash). */
function keccakLike(i: number): Uint8Array {
  const out = new Uint8Array(32)
  for (let j = 0; j < 32; j++) out[j] = (i * 131 + j * 29 + 7) & 0xff
  return out
}

function ecrecoverInput(rng: Rng): Uint8Array {
  const { hash, sig } = secpSignature(rng)
  // 'recovered' format: recovery byte, then r and s.
  let v = 27n + BigInt(sig[0]!)
  let r = sig.subarray(1, 33)
  let s = sig.subarray(33, 65)
  const twist = rng.int(8)
  // a v word that is not exactly 27 or 28: small, one byte up, or with its high bytes set
  if (twist === 0) v = rng.pick([0n, 1n, 29n, 256n + 27n, (1n << 255n) | 27n, (0xffn << 240n) | 28n, v | (1n << BigInt(8 * rng.range(1, 31)))])
  else if (twist === 1) r = new Uint8Array(32)
  else if (twist === 2) s = word(secp256k1.Point.CURVE().n)
  else if (twist === 3) return rng.bytes(rng.range(0, 140))
  return maybeMangleLength(rng, concat(hash, word(v), r, s))
}

// ---- BN254 (0x06-0x08) ----

const BN_P = bn254.fields.Fp.ORDER
const BN_G1 = [1n, 2n] as const
const BN_G2 = bn254.G2.Point.BASE.toAffine()

const bnMultiple = pool(8, (i) => {
  const p = bn254.G1.Point.BASE.multiply(BigInt(i + 2) * 1_000_003n).toAffine()
  return concat(word(p.x), word(p.y))
})

function bnG1(rng: Rng): Uint8Array {
  switch (rng.int(6)) {
    case 0: return new Uint8Array(64) // infinity
    case 1: return concat(word(BN_G1[0]), word(BN_G1[1]))
    case 2: return concat(word(BN_G1[0]), word(BN_P - BN_G1[1])) // -G
    case 3: return concat(word(1n), word(3n)) // off the curve
    case 4: return concat(word(BN_P), word(2n)) // coordinate not in the field
    default: return bnMultiple(rng)
  }
}

function bnG2(rng: Rng): Uint8Array {
  // EIP-197: each Fp2 element as (imaginary, real).
  switch (rng.int(4)) {
    case 0: return new Uint8Array(128)
    case 1: return concat(word(BN_G2.x.c1), word(BN_G2.x.c0), word(BN_G2.y.c1), word(BN_G2.y.c0))
    case 2: return concat(word(BN_G2.x.c1), word(BN_G2.x.c0), word(BN_G2.y.c1), word(BN_G2.y.c0 + 1n))
    default: return rng.bytes(128)
  }
}

function bnPairing(rng: Rng): Uint8Array {
  const shape = rng.int(5)
  if (shape === 0) return new Uint8Array(0)
  if (shape === 1) {
    // e(G1, G2) * e(-G1, G2) = 1
    const g2 = concat(word(BN_G2.x.c1), word(BN_G2.x.c0), word(BN_G2.y.c1), word(BN_G2.y.c0))
    return concat(word(1n), word(2n), g2, word(1n), word(BN_P - 2n), g2)
  }
  const pairs = rng.range(1, 3)
  const parts: Uint8Array[] = []
  for (let i = 0; i < pairs; i++) parts.push(bnG1(rng), bnG2(rng))
  return maybeMangleLength(rng, concat(...parts))
}

// ---- MODEXP (0x05) ----

function modexpInput(rng: Rng): Uint8Array {
  const len = (): number => rng.pick([0, 1, 1, 2, 8, 31, 32, 32, 33, 64, rng.range(0, 80)])
  let bLen = BigInt(len())
  let eLen = BigInt(len())
  let mLen = BigInt(len())
  const twist = rng.int(12)
  if (twist === 0) eLen = BigInt(rng.pick([1025, 2 ** 32, 2 ** 64 - 1]))
  else if (twist === 1) mLen = 1025n
  else if (twist === 2) bLen = 2n ** 255n
  const head = concat(word(bLen), word(eLen), word(mLen))
  const body = Number(bLen + eLen + mLen) <= 200 ? rng.bytes(Number(bLen + eLen + mLen)) : rng.bytes(rng.range(0, 96))
  if (rng.chance(0.2) && body.length > 0) body.fill(0, 0, rng.int(body.length))
  return concat(head, body)
}

// ---- BLAKE2F (0x09) ----

function blake2fInput(rng: Rng): Uint8Array {
  const rounds = rng.chance(0.1) ? 0xffff_ffff : rng.range(0, 24)
  const flag = rng.chance(0.1) ? 2 : rng.int(2)
  const input = concat(word(BigInt(rounds), 4), rng.bytes(64), rng.bytes(128), rng.bytes(16), Uint8Array.of(flag))
  return maybeMangleLength(rng, input)
}

// ---- KZG point evaluation (0x0a) ----

/** A valid opening (commitment and proof at infinity, z = y = 0) with its versioned hash. */
const KZG_VALID = Buffer.from(
  '010657f37554c781402a22917dee2f75def7ab966d7b770905398eba3c444014' + '00'.repeat(64) + 'c0' + '00'.repeat(47) + 'c0' + '00'.repeat(47),
  'hex',
)

function pointEvaluationInput(rng: Rng): Uint8Array {
  const input = Uint8Array.from(KZG_VALID)
  switch (rng.int(5)) {
    case 0:
    case 1: return input
    case 2: input[0] = 0x02; return input // wrong version byte
    case 3: input[40] = 1; return input // y != 0 with the same proof
    default: return maybeMangleLength(rng, rng.bytes(192))
  }
}

// ---- BLS12-381 (0x0b-0x11) ----

const BLS_P = bls12_381.fields.Fp.ORDER
const BLS_G1 = bls12_381.G1.Point.BASE.toAffine()
const BLS_G2 = bls12_381.G2.Point.BASE.toAffine()

function fp(value: bigint): Uint8Array {
  return word(value, 64)
}

const blsG1Multiple = pool(6, (i) => {
  const p = bls12_381.G1.Point.BASE.multiply(BigInt(i + 2) * 7919n).toAffine()
  return concat(fp(p.x), fp(p.y))
})

const blsG2Multiple = pool(4, (i) => {
  const p = bls12_381.G2.Point.BASE.multiply(BigInt(i + 2) * 7919n).toAffine()
  return concat(fp(p.x.c0), fp(p.x.c1), fp(p.y.c0), fp(p.y.c1))
})

function blsG1(rng: Rng): Uint8Array {
  switch (rng.int(7)) {
    case 0: return new Uint8Array(128)
    case 5: return rng.pick([G1_OFF_SUBGROUP, G1_OFF_SUBGROUP_NEGATED]) // on the curve, outside the r-subgroup
    case 1: return concat(fp(BLS_G1.x), fp(BLS_G1.y))
    case 2: return concat(fp(BLS_G1.x), fp(BLS_P - BLS_G1.y))
    case 3: return concat(fp(BLS_G1.x), fp(BLS_G1.y + 1n)) // off the curve
    case 4: return concat(fp(BLS_P), fp(BLS_G1.y)) // not in the field
    default: return blsG1Multiple(rng)
  }
}

function blsG2(rng: Rng): Uint8Array {
  // EIP-2537: an Fp2 element as c0 then c1.
  const enc = (x: { c0: bigint; c1: bigint }, y: { c0: bigint; c1: bigint }): Uint8Array => concat(fp(x.c0), fp(x.c1), fp(y.c0), fp(y.c1))
  switch (rng.int(6)) {
    case 0: return new Uint8Array(256)
    case 4: return G2_OFF_SUBGROUP // on the curve, outside the r-subgroup
    case 1: return enc(BLS_G2.x, BLS_G2.y)
    case 2: return enc(BLS_G2.x, { c0: BLS_G2.y.c0 + 1n, c1: BLS_G2.y.c1 })
    case 3: return blsG2Multiple(rng)
    default: return rng.bytes(256)
  }
}

function scalar(rng: Rng): Uint8Array {
  return word(rng.pick([0n, 1n, 2n, 2n ** 256n - 1n, BigInt(rng.u32())]))
}

function blsInput(rng: Rng, address: bigint): Uint8Array {
  let input: Uint8Array
  switch (address) {
    case 11n: input = concat(blsG1(rng), blsG1(rng)); break
    case 12n: {
      const parts: Uint8Array[] = []
      for (let i = rng.range(rng.chance(0.1) ? 0 : 1, 3); i > 0; i--) parts.push(blsG1(rng), scalar(rng))
      input = concat(...parts)
      break
    }
    case 13n: input = concat(blsG2(rng), blsG2(rng)); break
    case 14n: {
      const parts: Uint8Array[] = []
      for (let i = rng.range(rng.chance(0.1) ? 0 : 1, 2); i > 0; i--) parts.push(blsG2(rng), scalar(rng))
      input = concat(...parts)
      break
    }
    case 15n: {
      const parts: Uint8Array[] = []
      for (let i = rng.range(rng.chance(0.1) ? 0 : 1, 2); i > 0; i--) parts.push(blsG1(rng), blsG2(rng))
      input = concat(...parts)
      break
    }
    case 16n: input = fp(rng.pick([0n, 1n, BLS_P - 1n, BLS_P, bytesToBig(rng.bytes(40))])); break
    default: input = concat(fp(rng.pick([0n, 1n, BLS_P])), fp(rng.pick([0n, 7n, BLS_P - 1n])))
  }
  return maybeMangleLength(rng, input)
}

// ---- P256VERIFY (0x100) ----

const p256Signature = pool(8, (i) => {
  const key = word(BigInt(i + 1) * 0x7654321n)
  const hash = keccakLike(i + 100)
  return { hash, sig: p256.sign(hash, key, { prehash: false }), pub: p256.getPublicKey(key, false) } // pub: 0x04 ‖ x ‖ y
})

function p256Input(rng: Rng): Uint8Array {
  const { hash: signed, sig, pub } = p256Signature(rng)
  const hash = Uint8Array.from(signed)
  let r = sig.subarray(0, 32)
  let s = sig.subarray(32, 64)
  const twist = rng.int(6)
  if (twist === 0) r = new Uint8Array(32)
  else if (twist === 1) s = word(p256.Point.CURVE().n)
  else if (twist === 2) hash[0] = hash[0]! ^ 1
  return maybeMangleLength(rng, concat(hash, r, s, pub.subarray(1, 33), pub.subarray(33, 65)))
}

/** An input for a call to the precompile at `address` (any address; non-precompiles get random bytes). */
export function precompileInput(rng: Rng, address: bigint): Uint8Array {
  switch (address) {
    case 1n: return ecrecoverInput(rng)
    case 2n:
    case 3n:
    case 4n: return rng.bytes(rng.pick([0, 1, 31, 32, 33, 64, rng.range(0, 200)]))
    case 5n: return modexpInput(rng)
    case 6n: return maybeMangleLength(rng, concat(bnG1(rng), bnG1(rng)))
    case 7n: return maybeMangleLength(rng, concat(bnG1(rng), scalar(rng)))
    case 8n: return bnPairing(rng)
    case 9n: return blake2fInput(rng)
    case 10n: return pointEvaluationInput(rng)
    case 0x100n: return p256Input(rng)
    default: return address >= 11n && address <= 17n ? blsInput(rng, address) : rng.bytes(rng.range(0, 64))
  }
}
