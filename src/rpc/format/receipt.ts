/**
 * A receipt in geth's MarshalReceipt shape (eth_getTransactionReceipt, eth_getBlockReceipts).
 *
 * Always: blockHash, blockNumber, contractAddress (null unless the transaction created a contract; an all-zero
 * address counts as none, as in geth), cumulativeGasUsed, effectiveGasPrice, from, gasUsed, logs, logsBloom,
 * to (null for a creation), transactionHash, transactionIndex, type. Then `root` for a pre-Byzantium receipt
 * (a post-state root) instead of `status`, and blobGasUsed / blobGasPrice for a blob (type 3) transaction.
 * Keys are sorted, as geth prints this map. In a pre-confirmed block, blockHash is 32 zero bytes (the
 * context's; preconf/views.ts).
 *
 * On an OP Stack chain a deposit's receipt adds depositNonce and depositReceiptVersion when recorded, and
 * every other receipt the L1 fee keys the chain reader derived (`opFields`; opstack/receipt-fields.ts).
 *
 * receipt-json.ts writes the same shape straight to text for eth_getBlockReceipts: a change here goes there
 * too (receipt-json.test.ts fails until both agree byte for byte).
 */

import type { BlockContext, ReceiptView } from '../../chain/types.ts'
import type { LocatedReceipt } from '../../node/api.ts'
import { bytesToHex, quantity } from '../../primitives/hex.ts'
import { sortedKeys, type JsonObject, type JsonValue } from '../../format/json.ts'
import { formatLog } from '../../format/log.ts'

const isZero = (b: Uint8Array): boolean => b.every((x) => x === 0)

export function formatReceipt(r: ReceiptView, context: BlockContext): JsonObject {
  const out: JsonObject = {
    blockHash: bytesToHex(context.blockHash),
    blockNumber: quantity(context.blockNumber),
    contractAddress: r.contractAddress === null || isZero(r.contractAddress) ? null : bytesToHex(r.contractAddress),
    cumulativeGasUsed: quantity(r.cumulativeGasUsed),
    effectiveGasPrice: quantity(r.effectiveGasPrice),
    from: bytesToHex(r.from),
    gasUsed: quantity(r.gasUsed),
    logs: r.logs.map((log, i): JsonValue =>
      formatLog(log, {
        context,
        transactionHash: r.transactionHash,
        transactionIndex: r.transactionIndex,
        logIndex: r.firstLogIndex + i,
      }),
    ),
    logsBloom: bytesToHex(r.logsBloom),
    to: r.to === null ? null : bytesToHex(r.to),
    transactionHash: bytesToHex(r.transactionHash),
    transactionIndex: quantity(r.transactionIndex),
    type: quantity(r.type),
  }
  if (r.root !== undefined && r.root.length > 0) out.root = bytesToHex(r.root)
  else out.status = quantity(r.status ?? 0)
  if (r.type === 3) {
    out.blobGasUsed = quantity(r.blobGasUsed ?? 0n)
    out.blobGasPrice = r.blobGasPrice === undefined ? null : quantity(r.blobGasPrice)
  }
  if (r.opFields !== undefined) Object.assign(out, r.opFields)
  if (r.depositNonce !== undefined) {
    out.depositNonce = quantity(r.depositNonce)
    if (r.depositReceiptVersion !== undefined) out.depositReceiptVersion = quantity(r.depositReceiptVersion)
  }
  return sortedKeys(out)
}

export const formatLocatedReceipt = (located: LocatedReceipt): JsonObject => formatReceipt(located.receipt, located.context)
