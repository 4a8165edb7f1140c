/**
 * 0x100 P256VERIFY (Osaka on, EIP-7951): verifies an ECDSA signature over secp256r1 (P-256) of a 32-byte hash.
 *
 * Input exactly 160 bytes: hash ‖ r ‖ s ‖ qx ‖ qy. Gas 6900, charged whatever the input (only too little gas
 * fails the call). Returns the word 1 when 0 < r, s < n, the public key is a point on the curve given by
 * coordinates below p (not (0, 0)), and R' = (h·s⁻¹)·G + (r·s⁻¹)·Q is a finite point with x ≡ r (mod n);
 * otherwise empty output. No low-s rule.
 *
 * `p256verifyFjord` is the OP Stack's (RIP-7212, from Fjord: precompiles/op-stack.ts): the same verification
 * at 3450 gas. op-geth's p256VerifyFjord embeds its p256Verify and overrides only RequiredGas
 * (core/vm/contracts.go; params.P256VerifyGasFjord), and both verify with Go's crypto/ecdsa after an on-curve
 * check of the key, which refuses exactly what EIP-7951 lists (r, s out of range, key off the curve or with
 * a coordinate ≥ p, R' at infinity).
 */

import { p256 } from '@noble/curves/nist.js'
import type { Precompile } from '../types.ts'
import { EMPTY, failure, readUint, success } from './common.ts'

/** Where P256VERIFY sits (EIP-7951, RIP-7212). */
export const P256VERIFY_ADDRESS = 0x100n

export const P256VERIFY_GAS = 6900
/** RIP-7212's price, op-geth's P256VerifyGasFjord. */
export const P256VERIFY_GAS_FJORD = 3450

const Point = p256.Point
const Fn = Point.Fn
const N = Fn.ORDER
const P = Point.Fp.ORDER
const { a: A, b: B } = Point.CURVE()

const VALID = new Uint8Array(32)
VALID[31] = 1

function verifies(input: Uint8Array): boolean {
  const r = readUint(input, 32, 64)
  const s = readUint(input, 64, 96)
  if (r === 0n || r >= N || s === 0n || s >= N) return false
  const qx = readUint(input, 96, 128)
  const qy = readUint(input, 128, 160)
  if (qx >= P || qy >= P) return false
  if ((qx === 0n && qy === 0n) || (qy * qy - (qx * qx * qx + A * qx + B)) % P !== 0n) return false
  const q = Point.fromAffine({ x: qx, y: qy })
  const hash = Fn.create(readUint(input, 0, 32))
  const sInverse = Fn.inv(s)
  const recovered = Point.BASE.multiplyUnsafe(Fn.mul(hash, sInverse)).add(q.multiplyUnsafe(Fn.mul(r, sInverse)))
  if (recovered.is0()) return false
  return Fn.create(recovered.toAffine().x) === r
}

/** P256VERIFY at a fixed price. */
function p256verifyAt(price: number): Precompile {
  return (input, gas) => {
    if (gas < price) return failure(gas)
    const valid = input.length === 160 && verifies(input)
    return success(price, valid ? VALID.slice() : EMPTY)
  }
}

export const p256verify: Precompile = p256verifyAt(P256VERIFY_GAS)

export const p256verifyFjord: Precompile = p256verifyAt(P256VERIFY_GAS_FJORD)
