/**
 * Sequencer events -> the view events subscribers get (node/api.ts FlashblockEvent, SealedBlockEvent).
 * Each event is built once, however many subscribers there are, and only when someone listens.
 */

import type { FlashblockEvent, LocatedLog, NodeListener, SealedBlockEvent } from './api.ts'
import type { Sequencer } from '../sequencer/sequencer.ts'
import type { PreconfirmedSnapshot } from '../sequencer/snapshot.ts'
import type { ChainReader } from './chain-reader.ts'
import { pendingBlock, pendingContext, pendingReceipts, pendingTransactions } from './pending-views.ts'
import type { BlockContext, ReceiptView } from '../chain/types.ts'

function logsOf(receipts: readonly ReceiptView[], context: BlockContext): LocatedLog[] {
  const out: LocatedLog[] = []
  for (const r of receipts) {
    r.logs.forEach((log, i) => {
      out.push({ log, context, transactionHash: r.transactionHash, transactionIndex: r.transactionIndex, logIndex: r.firstLogIndex + i })
    })
  }
  return out
}

export function flashblockEvent(s: PreconfirmedSnapshot): FlashblockEvent {
  const context = pendingContext(s)
  const receipts = pendingReceipts(s).slice(s.firstNew)
  const txs = pendingTransactions(s).slice(s.firstNew)
  return {
    block: pendingBlock(s),
    index: s.index,
    transactions: txs.map((tx, i) => ({
      tx: { tx, placement: { context, index: s.firstNew + i } },
      receipt: { receipt: receipts[i]!, context },
    })),
    logs: logsOf(receipts, context),
  }
}

export class NodeEvents {
  private readonly listeners = new Set<NodeListener>()

  constructor(sequencer: Sequencer, chain: ChainReader) {
    sequencer.on('flashblock', (s) => {
      if (this.listeners.size === 0) return
      const event = flashblockEvent(s)
      for (const l of this.listeners) l.flashblock?.(event)
    })
    sequencer.on('sealed', ({ executed }) => {
      if (this.listeners.size === 0) return
      const n = executed.stored.number
      const block = chain.block(n)
      const context = chain.context(n)
      if (block === undefined || context === undefined) return
      const event: SealedBlockEvent = { block, logs: logsOf(chain.receipts(n) ?? [], context) }
      for (const l of this.listeners) l.block?.(event)
    })
  }

  subscribe(listener: NodeListener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }
}
