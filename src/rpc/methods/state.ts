/**
 * Account state reads: eth_getBalance, eth_getTransactionCount, eth_getCode, eth_getStorageAt. Each takes an
 * address and an optional block (number, tag, hash or EIP-1898 object; omitted or null = latest).
 * eth_getStorageAt decodes its slot after the other arguments, as geth does, so its slot errors carry geth's
 * unprefixed wording.
 */

import type { NodeApi } from '../../node/api.ts'
import { LATEST } from '../../primitives/block-id.ts'
import { bytesToHex, quantity } from '../../primitives/hex.ts'
import type { MethodHandler } from '../registry.ts'
import { parseArgs, required, withDefault } from '../params/args.ts'
import { parseBlockNumberOrHash } from '../params/block-id.ts'
import { parseAddress } from '../params/hex.ts'
import { decodeStorageKey, parseStorageKeyText } from '../params/storage-key.ts'

// Made once: these are the hottest read paths and the specs never change.
const addressAndBlock = [required(parseAddress), withDefault(parseBlockNumberOrHash, LATEST)] as const
const addressKeyAndBlock = [
  required(parseAddress),
  required(parseStorageKeyText),
  withDefault(parseBlockNumberOrHash, LATEST),
] as const

export function stateMethods(node: NodeApi): Record<string, MethodHandler> {
  return {
    eth_getBalance: async (params) => {
      const [address, block] = parseArgs(params, addressAndBlock)
      return quantity(await node.getBalance(address, block))
    },
    eth_getTransactionCount: async (params) => {
      const [address, block] = parseArgs(params, addressAndBlock)
      return quantity(await node.getTransactionCount(address, block))
    },
    eth_getCode: async (params) => {
      const [address, block] = parseArgs(params, addressAndBlock)
      return bytesToHex(await node.getCode(address, block))
    },
    eth_getStorageAt: async (params) => {
      const [address, key, block] = parseArgs(params, addressKeyAndBlock)
      return bytesToHex(await node.getStorageAt(address, decodeStorageKey(key), block))
    },
  }
}
