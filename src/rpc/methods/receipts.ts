/**
 * Receipts: eth_getTransactionReceipt (null for an unknown or not yet included transaction) and
 * eth_getBlockReceipts (block number, tag, hash or EIP-1898 object, required; null for an unknown block;
 * `pending` lists the pre-confirmed block's receipts).
 */

import type { NodeApi } from '../../node/api.ts'
import type { MethodHandler } from '../registry.ts'
import { formatLocatedReceipt } from '../format/receipt.ts'
import { parseArgs, required } from '../params/args.ts'
import { parseBlockNumberOrHash } from '../params/block-id.ts'
import { parseHash } from '../params/hex.ts'

export function receiptMethods(node: NodeApi): Record<string, MethodHandler> {
  return {
    eth_getTransactionReceipt: async (params) => {
      const [hash] = parseArgs(params, [required(parseHash)])
      const located = await node.getTransactionReceipt(hash)
      return located === null ? null : formatLocatedReceipt(located)
    },
    eth_getBlockReceipts: async (params) => {
      const [block] = parseArgs(params, [required(parseBlockNumberOrHash)])
      const receipts = await node.getBlockReceipts(block)
      return receipts === null ? null : receipts.map(formatLocatedReceipt)
    },
  }
}
