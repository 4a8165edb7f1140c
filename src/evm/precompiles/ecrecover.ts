/**
 * 0x01 ECRECOVER: the address that signed a 32-byte hash, through the native `secp256k1` binding (the same
 * package the node's sender recovery uses; src/evm may not import execution/, so it is required directly).
 *
 * Input (right-padded with zeros to 128 bytes): hash ‖ v ‖ r ‖ s, each a 32-byte word. v must be exactly 27 or
 * 28 as a whole word, and r, s in [1, n-1] (no low-s rule here); anything else, or a signature with no key,
 * succeeds with empty output. Gas is 3000 in every fork.
 */

import { createRequire } from 'node:module'
import { keccak256 } from '../../primitives/keccak.ts'
import type { Precompile } from '../types.ts'
import { EMPTY, failure, isZeroRange, rightPadded, success } from './common.ts'

const require = createRequire(import.meta.url)
const secp256k1 = require('secp256k1') as typeof import('secp256k1')

export const ECRECOVER_GAS = 3000

export const ecrecover: Precompile = (input, gas) => {
  if (gas < ECRECOVER_GAS) return failure(gas)
  const data = rightPadded(input, 128)
  // v: 31 zero bytes then 27 or 28.
  const v = data[63]!
  if (!isZeroRange(data, 32, 63) || (v !== 27 && v !== 28)) return success(ECRECOVER_GAS, EMPTY)
  const signature = data.slice(64, 128)
  let publicKey: Uint8Array
  try {
    // Rejects r or s of zero or not below the curve order, and signatures recovering to no point.
    publicKey = secp256k1.ecdsaRecover(signature, v - 27, data.subarray(0, 32), false)
  } catch {
    return success(ECRECOVER_GAS, EMPTY)
  }
  const out = new Uint8Array(32)
  out.set(keccak256(publicKey.subarray(1)).subarray(12), 12)
  return success(ECRECOVER_GAS, out)
}
