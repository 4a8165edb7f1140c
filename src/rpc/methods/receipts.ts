/**
 * Receipts: eth_getTransactionReceipt (null for an unknown or not yet included transaction) and
 * eth_getBlockReceipts (block number, tag, hash or EIP-1898 object, required; null for an unknown block;
 * `pending` lists the pre-confirmed block's receipts).
 *
 * eth_getBlockReceipts answers already-serialized JSON (a RawJson), written straight to text and kept per
 * block by BlockReceiptsAnswers: the same bytes formatReceipt's objects would serialize to.
 */

import type { NodeApi } from '../../node/api.ts'
import type { MethodHandler } from '../registry.ts'
import { formatLocatedReceipt } from '../format/receipt.ts'
import { parseArgs, required } from '../params/args.ts'
import { parseBlockNumberOrHash } from '../params/block-id.ts'
import { parseHash } from '../params/hex.ts'
import { BlockReceiptsAnswers, type AnswerCacheLimits } from './block-receipts-answers.ts'
import { failpointAfterAnswer } from '../../primitives/failpoints.ts'

export function receiptMethods(node: NodeApi, answerLimits?: AnswerCacheLimits): Record<string, MethodHandler> {
  const answers = new BlockReceiptsAnswers(answerLimits)
  return {
    eth_getTransactionReceipt: async (params) => {
      const [hash] = parseArgs(params, [required(parseHash)])
      const located = await node.getTransactionReceipt(hash)
      if (located === null) return null
      if (located.context.preconfirmed) failpointAfterAnswer('answer:pending-receipt')
      return formatLocatedReceipt(located)
    },
    eth_getBlockReceipts: async (params) => {
      const [block] = parseArgs(params, [required(parseBlockNumberOrHash)])
      const receipts = await node.getBlockReceipts(block)
      return receipts === null ? null : answers.answer(receipts)
    },
  }
}
