/**
 * The txpool namespace's JSON, in geth's TxPoolAPI shapes: senders keyed by their EIP-55 (checksummed)
 * address, as geth prints `account.Hex()`; nonces keyed as decimal strings; transactions as RPCTransaction
 * objects of a pool transaction (blockHash, blockNumber, blockTimestamp and transactionIndex null; gasPrice
 * of a 1559-style transaction its fee cap); txpool_inspect's one-line summaries
 * `<to>: <value> wei + <gas> gas × <price> wei` (`contract creation: …` without a recipient), numbers in
 * decimal and the price being geth's tx.GasPrice() (the fee cap of a 1559-style transaction).
 * Pure functions of the port's views; no I/O.
 */

import type { TransactionView } from '../../chain/types.ts'
import { formatTransaction } from '../../format/transaction.ts'
import type { JsonObject } from '../../format/json.ts'
import type { SenderPoolContent } from '../../node/pool-api.ts'
import { checksumAddress } from '../params/checksum.ts'

type Entry = (tx: TransactionView) => string | JsonObject

function byNonce(txs: readonly TransactionView[], entry: Entry): JsonObject {
  const out: JsonObject = {}
  for (const tx of txs) out[tx.nonce.toString(10)] = entry(tx)
  return out
}

/** The shape of txpool_content and txpool_inspect: {pending: {sender: {nonce: entry}}, queued: {…}}. */
function bySender(content: readonly (SenderPoolContent & { readonly sender: Uint8Array })[], entry: Entry): JsonObject {
  const pending: JsonObject = {}
  const queued: JsonObject = {}
  for (const s of content) {
    const key = checksumAddress(s.sender)
    if (s.pending.length > 0) pending[key] = byNonce(s.pending, entry)
    if (s.queued.length > 0) queued[key] = byNonce(s.queued, entry)
  }
  return { pending, queued }
}

const poolTransaction = (tx: TransactionView): JsonObject => formatTransaction(tx, null)

/** geth's tx.GasPrice(): the gas price of a legacy or access-list transaction, else the fee cap. */
const priceOf = (tx: TransactionView): bigint => tx.gasPrice ?? tx.maxFeePerGas ?? 0n

export function inspectLine(tx: TransactionView): string {
  const head = tx.to === null ? 'contract creation' : checksumAddress(tx.to)
  return `${head}: ${tx.value} wei + ${tx.gasLimit} gas × ${priceOf(tx)} wei`
}

export function formatPoolContent(content: readonly (SenderPoolContent & { readonly sender: Uint8Array })[]): JsonObject {
  return bySender(content, poolTransaction)
}

export function formatPoolInspect(content: readonly (SenderPoolContent & { readonly sender: Uint8Array })[]): JsonObject {
  return bySender(content, inspectLine)
}

export function formatSenderContent(content: SenderPoolContent): JsonObject {
  return { pending: byNonce(content.pending, poolTransaction), queued: byNonce(content.queued, poolTransaction) }
}
