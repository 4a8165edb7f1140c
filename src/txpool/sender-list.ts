/**
 * One sender's pooled transactions: a nonce-sorted array whose prefix is executable.
 *
 * Invariants (hold between calls):
 * - `txs` is sorted by nonce, one transaction per nonce, every nonce ≥ `stateNonce`;
 * - the first `pendingCount` transactions carry nonces stateNonce, stateNonce+1, … (executable, "pending");
 *   the rest are gapped ("queued"); `txs[pendingCount]`, if any, does not carry stateNonce+pendingCount;
 * - `pendingCost` is the sum of the pending transactions' costs.
 * It never reads state, never decides admission, never emits events: the pool does, from what these
 * methods return. Appending at the end (the common case) is O(1); removal from the front is O(n) with n the
 * sender's own count.
 */

import type { Hex } from '../primitives/hex.ts'
import type { PooledTx } from './decode.ts'
import type { HeapItem } from './heap.ts'

/** Which eviction index holds the sender: its tail is gapped, or it is executable beyond the guaranteed slots. */
export type EvictHeap = 'none' | 'queued' | 'pending'

export class SenderTxs implements HeapItem {
  private txs: PooledTx[] = []
  pendingCount = 0
  pendingCost = 0n
  /** Last progress (ms): a first gapped transaction, or executable growth. Queued txs expire from it. */
  heartbeat = 0
  heapIndex = -1
  heap: EvictHeap = 'none'

  constructor(
    readonly address: Uint8Array,
    readonly key: Hex,
    public stateNonce: bigint,
  ) {}

  get size(): number {
    return this.txs.length
  }

  get queuedCount(): number {
    return this.txs.length - this.pendingCount
  }

  /** The highest-nonce transaction: the only one whose removal never opens a gap. */
  tail(): PooledTx | undefined {
    return this.txs[this.txs.length - 1]
  }

  /** The nonce after the executable run (the sender's next nonce, as the pool sees it). */
  nextNonce(): bigint {
    return this.stateNonce + BigInt(this.pendingCount)
  }

  get(nonce: bigint): PooledTx | undefined {
    const i = this.lowerBound(nonce)
    const tx = this.txs[i]
    return tx !== undefined && tx.nonce === nonce ? tx : undefined
  }

  /** For a transaction of this sender's (its nonce is at least `stateNonce`, by the invariant). */
  isPending(tx: PooledTx): boolean {
    return tx.nonce < this.nextNonce()
  }

  /** A copy of the executable run. */
  pending(): PooledTx[] {
    return this.txs.slice(0, this.pendingCount)
  }

  /** A copy of everything, in nonce order. */
  all(): PooledTx[] {
    return this.txs.slice()
  }

  /** The nonce after the consecutive run starting at `from` (used with a state nonce the pool has not seen). */
  consecutiveFrom(from: bigint): bigint {
    if (from === this.stateNonce) return this.nextNonce()
    let i = this.lowerBound(from)
    let next = from
    while (this.txs[i]?.nonce === next) {
      i++
      next++
    }
    return next
  }

  /**
   * Puts `tx` in its nonce's place, replacing a transaction with the same nonce (returned), then extends the
   * executable run. `promoted` lists the transactions that became executable, `tx` included if it did.
   */
  insert(tx: PooledTx): { replaced: PooledTx | undefined; promoted: PooledTx[] } {
    const txs = this.txs
    const last = txs[txs.length - 1]
    let replaced: PooledTx | undefined
    if (last === undefined || last.nonce < tx.nonce) {
      txs.push(tx)
    } else {
      const i = this.lowerBound(tx.nonce)
      if (txs[i]?.nonce === tx.nonce) {
        replaced = txs[i]
        txs[i] = tx
        if (i < this.pendingCount) this.pendingCost += tx.cost - replaced!.cost
      } else {
        txs.splice(i, 0, tx)
      }
    }
    return { replaced, promoted: this.extend() }
  }

  /**
   * Removes the transaction with this nonce (one the sender holds: the pool removes only what it holds);
   * later executable ones become gapped.
   */
  remove(nonce: bigint): void {
    const i = this.lowerBound(nonce)
    this.txs.splice(i, 1)
    // Removing the head (i = 0) leaves a gap at stateNonce: nothing stays executable.
    if (i < this.pendingCount) this.truncatePending(i)
  }

  /**
   * The head was executed: it leaves, the state nonce moves past it, the rest stays executable. Only for a
   * head that is executable (its nonce is `stateNonce`).
   */
  shiftIncluded(): PooledTx {
    const head = this.txs.shift()!
    this.pendingCount--
    this.pendingCost -= head.cost
    this.stateNonce = head.nonce + 1n
    return head
  }

  /** Removes and returns the tail (of a sender with transactions). */
  popTail(): PooledTx {
    const tx = this.txs.pop()!
    if (this.pendingCount > this.txs.length) {
      this.pendingCount = this.txs.length
      this.pendingCost -= tx.cost
    }
    return tx
  }

  /**
   * Moves to a new state nonce: drops the transactions below it (returned as `stale`) and recomputes the
   * executable run (`promoted`: the ones that were gapped and no longer are). Only for a changed state nonce
   * (the pool checks).
   */
  resync(stateNonce: bigint): { stale: PooledTx[]; promoted: PooledTx[] } {
    const cut = this.lowerBound(stateNonce)
    const stale = cut > 0 ? this.txs.splice(0, cut) : []
    const wasPending = new Set(this.txs.slice(0, Math.max(0, this.pendingCount - cut)))
    this.stateNonce = stateNonce
    this.pendingCount = 0
    this.pendingCost = 0n
    const promoted = this.extend().filter((tx) => !wasPending.has(tx))
    return { stale, promoted }
  }

  /**
   * Drops every transaction matching `drop` (returned), then recomputes the executable run, which can only
   * shrink: dropping never closes a gap.
   */
  filter(drop: (tx: PooledTx) => boolean): PooledTx[] {
    const dropped: PooledTx[] = []
    const kept: PooledTx[] = []
    for (const tx of this.txs) (drop(tx) ? dropped : kept).push(tx)
    this.txs = kept
    this.pendingCount = 0
    this.pendingCost = 0n
    this.extend()
    return dropped
  }

  /** Removes every gapped transaction (highest nonce first). */
  dropQueued(): PooledTx[] {
    return this.txs.splice(this.pendingCount).reverse()
  }

  private extend(): PooledTx[] {
    const txs = this.txs
    let next = this.nextNonce()
    const start = this.pendingCount
    while (this.pendingCount < txs.length && txs[this.pendingCount]!.nonce === next) {
      this.pendingCost += txs[this.pendingCount]!.cost
      this.pendingCount++
      next++
    }
    return txs.slice(start, this.pendingCount)
  }

  private truncatePending(at: number): void {
    let cost = 0n
    for (let i = 0; i < at; i++) cost += this.txs[i]!.cost
    this.pendingCount = at
    this.pendingCost = cost
  }

  /** Index of the first transaction with nonce ≥ `nonce`. */
  private lowerBound(nonce: bigint): number {
    const txs = this.txs
    let lo = 0
    let hi = txs.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (txs[mid]!.nonce < nonce) lo = mid + 1
      else hi = mid
    }
    return lo
  }
}
