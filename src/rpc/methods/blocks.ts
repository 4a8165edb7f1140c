/**
 * Blocks: eth_getBlockByNumber / eth_getBlockByHash (with hashes or full transactions), geth's
 * eth_getHeaderByNumber / eth_getHeaderByHash (the same fields without size, transactions, uncles and
 * withdrawals), the transaction and uncle counts by number / hash. An unknown block answers null. By-number methods take geth's block number
 * (hex or tag, no hash); by-hash methods a 32-byte hash. The pending block (a view marked pending) prints as
 * geth prints it: no hash, nonce or miner.
 */

import type { NodeApi } from '../../node/api.ts'
import type { BlockId } from '../../primitives/block-id.ts'
import { quantity } from '../../primitives/hex.ts'
import type { BlockView } from '../../chain/types.ts'
import type { MethodHandler } from '../registry.ts'
import { formatBlock, formatHeader } from '../../format/block.ts'
import { parseArgs, parseBool, required } from '../params/args.ts'
import { parseBlockNumber } from '../params/block-id.ts'
import { parseHash } from '../params/hex.ts'

const byHash = (hash: Uint8Array): BlockId => ({ kind: 'hash', hash, requireCanonical: false })

/** geth's RPCMarshalHeader: the block's fields without size, transactions, uncles and withdrawals. */
const header = (block: BlockView | null) => (block === null ? null : formatHeader(block.header, { pending: block.pending === true }))

export function blockMethods(node: NodeApi): Record<string, MethodHandler> {
  const count = async (id: BlockId, of: (b: BlockView) => number) => {
    const block = await node.getBlock(id)
    return block === null ? null : quantity(of(block))
  }
  const txCount = (b: BlockView) => b.transactions.length
  const uncleCount = (b: BlockView) => b.uncleHashes.length

  return {
    eth_getBlockByNumber: async (params) => {
      const [id, fullTx] = parseArgs(params, [required(parseBlockNumber), required(parseBool)])
      const block = await node.getBlock(id)
      return block === null ? null : formatBlock(block, fullTx)
    },
    eth_getBlockByHash: async (params) => {
      const [hash, fullTx] = parseArgs(params, [required(parseHash), required(parseBool)])
      const block = await node.getBlock(byHash(hash))
      return block === null ? null : formatBlock(block, fullTx)
    },
    eth_getHeaderByNumber: async (params) => {
      const [id] = parseArgs(params, [required(parseBlockNumber)])
      return header(await node.getBlock(id))
    },
    eth_getHeaderByHash: async (params) => {
      const [hash] = parseArgs(params, [required(parseHash)])
      return header(await node.getBlock(byHash(hash)))
    },
    eth_getBlockTransactionCountByNumber: async (params) => {
      const [id] = parseArgs(params, [required(parseBlockNumber)])
      return count(id, txCount)
    },
    eth_getBlockTransactionCountByHash: async (params) => {
      const [hash] = parseArgs(params, [required(parseHash)])
      return count(byHash(hash), txCount)
    },
    eth_getUncleCountByBlockNumber: async (params) => {
      const [id] = parseArgs(params, [required(parseBlockNumber)])
      return count(id, uncleCount)
    },
    eth_getUncleCountByBlockHash: async (params) => {
      const [hash] = parseArgs(params, [required(parseHash)])
      return count(byHash(hash), uncleCount)
    },
  }
}
