/**
 * The txpool namespace's port: what rpc/ may read of the node's transaction pool (txpool_status, _content,
 * _contentFrom, _inspect), kept apart from the NodeApi facade, which answers for blocks and state.
 *
 * What "pending" means here: the pool's executable transactions (no nonce gap before them) that the
 * sequencer has not pre-confirmed yet. A sequencer takes transactions out of the pool as it pre-confirms them
 * (every flashblock, 200 ms by default), so a transaction already in the open block is not listed: it is
 * `pending` block state (eth_getBlockByNumber("pending")), not pool content. "queued": gapped transactions.
 * A node without a pool (a follower forwards transactions to its sequencer; a read-only node takes none)
 * answers with an empty pool (EMPTY_POOL), as geth with an empty pool answers.
 *
 * Never: change the pool, or hand out the pool's own objects (the views are made per call).
 */

import type { TransactionView } from '../chain/types.ts'
import { transactionView } from '../execution/views.ts'
import type { PooledTx, TxPool } from '../txpool/index.ts'

/** One sender's pooled transactions, each list in nonce order. */
export interface SenderPoolContent {
  readonly pending: readonly TransactionView[]
  readonly queued: readonly TransactionView[]
}

export interface TxPoolApi {
  /** How many transactions are executable (pending) and gapped (queued). */
  status(): { readonly pending: number; readonly queued: number }
  /** Every sender that has transactions in the pool (20-byte address) with them. */
  content(): readonly (SenderPoolContent & { readonly sender: Uint8Array })[]
  /** One sender's transactions (none for a sender the pool does not know). */
  contentFrom(sender: Uint8Array): SenderPoolContent
}

/** The pool of a node that has none. */
export const EMPTY_POOL: TxPoolApi = Object.freeze({
  status: () => ({ pending: 0, queued: 0 }),
  content: () => [],
  contentFrom: () => ({ pending: [], queued: [] }),
})

const view = (tx: PooledTx): TransactionView => transactionView(tx.tx, tx.sender, tx.hash)

/** The port over the node's own pool. */
export function poolApi(pool: TxPool): TxPoolApi {
  return {
    status: () => {
      const { pending, queued } = pool.stats()
      return { pending, queued }
    },
    content: () => pool.content().map((s) => ({ sender: s.sender, pending: s.pending.map(view), queued: s.queued.map(view) })),
    contentFrom: (sender) => {
      const s = pool.contentOf(sender)
      return { pending: s.pending.map(view), queued: s.queued.map(view) }
    },
  }
}
