/**
 * eth_simulateV1 (payload, block = latest): parses the payload, asks the node to simulate, formats one
 * block object with `calls` per simulated block. Limits, codes and availability (pre-confirmation
 * endpoints only) are the node's.
 */

import type { NodeApi } from '../../node/api.ts'
import { LATEST } from '../../primitives/block-id.ts'
import { formatSimulatedBlock } from '../format/simulate.ts'
import type { MethodHandler } from '../registry.ts'
import { parseArgs, required, withDefault } from '../params/args.ts'
import { parseBlockNumberOrHash } from '../params/block-id.ts'
import { parseSimulatePayload } from '../params/simulate.ts'

export function simulateMethods(node: NodeApi): Record<string, MethodHandler> {
  return {
    eth_simulateV1: async (params) => {
      const [payload, block] = parseArgs(params, [required(parseSimulatePayload), withDefault(parseBlockNumberOrHash, LATEST)])
      const blocks = await node.simulateV1(payload, block)
      return blocks.map((b) => formatSimulatedBlock(b, payload.returnFullTransactions))
    },
  }
}
