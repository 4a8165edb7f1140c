/**
 * eth_simulateV1 (payload, block = latest): parses the payload and asks the node to simulate; the node
 * answers the result as text (one block object with `calls` per simulated block, format/simulate.ts),
 * formatted on the thread that simulated, which this handler passes through as raw JSON. Limits, codes and
 * availability (pre-confirmation endpoints only) are the node's.
 */

import type { NodeApi } from '../../node/api.ts'
import { LATEST } from '../../primitives/block-id.ts'
import type { MethodHandler } from '../registry.ts'
import { parseArgs, required, withDefault } from '../params/args.ts'
import { parseBlockNumberOrHash } from '../params/block-id.ts'
import { parseSimulatePayload } from '../params/simulate.ts'
import { RawJson } from '../transport/messages.ts'

export function simulateMethods(node: NodeApi): Record<string, MethodHandler> {
  return {
    eth_simulateV1: async (params) => {
      const [payload, block] = parseArgs(params, [required(parseSimulatePayload), withDefault(parseBlockNumberOrHash, LATEST)])
      return new RawJson(await node.simulateV1Json(payload, block))
    },
  }
}
