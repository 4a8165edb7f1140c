/**
 * eth_getProof's result in geth's shape (its AccountResult): fields in geth's order, quantities as hex
 * quantities, hashes and proof nodes as 0x-hex. A storage key is echoed as geth echoes it: as 32-byte hex when
 * the caller wrote 32 bytes, else as a quantity of its value (geth keeps that for older clients).
 */

import type { AccountProof } from '../../node/api.ts'
import { bytesToHex, bytesToBigInt, quantity, type Hex } from '../../primitives/hex.ts'

export interface ProofJson {
  address: Hex
  accountProof: Hex[]
  balance: Hex
  codeHash: Hex
  nonce: Hex
  storageHash: Hex
  storageProof: { key: Hex; value: Hex; proof: Hex[] }[]
}

/** `keyBytes[i]`: how many bytes the caller's i-th key was written with. */
export function proofJson(p: AccountProof, keyBytes: readonly number[]): ProofJson {
  return {
    address: bytesToHex(p.address),
    accountProof: p.accountProof.map(bytesToHex),
    balance: quantity(p.balance),
    codeHash: bytesToHex(p.codeHash),
    nonce: quantity(p.nonce),
    storageHash: bytesToHex(p.storageHash),
    storageProof: p.storageProof.map((s, i) => ({
      key: keyBytes[i] === 32 ? bytesToHex(s.slot) : quantity(bytesToBigInt(s.slot)),
      value: quantity(s.value),
      proof: s.proof.map(bytesToHex),
    })),
  }
}
