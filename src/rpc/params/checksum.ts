/**
 * EIP-55 mixed-case address text, as geth's `Address.Hex()` prints it in messages
 * (`account 0xC000… has both 'state' and 'stateDiff'`).
 */

import { keccak256 } from '../../primitives/keccak.ts'
import { bytesToHex } from '../../primitives/hex.ts'

export function checksumAddress(address: Uint8Array): string {
  const lower = bytesToHex(address).slice(2)
  const hash = keccak256(new TextEncoder().encode(lower))
  let out = '0x'
  for (let i = 0; i < lower.length; i++) {
    const nib = (hash[i >> 1]! >> (i % 2 === 0 ? 4 : 0)) & 0xf
    out += nib >= 8 ? lower[i]!.toUpperCase() : lower[i]!
  }
  return out
}
