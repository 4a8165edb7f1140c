/**
 * Environment blocks: the header-only blocks a simulated call runs against (the block's own environment,
 * or the same with base fee 0 for a call that pays no fee, and a fixed blob base fee). Building one is a
 * full header construction with the library's checks, and every simulation on one base with the same block
 * overrides asks for the very same ones, so they are kept (per fork, the newest few), frozen so that no
 * user can change one under another.
 */

import { createBlock, type Block, type HeaderData } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import { bytesToHex } from '../primitives/hex.ts'
import { Lru } from '../primitives/lru.ts'

const PER_FORK = 64
const caches = new WeakMap<Common, Lru<string, Block>>()

export interface EnvironmentVariant {
  /** The call pays no base fee: the block shows 0 (BASEFEE still reads the real one, evm-hooks.ts). */
  readonly baseFeeZero: boolean
  /** What BLOBBASEFEE and blob fees use instead of the header's own (undefined: the header's). */
  readonly blobFee: bigint | undefined
}

function keyOf(header: HeaderData, v: EnvironmentVariant): string {
  let key = `${v.baseFeeZero}:${v.blobFee}`
  for (const [name, value] of Object.entries(header)) {
    key += `|${name}=${value instanceof Uint8Array ? bytesToHex(value) : String(value)}`
  }
  return key
}

export function environmentBlock(common: Common, header: HeaderData, v: EnvironmentVariant): Block {
  let cache = caches.get(common)
  if (cache === undefined) {
    cache = new Lru(PER_FORK)
    caches.set(common, cache)
  }
  const key = keyOf(header, v)
  let block = cache.get(key)
  if (block === undefined) {
    const data: HeaderData = { ...header, ...(v.baseFeeZero ? { baseFeePerGas: 0n } : {}) }
    block = createBlock({ header: data }, { common, skipConsensusFormatValidation: true, freeze: false })
    if (v.blobFee !== undefined) {
      const fee = v.blobFee
      Object.defineProperty(block.header, 'getBlobGasPrice', { value: () => fee })
    }
    Object.freeze(block.header)
    Object.freeze(block)
    cache.set(key, block)
  }
  return block
}
