/**
 * Fee suggestions and history: eth_gasPrice, eth_maxPriorityFeePerGas, eth_blobBaseFee, eth_feeHistory
 * (block count as hex or decimal, newest block as number or tag, optional reward percentiles). An empty
 * percentile list asks for no rewards, as in geth.
 */

import type { NodeApi } from '../../node/api.ts'
import { quantity } from '../../primitives/hex.ts'
import type { MethodHandler } from '../registry.ts'
import { formatFeeHistory } from '../format/fee-history.ts'
import { optional, parseArgs, required } from '../params/args.ts'
import { parseBlockNumber } from '../params/block-id.ts'
import { parseBlockCount, parseRewardPercentiles } from '../params/fees.ts'

export function feeMethods(node: NodeApi): Record<string, MethodHandler> {
  return {
    eth_gasPrice: async (params) => {
      parseArgs(params, [])
      return quantity(await node.gasPrice())
    },
    eth_maxPriorityFeePerGas: async (params) => {
      parseArgs(params, [])
      return quantity(await node.maxPriorityFeePerGas())
    },
    eth_blobBaseFee: async (params) => {
      parseArgs(params, [])
      return quantity(await node.blobBaseFee())
    },
    eth_feeHistory: async (params) => {
      const [blockCount, newest, percentiles] = parseArgs(params, [
        required(parseBlockCount),
        required(parseBlockNumber),
        optional(parseRewardPercentiles),
      ])
      const asked = percentiles !== undefined && percentiles.length > 0 ? percentiles : undefined
      return formatFeeHistory(await node.feeHistory(blockCount, newest, asked))
    },
  }
}
