/**
 * The transaction pool: a data structure. Admission (validate.ts, in geth's order and wording), per-sender
 * executable ("pending") and gapped ("queued") transactions, replacement, limits and eviction, expiry of
 * gapped transactions, the best-first iterator for the block builder, and events.
 *
 * Invariants:
 * - every pooled transaction is in `byHash` (insertion order = arrival order) and in its sender's list;
 *   `pendingTotal`/`queuedTotal` are the sums of the senders' counts;
 * - a sender whose tail is gapped is in `queuedTails`; one with no gapped txs but more executable ones than
 *   `accountSlots` is in `pendingTails`; others are in neither. Only tails are evicted, so eviction never
 *   opens a gap before a sender's other executable transactions, and `accountSlots` executable
 *   transactions per sender are never evicted;
 * - events are queued during an operation and emitted once the pool is consistent again.
 * Never: timers (the clock is injected; `expire(now)` is called from outside), RPC, execution, I/O.
 * Costs: add is O(log senders) besides decoding and signature recovery; best() is O(executable txs).
 */

import type { StateReader } from '../state/state-reader.ts'
import { bytesToHex, type Hex } from '../primitives/hex.ts'
import { resolvePoolConfig, type PoolConfig } from './config.ts'
import { parseTx, type ParsedTx, type PooledTx, type TxFields } from './decode.ts'
import { Emitter, EventQueue } from './emitter.ts'
import { buildWhenIdle, pooledFromPrepared, pooledInline } from './prepared.ts'
import { IndexedHeap } from './heap.ts'
import { rejections } from './messages.ts'
import { comparePrice, evictsBefore } from './pricing.ts'
import { SenderTxs, type EvictHeap } from './sender-list.ts'
import { BestTxs } from './best.ts'
import { checkSigned, checkState, checkStateless, checkSubmission, isPricedReplacement, type PendingEnv } from './validate.ts'
import { registerGauge } from '../primitives/memory-gauges.ts'

export type TxStatus = 'pending' | 'queued'
export type DropReason =
  | 'replaced'
  | 'evicted'
  | 'expired'
  | 'stale'
  | 'included'
  | 'insufficientFunds'
  | 'gasLimit'
  | (string & {})

export type PoolEvents = {
  added: [tx: PooledTx, status: TxStatus]
  dropped: [hash: Hex, reason: DropReason]
  promoted: [tx: PooledTx]
}

export interface AddResult {
  readonly hash: Hex
  readonly tx: PooledTx
  readonly status: TxStatus
  /** The hash of the transaction this one replaced (same sender and nonce). */
  readonly replaced?: Hex
}

export interface TxPoolOptions {
  readonly config?: Partial<PoolConfig>
  /** Milliseconds; defaults to Date.now. */
  readonly now?: () => number
}

export interface NewStateOptions {
  /** Only these senders changed (default: re-check every sender). */
  readonly touched?: Iterable<Uint8Array | string>
  readonly baseFee?: bigint
  /** Drops transactions that can no longer fit a block. */
  readonly blockGasLimit?: bigint
}

const keyOf = (h: Uint8Array | string): Hex => (typeof h === 'string' ? (h.toLowerCase() as Hex) : bytesToHex(h))

export class TxPool {
  readonly config: PoolConfig
  readonly events = new Emitter<PoolEvents>()
  private readonly now: () => number
  private readonly byHash = new Map<Hex, PooledTx>()
  private readonly senders = new Map<Hex, SenderTxs>()
  private pendingTotal = 0
  private queuedTotal = 0
  private baseFee = 0n
  private readonly queuedTails: IndexedHeap<SenderTxs>
  private readonly pendingTails: IndexedHeap<SenderTxs>
  private readonly outbox = new EventQueue(this.events)

  constructor(opts: TxPoolOptions = {}) {
    this.config = resolvePoolConfig(opts.config)
    this.now = opts.now ?? Date.now
    const cheaper = (a: SenderTxs, b: SenderTxs) => evictsBefore(a.tail()!, b.tail()!, this.baseFee)
    this.queuedTails = new IndexedHeap(cheaper)
    this.pendingTails = new IndexedHeap(cheaper)
    registerGauge('pool transactions', this, (p) => ({ entries: p.byHash.size, maxEntries: p.config.globalSlots + p.config.globalQueue }))
    registerGauge('pool event listeners', this, (p) => ({
      entries: p.events.listenerCount('added') + p.events.listenerCount('dropped') + p.events.listenerCount('promoted'),
    }))
    registerGauge('pool senders', this, (p) => ({ entries: p.senders.size, maxEntries: p.config.globalSlots + p.config.globalQueue }))
  }

