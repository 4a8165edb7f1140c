/**
 * 0x02 SHA256, 0x03 RIPEMD160 and 0x04 IDENTITY (Frontier on): a base price plus a price per 32-byte word of
 * input, the same in every fork. RIPEMD160's 20-byte digest is returned left-padded to 32 bytes; IDENTITY
 * returns a copy of its input (callers may keep the output while the input's memory changes).
 */

import { ripemd160 as ripemd160Digest } from '@noble/hashes/legacy.js'
import { sha256 as sha256Digest } from '@noble/hashes/sha2.js'
import type { Precompile } from '../types.ts'
import { failure, success, wordCount } from './common.ts'

export const sha256: Precompile = (input, gas) => {
  const cost = 60 + 12 * wordCount(input.length)
  if (gas < cost) return failure(gas)
  return success(cost, sha256Digest(input))
}

export const ripemd160: Precompile = (input, gas) => {
  const cost = 600 + 120 * wordCount(input.length)
  if (gas < cost) return failure(gas)
  const out = new Uint8Array(32)
  out.set(ripemd160Digest(input), 12)
  return success(cost, out)
}

export const identity: Precompile = (input, gas) => {
  const cost = 15 + 3 * wordCount(input.length)
  if (gas < cost) return failure(gas)
  return success(cost, input.slice())
}
