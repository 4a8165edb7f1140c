/**
 * 0x02 SHA256, 0x03 RIPEMD160 and 0x04 IDENTITY (Frontier on): a base price plus a price per 32-byte word of
 * input, the same in every fork. RIPEMD160's 20-byte digest is returned left-padded to 32 bytes; IDENTITY
 * returns a copy of its input (callers may keep the output while the input's memory changes).
 * The digests are node:crypto's (OpenSSL, native): a call that hashes megabytes (a loop of SHA256 calls over
 * a large memory) runs several times faster than through a pure-JS hash.
 */

import { createHash } from 'node:crypto'
import type { Precompile } from '../types.ts'
import { failure, success, wordCount } from './common.ts'

export const sha256: Precompile = (input, gas) => {
  const cost = 60 + 12 * wordCount(input.length)
  if (gas < cost) return failure(gas)
  return success(cost, new Uint8Array(createHash('sha256').update(input).digest()))
}

export const ripemd160: Precompile = (input, gas) => {
  const cost = 600 + 120 * wordCount(input.length)
  if (gas < cost) return failure(gas)
  const out = new Uint8Array(32)
  out.set(createHash('ripemd160').update(input).digest(), 12)
  return success(cost, out)
}

export const identity: Precompile = (input, gas) => {
  const cost = 15 + 3 * wordCount(input.length)
  if (gas < cost) return failure(gas)
  return success(cost, input.slice())
}