  /**
   * Admits a transaction (raw bytes as received, or already decoded) against the pending state. With raw
   * bytes, `env.prepared` (when given and prepared for `env.common`'s fork) stands for their decoding.
   */
  add(input: Uint8Array | PooledTx, state: StateReader, env: PendingEnv): AddResult {
    try {
      return this.admit(input, state, env)
    } finally {
      this.flush()
    }
  }

  get(hash: Uint8Array | string): PooledTx | undefined {
    return this.byHash.get(keyOf(hash))
  }

  has(hash: Uint8Array | string): boolean {
    return this.byHash.has(keyOf(hash))
  }

  status(hash: Uint8Array | string): TxStatus | undefined {
    const tx = this.byHash.get(keyOf(hash))
    if (tx === undefined) return undefined
    return this.senders.get(tx.senderHex)!.isPending(tx) ? 'pending' : 'queued'
  }

  stats(): { pending: number; queued: number; senders: number } {
    return { pending: this.pendingTotal, queued: this.queuedTotal, senders: this.senders.size }
  }

  /** One sender's transactions, in nonce order. */
  contentOf(sender: Uint8Array | string): { pending: PooledTx[]; queued: PooledTx[] } {
    const s = this.senders.get(keyOf(sender))
    if (s === undefined) return { pending: [], queued: [] }
    const all = s.all()
    return { pending: all.slice(0, s.pendingCount), queued: all.slice(s.pendingCount) }
  }

  /**
   * Every sender's transactions (txpool_content), senders in the order they first entered the pool, each
   * split as `contentOf` splits it. A copy: later pool changes do not show in it.
   */
  content(): Array<{ sender: Uint8Array; pending: PooledTx[]; queued: PooledTx[] }> {
    const out: Array<{ sender: Uint8Array; pending: PooledTx[]; queued: PooledTx[] }> = []
    for (const s of this.senders.values()) {
      if (s.size === 0) continue
      const all = s.all()
      out.push({ sender: s.address, pending: all.slice(0, s.pendingCount), queued: all.slice(s.pendingCount) })
    }
    return out
  }

  /** max(stateNonce, the nonce after the sender's consecutive pool transactions from stateNonce). */
  pendingNonce(sender: Uint8Array | string, stateNonce: bigint): bigint {
    const s = this.senders.get(keyOf(sender))
    if (s === undefined) return stateNonce
    return s.consecutiveFrom(stateNonce) // never below stateNonce
  }

  /** Executable transactions, best effective tip first, never a sender's nonce n+1 before n. */
  best(baseFee: bigint, blobBaseFee?: bigint): BestTxs {
    const runs: Array<{ key: Hex; txs: PooledTx[] }> = []
    for (const s of this.senders.values()) if (s.pendingCount > 0) runs.push({ key: s.key, txs: s.pending() })
    return new BestTxs(runs, baseFee, blobBaseFee, (tx) => this.byHash.get(tx.hashHex) === tx)
  }

  /** Raw bytes of every pooled transaction, in arrival order (for persistence). */
  all(): Uint8Array[] {
    const out: Uint8Array[] = []
    for (const tx of this.byHash.values()) out.push(tx.raw)
    return out
  }

  /** Removes a transaction; the sender's later executable ones become gapped. */
  remove(hash: Uint8Array | string, reason: DropReason = 'removed'): boolean {
    try {
      const tx = this.byHash.get(keyOf(hash))
      if (tx === undefined) return false
      const s = this.senders.get(tx.senderHex)!
      const p0 = s.pendingCount
      const q0 = s.queuedCount
      s.remove(tx.nonce)
      this.forget(tx, reason)
      this.settle(s, p0, q0)
      return true
    } finally {
      this.flush()
    }
  }

  /** These transactions were executed into the pending block: they leave, their senders' nonces move on. */
  included(hashes: Iterable<Uint8Array | string>): void {
    try {
      for (const hash of hashes) {
        const tx = this.byHash.get(keyOf(hash))
        if (tx === undefined) continue
        const s = this.senders.get(tx.senderHex)!
        const p0 = s.pendingCount
        const q0 = s.queuedCount
        if (s.stateNonce === tx.nonce) s.shiftIncluded() // the head, which is executable
        else s.remove(tx.nonce)
        this.forget(tx, 'included')
        this.settle(s, p0, q0)
      }
    } finally {
      this.flush()
    }
  }

  /**
   * The pending state moved: drops what it made stale (nonce below the account's) or unpayable (cost above
   * the balance), demotes what lost its place in the nonce run, promotes what gained one, enforces the
   * global limits.
   */
  onNewState(state: StateReader, opts: NewStateOptions = {}): void {
    try {
      if (opts.baseFee !== undefined) this.setBaseFee(opts.baseFee)
      const targets: SenderTxs[] = []
      if (opts.touched === undefined) targets.push(...this.senders.values())
      else for (const k of opts.touched) {
        const s = this.senders.get(keyOf(k))
        if (s !== undefined) targets.push(s)
      }
      for (const s of targets) this.refresh(s, state, opts.blockGasLimit)
      this.enforceGlobalLimits()
    } finally {
      this.flush()
    }
  }

