/**
 * The block builder's view of the pool: executable transactions, best effective tip first (ties: earlier
 * arrival), one heap entry per sender so that a sender's nonce n+1 never comes before its nonce n.
 *
 * Built from a snapshot of each sender's executable run, so pool changes during a build never reorder it;
 * a transaction that left the pool meanwhile ends its sender's run (its successors could not execute).
 * A sender also ends at its first transaction whose fee cap is below the base fee (or blob fee cap below the
 * blob base fee), and when the builder says so with `skipSender` (e.g. a transaction failed).
 * Never mutates the pool.
 */

import { bytesToHex, type Hex } from '../primitives/hex.ts'
import type { PooledTx } from './decode.ts'
import { IndexedHeap, type HeapItem } from './heap.ts'
import { ranksBefore } from './pricing.ts'

interface Cursor extends HeapItem {
  readonly key: Hex
  readonly txs: readonly PooledTx[]
  i: number
}

export class BestTxs implements Iterable<PooledTx> {
  private readonly heap: IndexedHeap<Cursor>
  private readonly bySender = new Map<Hex, Cursor>()

  /** `runs`: each sender's executable transactions in nonce order, never empty (the pool skips empty ones). */
  constructor(
    runs: Iterable<{ readonly key: Hex; readonly txs: readonly PooledTx[] }>,
    private readonly baseFee: bigint,
    private readonly blobBaseFee: bigint | undefined,
    private readonly isLive: (tx: PooledTx) => boolean,
  ) {
    this.heap = new IndexedHeap<Cursor>((a, b) => ranksBefore(a.txs[a.i]!, b.txs[b.i]!, baseFee))
    for (const run of runs) {
      const cursor: Cursor = { key: run.key, txs: run.txs, i: 0, heapIndex: -1 }
      if (!this.payable(run.txs[0]!)) continue
      this.bySender.set(run.key, cursor)
      this.heap.push(cursor)
    }
  }

  /** The next transaction to try, or undefined when none is left. */
  next(): PooledTx | undefined {
    for (;;) {
      const top = this.heap.peek()
      if (top === undefined) return undefined
      const tx = top.txs[top.i]!
      if (!this.isLive(tx)) {
        this.drop(top)
        continue
      }
      top.i++
      const following = top.txs[top.i]
      if (following === undefined || !this.payable(following)) this.drop(top)
      else this.heap.update(top)
      return tx
    }
  }

  /** None of this sender's remaining transactions will be offered. */
  skipSender(sender: Uint8Array | string): void {
    const key = (typeof sender === 'string' ? sender.toLowerCase() : bytesToHex(sender)) as Hex
    const cursor = this.bySender.get(key)
    if (cursor !== undefined) this.drop(cursor)
  }

  *[Symbol.iterator](): Iterator<PooledTx> {
    for (let tx = this.next(); tx !== undefined; tx = this.next()) yield tx
  }

  private payable(tx: PooledTx): boolean {
    if (tx.feeCap < this.baseFee) return false
    return !(this.blobBaseFee !== undefined && tx.blobFeeCap !== undefined && tx.blobFeeCap < this.blobBaseFee)
  }

  private drop(cursor: Cursor): void {
    this.heap.remove(cursor)
    this.bySender.delete(cursor.key)
  }
}
