/**
 * eth_getLogs: one filter object (range or block hash, addresses, topics), logs in chain order.
 */

import type { NodeApi } from '../../node/api.ts'
import type { MethodHandler } from '../registry.ts'
import { formatLocatedLog } from '../../format/log.ts'
import { parseArgs, required } from '../params/args.ts'
import { parseLogFilter } from '../params/log-filter.ts'

export function logMethods(node: NodeApi): Record<string, MethodHandler> {
  return {
    eth_getLogs: async (params) => {
      const [filter] = parseArgs(params, [required(parseLogFilter)])
      return (await node.getLogs(filter)).map(formatLocatedLog)
    },
  }
}
