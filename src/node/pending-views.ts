/**
 * Views of a pre-confirmed snapshot in the shapes the facade returns for sealed blocks. Computed once per
 * snapshot (snapshots are immutable) and cached weakly.
 *
 * The open block has no hash yet: its context carries `blockHash: null`, and its block view is marked
 * pending (geth answers hash, nonce and miner as null for the pending block).
 */

import { logsBloom } from '../primitives/bloom.ts'
import type { BlockContext, BlockView, ReceiptView, TransactionView } from '../chain/types.ts'
import { headerView, transactionView } from '../execution/views.ts'
import type { PreconfirmedSnapshot } from '../sequencer/snapshot.ts'

const receiptCache = new WeakMap<PreconfirmedSnapshot, ReceiptView[]>()
const txCache = new WeakMap<PreconfirmedSnapshot, TransactionView[]>()
const blockCache = new WeakMap<PreconfirmedSnapshot, BlockView>()

export function pendingContext(s: PreconfirmedSnapshot): BlockContext {
  return {
    blockHash: null,
    blockNumber: s.header.number,
    blockTimestamp: s.header.timestamp,
    ...(s.header.baseFeePerGas !== undefined ? { baseFeePerGas: s.header.baseFeePerGas } : {}),
  }
}

export function pendingReceipts(s: PreconfirmedSnapshot): ReceiptView[] {
  let out = receiptCache.get(s)
  if (out === undefined) {
    let logIndex = 0
    out = s.transactions.map((t, transactionIndex) => {
      const view: ReceiptView = { ...t.receipt, transactionIndex, firstLogIndex: logIndex, logsBloom: logsBloom(t.receipt.logs) }
      logIndex += t.receipt.logs.length
      return view
    })
    receiptCache.set(s, out)
  }
  return out
}

export function pendingTransactions(s: PreconfirmedSnapshot): TransactionView[] {
  let out = txCache.get(s)
  if (out === undefined) {
    out = s.transactions.map((t) => transactionView(t.tx, t.sender, t.hash))
    txCache.set(s, out)
  }
  return out
}

export function pendingBlock(s: PreconfirmedSnapshot): BlockView {
  let out = blockCache.get(s)
  if (out === undefined) {
    const receipts = pendingReceipts(s)
    const bloom = logsBloom(receipts.flatMap((r) => r.logs))
    const header = { ...headerView(s.header, new Uint8Array(32)), gasUsed: s.gasUsed, logsBloom: bloom }
    const transactions = pendingTransactions(s)
    out = {
      header,
      transactions,
      uncleHashes: [],
      ...(s.header.common.isActivatedEIP(4895) ? { withdrawals: [] } : {}),
      size: transactions.reduce((n, t) => n + t.serialized.length, 0),
      pending: true,
    }
    blockCache.set(s, out)
  }
  return out
}
