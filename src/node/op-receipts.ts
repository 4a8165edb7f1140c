/**
 * The OP Stack keys of a sealed block's receipts, derived when read as op-geth derives them (its receipts'
 * DeriveFields): nothing is stored beyond the common receipt and a deposit's nonce and version.
 *
 * Owns: which receipts get the L1 fee keys (every non-deposit receipt of a block with at least two
 * transactions, the first one's calldata read as the L1 attributes) and what a block whose L1 attributes
 * cannot be read answers (an internal error, as op-geth fails to derive such a block's receipts). The keys
 * themselves and their values per fork are opstack/receipt-fields.ts's; the chain reader caches the result.
 *
 * A pre-confirmed block's receipts (`pendingRpcReceipts`) are derived by the same function from the open
 * block's transactions so far, so a receipt read at `pending` carries the keys and values its sealed receipt
 * will (a block's L1 attributes are its first transaction, fixed from its opening flashblock). Each derived
 * receipt is kept with the receipt view it came from: successive snapshots share their earlier receipt views,
 * so a flashblock costs the derivation of what it added.
 */

import type { BlockView, ReceiptView } from '../chain/types.ts'
import type { ChainRules } from '../execution/chain-config.ts'
import type { PreconfirmedSnapshot } from '../preconf/snapshot.ts'
import { pendingBlock, pendingReceipts } from '../preconf/views.ts'
import { internalError } from '../errors/errors.ts'
import { DEPOSIT_TX_TYPE } from '../opstack/deposit-tx.ts'
import type { OpForkName } from '../opstack/forks.ts'
import { l1CostReceiptFields } from '../opstack/receipt-fields.ts'

/** `receipts` of `block` (a block of `fork`) with the L1 fee keys on each non-deposit receipt. */
export function withOpReceiptFields(fork: OpForkName, block: BlockView, receipts: readonly ReceiptView[], memo?: WeakMap<ReceiptView, ReceiptView>): ReceiptView[] {
  const txs = block.transactions
  // op-geth derives the L1 fee fields only when there is an L1-info transaction and another one.
  if (txs.length < 2) return [...receipts]
  if (receipts.length !== txs.length) throw internalError(`block ${block.header.number}: ${receipts.length} receipts for ${txs.length} transactions`)
  const calldata = txs[0]!.data
  return receipts.map((receipt, i) => {
    if (receipt.type === DEPOSIT_TX_TYPE) return receipt
    const known = memo?.get(receipt)
    if (known !== undefined) return known
    let opFields
    try {
      opFields = l1CostReceiptFields(fork, calldata, txs[i]!.serialized)
    } catch (e) {
      throw internalError(`block ${block.header.number}: cannot derive the L1 fee fields of its receipts: ${(e as Error).message}`, e)
    }
    const derived = { ...receipt, opFields }
    memo?.set(receipt, derived)
    return derived
  })
}

const derivedPending = new WeakMap<ReceiptView, ReceiptView>()
const pendingLists = new WeakMap<PreconfirmedSnapshot, readonly ReceiptView[]>()

/** The pre-confirmed receipts of `s` as the RPC answers them: with the L1 fee keys on an OP Stack chain. */
export function pendingRpcReceipts(rules: ChainRules, s: PreconfirmedSnapshot): readonly ReceiptView[] {
  const receipts = pendingReceipts(s)
  if (rules.op === undefined) return receipts
  let list = pendingLists.get(s)
  if (list === undefined) {
    const fork = rules.opFork(s.header.number, s.header.timestamp)
    list = fork === undefined ? receipts : withOpReceiptFields(fork, pendingBlock(s), receipts, derivedPending)
    pendingLists.set(s, list)
  }
  return list
}
