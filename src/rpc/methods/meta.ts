/**
 * Node identity and status: eth_chainId, net_version (decimal string), web3_clientVersion, eth_blockNumber,
 * eth_syncing (false, but on a follower behind its sequencer: geth's object of starting, current and highest block), eth_accounts (always empty: the node holds no keys),
 * eth_config (EIP-7910 at the sealed head: rpc/format/eth-config.ts), eth_coinbase (the sequencer's fee recipient; a node that builds no blocks answers geth's error for a node
 * without an etherbase), net_listening (true: it answers), net_peerCount ("0x0": no peer-to-peer network;
 * a follower reads its sequencer's stream, which is no devp2p peer) and web3_sha3 (keccak-256 of the bytes).
 * Only web3_sha3 takes an argument; extra ones are refused as geth refuses them.
 */

import type { NodeApi } from '../../node/api.ts'
import type { NodeInfoApi } from '../../node/node-info.ts'
import { bytesToHex, quantity } from '../../primitives/hex.ts'
import { keccak256 } from '../../primitives/keccak.ts'
import { FlashnodeError } from '../../errors/errors.ts'
import { parseBytes } from '../params/hex.ts'
import { formatEthConfig } from '../format/eth-config.ts'
import type { MethodHandler } from '../registry.ts'
import { parseArgs, required } from '../params/args.ts'

export function metaMethods(node: NodeApi, info: NodeInfoApi): Record<string, MethodHandler> {
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
    eth_coinbase: async (params) => {
      parseArgs(params, [])
      const coinbase = info.coinbase()
      if (coinbase === undefined) throw new FlashnodeError('notFound', 'etherbase must be explicitly specified')
      return bytesToHex(coinbase)
    },
    eth_config: async (params) => {
      parseArgs(params, [])
      return formatEthConfig(info.ethConfig())
    },
    net_listening: async (params) => {
      parseArgs(params, [])
      return true
    },
    net_peerCount: async (params) => {
      parseArgs(params, [])
      return '0x0'
    },
    web3_sha3: async (params) => {
      const [data] = parseArgs(params, [required(parseBytes)])
      return bytesToHex(keccak256(data))
    },
  }
}
