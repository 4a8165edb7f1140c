/**
 * Node identity and status: eth_chainId, net_version (decimal string), web3_clientVersion, eth_blockNumber,
 * eth_syncing (false, but on a follower behind its sequencer: geth's object of starting, current and highest block), eth_accounts (always empty: the node holds no keys).
 * None takes arguments; extra ones are refused as geth refuses them.
 */

import type { NodeApi } from '../../node/api.ts'
import { quantity } from '../../primitives/hex.ts'
import type { MethodHandler } from '../registry.ts'
import { parseArgs } from '../params/args.ts'

export function metaMethods(node: NodeApi): Record<string, MethodHandler> {
  return {
    eth_chainId: async (params) => {
      parseArgs(params, [])
      return quantity(node.chainId)
    },
    net_version: async (params) => {
      parseArgs(params, [])
      return node.networkId.toString(10)
    },
    web3_clientVersion: async (params) => {
      parseArgs(params, [])
      return node.clientVersion
    },
    eth_blockNumber: async (params) => {
      parseArgs(params, [])
      return quantity(node.blockNumber())
    },
    eth_syncing: async (params) => {
      parseArgs(params, [])
      const status = node.syncing()
      if (!status.syncing) return false
      return { startingBlock: quantity(status.startingBlock), currentBlock: quantity(status.currentBlock), highestBlock: quantity(status.highestBlock) }
    },
    eth_accounts: async (params) => {
      parseArgs(params, [])
      return []
    },
  }
}
