/**
 * The txpool namespace, geth's TxPoolAPI: txpool_status (counts as quantities), txpool_content,
 * txpool_contentFrom(address) and txpool_inspect (rpc/format/txpool.ts has the shapes). They read the
 * node's pool through its port (node/pool-api.ts, which says what `pending` means on a sequencer that
 * pre-confirms every flashblock); a node without a pool answers an empty one.
 */

import type { TxPoolApi } from '../../node/pool-api.ts'
import { quantity } from '../../primitives/hex.ts'
import type { MethodHandler } from '../registry.ts'
import { parseArgs, required } from '../params/args.ts'
import { parseAddress } from '../params/hex.ts'
import { formatPoolContent, formatPoolInspect, formatSenderContent } from '../format/txpool.ts'

export function txpoolMethods(pool: TxPoolApi): Record<string, MethodHandler> {
  return {
    txpool_status: async (params) => {
      parseArgs(params, [])
      const { pending, queued } = pool.status()
      return { pending: quantity(BigInt(pending)), queued: quantity(BigInt(queued)) }
    },
    txpool_content: async (params) => {
      parseArgs(params, [])
      return formatPoolContent(pool.content())
    },
    txpool_contentFrom: async (params) => {
      const [address] = parseArgs(params, [required(parseAddress)])
      return formatSenderContent(pool.contentFrom(address))
    },
    txpool_inspect: async (params) => {
      parseArgs(params, [])
      return formatPoolInspect(pool.content())
    },
  }
}
