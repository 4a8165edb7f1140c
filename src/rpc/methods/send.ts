/**
 * Submitting transactions and asking after them: eth_sendRawTransaction, eth_sendRawTransactionSync
 * (EIP-7966: the receipt as soon as the transaction is pre-confirmed), base_transactionStatus.
 */

import type { NodeApi } from '../../node/api.ts'
import { bytesToHex } from '../../primitives/hex.ts'
import type { MethodHandler } from '../registry.ts'
import { formatLocatedReceipt } from '../format/receipt.ts'
import { optional, parseArgs, required } from '../params/args.ts'
import { parseBytes, parseHash, parseUint } from '../params/hex.ts'
import { failpointAfterAnswer } from '../../primitives/failpoints.ts'

/** EIP-7966's timeout may be a hex quantity or a JSON number. */
function parseTimeout(raw: unknown): number {
  if (typeof raw === 'number' && Number.isSafeInteger(raw) && raw >= 0) return raw
  return parseUint(raw)
}

export function sendMethods(node: NodeApi): Record<string, MethodHandler> {
  return {
    // Not async: one promise fewer on every send (a refusal of the params still rejects, not throws).
    eth_sendRawTransaction: (params) => {
      let raw: Uint8Array
      try {
        ;[raw] = parseArgs(params, [required(parseBytes)])
      } catch (err) {
        return Promise.reject(err)
      }
      return node.sendRawTransaction(raw).then(bytesToHex)
    },
    eth_sendRawTransactionSync: async (params, ctx) => {
      const [raw, timeout] = parseArgs(params, [required(parseBytes), optional(parseTimeout)])
      const receipt = formatLocatedReceipt(await node.sendRawTransactionSync(raw, timeout, ctx.signal))
      failpointAfterAnswer('answer:sync-send')
      return receipt
    },
    base_transactionStatus: async (params) => {
      const [hash] = parseArgs(params, [required(parseHash)])
      return { status: await node.transactionStatus(hash) }
    },
  }
}
