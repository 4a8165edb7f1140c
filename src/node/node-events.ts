/**
 * Feed and pool events -> the view events subscribers get (node/api.ts FlashblockEvent,
 * SealedBlockEvent, PendingTransactionEvent). Each event is built once, however many subscribers there are,
 * and only when someone listens.
 *
 * Pending transactions follow geth's newPendingTransactions: a transaction is announced when it enters the
 * pool's executable set (admitted with no nonce gap, or promoted when the gap closes; a replacement is a new
 * transaction), not while it waits queued. The pool's events are listened to only while some subscriber
 * wants them, so submissions cost nothing extra otherwise. It listens to the pre-confirmation feed
 * (preconf/feed.ts), whoever produces it.
 */

import type { FlashblockEvent, LocatedLog, NodeListener, PendingTransactionEvent, SealedBlockEvent } from './api.ts'
import type { PreconfirmedFeed, SealedBlock } from '../preconf/feed.ts'
import type { PreconfirmedSnapshot } from '../preconf/snapshot.ts'
import type { ChainReader } from './chain-reader.ts'
import { pendingBlock, pendingContext, pendingReceipts, pendingTransactions } from '../preconf/views.ts'
import type { BlockContext, ReceiptView, TransactionView } from '../chain/types.ts'
import type { PooledTx, TxPool } from '../txpool/index.ts'
import { appendLogs } from '../chain/logs.ts'
import { headerView, transactionView } from '../execution/views.ts'
import { registerGauge } from '../primitives/memory-gauges.ts'

function logsOf(receipts: readonly ReceiptView[], context: BlockContext): LocatedLog[] {
  const out: LocatedLog[] = []
  for (const r of receipts) appendLogs(out, r, context)
  return out
}

export function flashblockEvent(s: PreconfirmedSnapshot): FlashblockEvent {
  let added: FlashblockEvent['transactions'] | undefined
  let logs: LocatedLog[] | undefined
  const receipts = () => pendingReceipts(s).slice(s.firstNew)
  return {
    get block() {
      return pendingBlock(s)
    },
    index: s.index,
    hashes: s.transactions.slice(s.firstNew).map((t) => t.hash),
    get transactions() {
      if (added !== undefined) return added
      const context = pendingContext(s)
      const views = receipts()
      return (added = pendingTransactions(s)
        .slice(s.firstNew)
        .map((tx, i) => ({ tx: { tx, placement: { context, index: s.firstNew + i } }, receipt: { receipt: views[i]!, context } })))
    },
    get logs() {
      return (logs ??= logsOf(receipts(), pendingContext(s)))
    },
  }
}

function pendingTransactionEvent(tx: PooledTx): PendingTransactionEvent {
  let view: TransactionView | undefined
  return { hash: tx.hash, transaction: () => (view ??= transactionView(tx.tx, tx.sender, tx.hash)) }
}

export class NodeEvents {
  private readonly listeners = new Set<NodeListener>()
  private poolListeners = 0
  private stopPool: (() => void) | undefined

  constructor(
    private readonly feed: PreconfirmedFeed,
    chain: ChainReader,
    /** Absent on a follower (no pool): pending-transaction listeners hear nothing. */
    private readonly pool?: TxPool,
  ) {
    registerGauge('subscription listeners', this.listeners, (l) => ({ entries: l.size }))
    feed.on('flashblock', (s) => {
      if (this.listeners.size === 0) return
      const event = flashblockEvent(s)
      for (const l of this.listeners) l.flashblock?.(event)
    })
    feed.on('sealed', ({ header }) => {
      if (this.listeners.size === 0) return
      const n = header.number
      const context = chain.context(n)
      if (context === undefined) return
      let logs: LocatedLog[] | undefined
      const event: SealedBlockEvent = {
        header: headerView(header, context.blockHash),
        get logs() {
          return (logs ??= logsOf(chain.receipts(n) ?? [], context))
        },
      }
      for (const l of this.listeners) l.block?.(event)
    })
  }

  /** Each sealed block as the feed announces it, without building its views (eth_sendRawTransactionSync's wait). */
  onSealed(listener: (block: SealedBlock) => void): () => void {
    this.feed.on('sealed', listener)
    return () => void this.feed.off('sealed', listener)
  }

  subscribe(listener: NodeListener): () => void {
    if (this.listeners.has(listener)) return () => this.unsubscribe(listener)
    this.listeners.add(listener)
    if (listener.pendingTransaction !== undefined && this.poolListeners++ === 0) this.listenToPool()
    return () => this.unsubscribe(listener)
  }

  private unsubscribe(listener: NodeListener): void {
    if (!this.listeners.delete(listener)) return
    if (listener.pendingTransaction !== undefined && --this.poolListeners === 0) {
      this.stopPool?.()
      this.stopPool = undefined
    }
  }

  private listenToPool(): void {
    const pool = this.pool
    if (pool === undefined) return
    const announce = (tx: PooledTx): void => {
      const event = pendingTransactionEvent(tx)
      for (const l of this.listeners) l.pendingTransaction?.(event)
    }
    const stopAdded = pool.events.on('added', (tx, status) => {
      if (status === 'pending') announce(tx)
    })
    const stopPromoted = pool.events.on('promoted', announce)
    this.stopPool = () => {
      stopAdded()
      stopPromoted()
    }
  }
}
