/**
 * Views of a pre-confirmed snapshot in the shapes the facade returns for sealed blocks. Computed once per
 * snapshot (snapshots are immutable) and cached weakly; a transaction's views once per transaction.
 *
 * What the pre-confirmed block's objects carry, decided here once (checked against ethers 6.17, viem 2.57 and
 * cast 1.7.1 by test/e2e/clients):
 * - its transactions, receipts and logs (eth_getTransactionByHash, receipts, eth_getBlockReceipts(pending),
 *   eth_getLogs to pending, the pendingLogs and newFlashblockTransactions subscriptions, the pending block's
 *   full transactions) carry `blockHash` = 32 zero bytes (PRECONFIRMED_BLOCK_HASH) with their real
 *   blockNumber, transactionIndex and logIndex. The block has no hash until it is sealed, and ethers rejects a
 *   receipt or log whose blockHash is null; Base's node answers zeros. (ethers itself reads a transaction's
 *   zero blockHash as null, its "not mined" marker; viem and cast keep the zeros.) After the seal the same
 *   objects carry the real hash.
 * - the pending block itself (eth_getBlockByNumber("pending"), newFlashblocks) is marked pending: its hash,
 *   nonce and miner print as null, as geth prints its pending block; all three clients accept that.
 */

import { BLOOM_BYTES, logsBloom, orBloom } from '../primitives/bloom.ts'
import { PRECONFIRMED_BLOCK_HASH, type BlockContext, type BlockView, type ReceiptView, type TransactionView } from '../chain/types.ts'
import { depositView, headerView, transactionView } from '../execution/views.ts'
import type { IncludedTransaction } from '../execution/block-builder.ts'
import type { PreconfirmedSnapshot } from './snapshot.ts'

/**
 * Views of one included transaction, made once: successive snapshots of a block share their earlier
 * transactions (the same objects, at the same positions), so a flashblock costs the views of what it added,
 * not of the whole block so far. A receipt view is reused only at the position it was made for.
 */
const txViews = new WeakMap<IncludedTransaction, TransactionView>()
const receiptViews = new WeakMap<IncludedTransaction, ReceiptView>()
const receiptCache = new WeakMap<PreconfirmedSnapshot, ReceiptView[]>()
const txCache = new WeakMap<PreconfirmedSnapshot, TransactionView[]>()
const blockCache = new WeakMap<PreconfirmedSnapshot, BlockView>()

export function pendingContext(s: PreconfirmedSnapshot): BlockContext {
  return {
    blockHash: PRECONFIRMED_BLOCK_HASH,
    preconfirmed: true,
    blockNumber: s.header.number,
    blockTimestamp: s.header.timestamp,
    ...(s.header.baseFeePerGas !== undefined ? { baseFeePerGas: s.header.baseFeePerGas } : {}),
  }
}

function receiptView(t: IncludedTransaction, transactionIndex: number, firstLogIndex: number): ReceiptView {
  const known = receiptViews.get(t)
  if (known !== undefined && known.transactionIndex === transactionIndex && known.firstLogIndex === firstLogIndex) return known
  // Copied field by field: on this runtime `{ ...record, more }` costs microseconds, once per receipt here.
  const r = t.receipt
  const view: { -readonly [K in keyof ReceiptView]: ReceiptView[K] } = {
    transactionHash: r.transactionHash,
    transactionIndex,
    type: r.type,
    from: r.from,
    to: r.to,
    cumulativeGasUsed: r.cumulativeGasUsed,
    gasUsed: r.gasUsed,
    effectiveGasPrice: r.effectiveGasPrice,
    contractAddress: r.contractAddress,
    logs: r.logs,
    logsBloom: logsBloom(r.logs),
    firstLogIndex,
  }
  if (r.status !== undefined) view.status = r.status
  if (r.root !== undefined) view.root = r.root
  if (r.blobGasUsed !== undefined) view.blobGasUsed = r.blobGasUsed
  if (r.blobGasPrice !== undefined) view.blobGasPrice = r.blobGasPrice
  if (r.depositNonce !== undefined) view.depositNonce = r.depositNonce
  if (r.depositReceiptVersion !== undefined) view.depositReceiptVersion = r.depositReceiptVersion
  receiptViews.set(t, view)
  return view
}

function transactionViewOf(t: IncludedTransaction): TransactionView {
  let view = txViews.get(t)
  if (view === undefined) {
    // A deposit (OP Stack) has no library object: its view comes from its envelope and its receipt.
    view = t.deposit !== undefined ? depositView(t.raw, t.receipt) : transactionView(t.tx, t.sender, t.hash, t.raw)
    txViews.set(t, view)
  }
  return view
}

export function pendingReceipts(s: PreconfirmedSnapshot): ReceiptView[] {
  let out = receiptCache.get(s)
  if (out === undefined) {
    let logIndex = 0
    out = s.transactions.map((t, transactionIndex) => {
      const view = receiptView(t, transactionIndex, logIndex)
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
    out = s.transactions.map(transactionViewOf)
    txCache.set(s, out)
  }
  return out
}

/** A block's bloom is the union of its receipts' blooms. */
function unionBloom(receipts: readonly ReceiptView[]): Uint8Array {
  const bloom = new Uint8Array(BLOOM_BYTES)
  for (const r of receipts) orBloom(bloom, r.logsBloom)
  return bloom
}

export function pendingBlock(s: PreconfirmedSnapshot): BlockView {
  let out = blockCache.get(s)
  if (out === undefined) {
    const base = headerView(s.header, new Uint8Array(32))
    // What the block holds so far: its gas and blob gas (on Jovian its DA footprint), its receipts' bloom.
    const header = {
      ...base,
      gasUsed: s.gasUsed,
      ...(base.blobGasUsed !== undefined ? { blobGasUsed: s.blobGasUsed } : {}),
      logsBloom: unionBloom(pendingReceipts(s)),
    }
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
