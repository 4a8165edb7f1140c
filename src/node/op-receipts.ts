/**
 * The OP Stack keys of a sealed block's receipts, derived when read as op-geth derives them (its receipts'
 * DeriveFields): nothing is stored beyond the common receipt and a deposit's nonce and version.
 *
 * Owns: which receipts get the L1 fee keys (every non-deposit receipt of a block with at least two
 * transactions, the first one's calldata read as the L1 attributes) and what a block whose L1 attributes
 * cannot be read answers (an internal error, as op-geth fails to derive such a block's receipts). The keys
 * themselves and their values per fork are opstack/receipt-fields.ts's; the chain reader caches the result.
 */

import type { BlockView, ReceiptView } from '../chain/types.ts'
import { internalError } from '../errors/errors.ts'
import { DEPOSIT_TX_TYPE } from '../opstack/deposit-tx.ts'
import type { OpForkName } from '../opstack/forks.ts'
import { l1CostReceiptFields } from '../opstack/receipt-fields.ts'

/** `receipts` of `block` (a block of `fork`) with the L1 fee keys on each non-deposit receipt. */
export function withOpReceiptFields(fork: OpForkName, block: BlockView, receipts: readonly ReceiptView[]): ReceiptView[] {
  const txs = block.transactions
  // op-geth derives the L1 fee fields only when there is an L1-info transaction and another one.
  if (txs.length < 2) return [...receipts]
  if (receipts.length !== txs.length) throw internalError(`block ${block.header.number}: ${receipts.length} receipts for ${txs.length} transactions`)
  const calldata = txs[0]!.data
  return receipts.map((receipt, i) => {
    if (receipt.type === DEPOSIT_TX_TYPE) return receipt
    let opFields
    try {
      opFields = l1CostReceiptFields(fork, calldata, txs[i]!.serialized)
    } catch (e) {
      throw internalError(`block ${block.header.number}: cannot derive the L1 fee fields of its receipts: ${(e as Error).message}`, e)
    }
    return { ...receipt, opFields }
  })
}
