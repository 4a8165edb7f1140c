/**
 * Transactions by hash and by position: eth_getTransactionByHash, eth_getTransactionByBlockHashAndIndex,
 * eth_getTransactionByBlockNumberAndIndex. Unknown transaction, block or index answers null.
 */

import type { LocatedTransaction, NodeApi } from '../../node/api.ts'
import type { MethodHandler } from '../registry.ts'
import { formatTransaction } from '../../format/transaction.ts'
import { parseArgs, required } from '../params/args.ts'
import { parseBlockNumber } from '../params/block-id.ts'
import { parseHash, parseUint } from '../params/hex.ts'

const format = (located: LocatedTransaction | null) =>
  located === null ? null : formatTransaction(located.tx, located.placement)

export function transactionMethods(node: NodeApi): Record<string, MethodHandler> {
  return {
    eth_getTransactionByHash: async (params) => {
      const [hash] = parseArgs(params, [required(parseHash)])
      return format(await node.getTransactionByHash(hash))
    },
    eth_getTransactionByBlockHashAndIndex: async (params) => {
      const [hash, index] = parseArgs(params, [required(parseHash), required(parseUint)])
      return format(await node.getTransactionByBlockAndIndex({ kind: 'hash', hash, requireCanonical: false }, index))
    },
    eth_getTransactionByBlockNumberAndIndex: async (params) => {
      const [id, index] = parseArgs(params, [required(parseBlockNumber), required(parseUint)])
      return format(await node.getTransactionByBlockAndIndex(id, index))
    },
  }
}