  /** Drops the gapped transactions of senders that made no progress for `queueLifetimeMs`. */
  expire(nowMs: number = this.now()): number {
    try {
      const cutoff = nowMs - this.config.queueLifetimeMs
      let count = 0
      for (const s of this.queuedTails.values().slice()) {
        if (s.heartbeat >= cutoff) continue
        const p0 = s.pendingCount
        const q0 = s.queuedCount
        for (const tx of s.dropQueued()) {
          this.forget(tx, 'expired')
          count++
        }
        this.settle(s, p0, q0)
      }
      return count
    } finally {
      this.flush()
    }
  }

  private admit(input: Uint8Array | PooledTx, state: StateReader, env: PendingEnv): AddResult {
    const cfg = this.config
    this.setBaseFee(env.baseFee)
    const prepared = input instanceof Uint8Array && env.prepared?.fork === env.common.hardfork() ? env.prepared : undefined
    const fields: TxFields = prepared ?? (input instanceof Uint8Array ? parseTx(input) : input)
    checkSubmission(fields, cfg)
    if (this.byHash.has(fields.hashHex)) throw rejections.alreadyKnown()
    checkStateless(fields, env, cfg)
    const tx = !(input instanceof Uint8Array)
      ? input
      : prepared !== undefined
        ? pooledFromPrepared(input, prepared, env.common, this.now())
        : pooledInline(fields as ParsedTx, env.common, this.now())
    checkSigned(tx, env, cfg)

    const account = state.getAccount(tx.sender)
    const stateNonce = account?.nonce ?? 0n
    const known = this.senders.get(tx.senderHex)
    if (known !== undefined) this.resync(known, stateNonce)
    let s = this.senders.get(tx.senderHex)
    const existing = s?.get(tx.nonce)
    const replacing = existing !== undefined && s!.isPending(existing) ? existing.cost : undefined
    checkState(tx, { nonce: stateNonce, balance: account?.balance ?? 0n }, { spent: s?.pendingCost ?? 0n, replacing })
    if (existing !== undefined) {
      if (!isPricedReplacement(existing, tx, cfg.priceBumpPercent)) throw rejections.replaceUnderpriced()
    } else {
      this.makeRoom(tx, s, stateNonce)
      s = this.senders.get(tx.senderHex) // eviction may have emptied (and detached) it
    }
    if (s === undefined) {
      s = new SenderTxs(tx.sender, tx.senderHex, stateNonce)
      this.senders.set(s.key, s)
    }

    const p0 = s.pendingCount
    const q0 = s.queuedCount
    const { replaced, promoted } = s.insert(tx)
    if (replaced !== undefined) this.forget(replaced, 'replaced')
    this.byHash.set(tx.hashHex, tx)
    buildWhenIdle(tx)
    const status: TxStatus = s.isPending(tx) ? 'pending' : 'queued'
    if (status === 'pending' || q0 === 0) s.heartbeat = this.now()
    this.settle(s, p0, q0)
    this.out('added', tx, status)
    for (const p of promoted) if (p !== tx) this.out('promoted', p)
    return replaced === undefined ? { hash: tx.hashHex, tx, status } : { hash: tx.hashHex, tx, status, replaced: replaced.hashHex }
  }

  /**
   * Frees one place for a new (non-replacing) transaction, or throws why it cannot be admitted. One eviction
   * almost always suffices; when two limits bind at once and the second has no cheaper victim, the first
   * eviction stands although the newcomer is refused (geth would have put that victim back).
   */
  private makeRoom(tx: PooledTx, s: SenderTxs | undefined, stateNonce: bigint): void {
    const cfg = this.config
    const landsPending = tx.nonce === (s?.nextNonce() ?? stateNonce)
    if (!landsPending && s !== undefined && s.queuedCount >= cfg.accountQueue) {
      // The sender's own gapped limit: keep its lowest nonces (geth caps the queue from the top).
      if (s.tail()!.nonce < tx.nonce) throw rejections.accountLimit(s.size)
      this.evict(s, 'evicted')
      return
    }
    const capacity = cfg.globalSlots + cfg.globalQueue
    for (;;) {
      const full = this.pendingTotal + this.queuedTotal >= capacity
      const queueFull = !landsPending && this.queuedTotal >= cfg.globalQueue
      const pendingFull =
        landsPending && this.pendingTotal >= cfg.globalSlots && (s?.pendingCount ?? 0) >= cfg.accountSlots
      if (!full && !queueFull && !pendingFull) return
      const victim = this.cheapest(queueFull && !full ? 'queued' : pendingFull && !full ? 'pending' : 'any', tx.senderHex)
      if (victim === undefined) throw rejections.poolFull()
      if (comparePrice(victim.tail()!, tx, this.baseFee) >= 0) throw rejections.underpriced()
      if (!landsPending && victim.heap === 'pending') throw rejections.futureReplacePending()
      this.evict(victim, 'evicted')
    }
  }

