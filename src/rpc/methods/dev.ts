/**
 * Development methods for a manually sealed node (tests, the conformance run): evm_mine seals the open
 * block after pre-confirming what the pool holds; flashnode_flashblock publishes one flashblock without
 * sealing; flashnode_sendDeposit (OP Stack chains) queues a user deposit for the next block and answers its
 * hash. Endpoint profiles decide where they are served (never on a public endpoint).
 */

import type { NodeApi } from '../../node/api.ts'
import type { MethodHandler } from '../registry.ts'
import { parseArgs, required } from '../params/args.ts'
import { parseDepositRequest } from '../params/deposit.ts'
import { bytesToHex } from '../../primitives/hex.ts'
import { failpointAfterAnswer } from '../../primitives/failpoints.ts'

export function devMethods(node: NodeApi): Record<string, MethodHandler> {
  return {
    evm_mine: async (params) => {
      parseArgs(params, [])
      await node.mine()
      return '0x0'
    },
    flashnode_sendDeposit: async (params) => {
      const [request] = parseArgs(params, [required(parseDepositRequest)])
      const hash = bytesToHex(await node.sendDeposit(request))
      failpointAfterAnswer('answer:send-deposit')
      return hash
    },
    flashnode_flashblock: async (params) => {
      parseArgs(params, [])
      await node.flashblock()
      return null
    },
  }
}