  /** The sender with the cheapest evictable tail, other than `exclude`. */
  private cheapest(source: 'any' | 'queued' | 'pending', exclude: Hex): SenderTxs | undefined {
    const q = source !== 'pending' ? this.topExcluding(this.queuedTails, exclude) : undefined
    const p = source !== 'queued' ? this.topExcluding(this.pendingTails, exclude) : undefined
    if (q === undefined) return p
    if (p === undefined) return q
    return evictsBefore(q.tail()!, p.tail()!, this.baseFee) ? q : p
  }

  private topExcluding(heap: IndexedHeap<SenderTxs>, exclude: Hex): SenderTxs | undefined {
    const top = heap.peek()
    if (top === undefined || top.key !== exclude) return top
    // The second in a binary heap is one of the root's children (the first is filled first).
    const [, a, b] = heap.values()
    if (b === undefined) return a
    return evictsBefore(a!.tail()!, b.tail()!, this.baseFee) ? a : b
  }

  private evict(s: SenderTxs, reason: DropReason): void {
    const p0 = s.pendingCount
    const q0 = s.queuedCount
    this.forget(s.popTail(), reason) // a sender in an eviction index, or at its queue limit, holds some
    this.settle(s, p0, q0)
  }

  private refresh(s: SenderTxs, state: StateReader, blockGasLimit: bigint | undefined): void {
    const account = state.getAccount(s.address)
    this.resync(s, account?.nonce ?? 0n)
    const balance = account?.balance ?? 0n
    const p0 = s.pendingCount
    const q0 = s.queuedCount
    const tooBig = (tx: PooledTx) => blockGasLimit !== undefined && tx.gasLimit > blockGasLimit
    const dropped = s.filter((tx) => tx.cost > balance || tooBig(tx))
    for (const tx of dropped) this.forget(tx, tooBig(tx) ? 'gasLimit' : 'insufficientFunds')
    this.settle(s, p0, q0)
  }

  private resync(s: SenderTxs, stateNonce: bigint): void {
    if (s.stateNonce === stateNonce) return
    const p0 = s.pendingCount
    const q0 = s.queuedCount
    const { stale, promoted } = s.resync(stateNonce)
    for (const tx of stale) this.forget(tx, 'stale')
    this.promoted(s, promoted)
    this.settle(s, p0, q0)
  }

  private promoted(s: SenderTxs, txs: PooledTx[]): void {
    if (txs.length === 0) return
    s.heartbeat = this.now()
    for (const tx of txs) this.out('promoted', tx)
  }

  private enforceGlobalLimits(): void {
    const cfg = this.config
    // A sender with gapped transactions is always in queuedTails; one with executable ones only beyond accountSlots.
    while (this.queuedTotal > cfg.globalQueue) this.evict(this.queuedTails.peek()!, 'evicted')
    while (this.pendingTotal > cfg.globalSlots && this.pendingTails.size > 0) this.evict(this.pendingTails.peek()!, 'evicted')
  }

  private setBaseFee(baseFee: bigint): void {
    if (baseFee === this.baseFee) return
    this.baseFee = baseFee
    this.queuedTails.rebuild()
    this.pendingTails.rebuild()
  }

  private forget(tx: PooledTx, reason: DropReason): void {
    this.byHash.delete(tx.hashHex)
    this.out('dropped', tx.hashHex, reason)
  }

  /** Books a sender's count changes and files it in the right eviction index (or drops it when empty). */
  private settle(s: SenderTxs, p0: number, q0: number): void {
    this.pendingTotal += s.pendingCount - p0
    this.queuedTotal += s.queuedCount - q0
    const want: EvictHeap =
      s.queuedCount > 0 ? 'queued' : s.pendingCount > this.config.accountSlots ? 'pending' : 'none'
    if (want !== s.heap) {
      if (s.heap !== 'none') this.heapOf(s.heap).remove(s)
      s.heap = want
      if (want !== 'none') this.heapOf(want).push(s)
    } else if (want !== 'none') {
      this.heapOf(want).update(s)
    }
    if (s.size === 0 && this.senders.get(s.key) === s) this.senders.delete(s.key)
  }

  private heapOf(kind: 'queued' | 'pending'): IndexedHeap<SenderTxs> {
    return kind === 'queued' ? this.queuedTails : this.pendingTails
  }

  private out<K extends keyof PoolEvents>(event: K, ...args: PoolEvents[K]): void {
    this.outbox.push(event, ...args)
  }

  private flush(): void {
    this.outbox.flush()
  }
}
