/**
 * The sequencer: turns pool transactions into flashblocks, and flashblocks into sealed blocks. It is a
 * producer of the pre-confirmation feed (preconf/feed.ts): it publishes through the feed's writer, and
 * readers see the feed, never the sequencer.
 *
 * Every interval (200 ms by default) it takes the best executable transactions, runs them into the open
 * block, journals them durably, and only then publishes a new immutable snapshot. Every N flashblocks
 * (10 by default) it seals: roots, header, one atomic write that also clears the block's journal, head
 * moved last; then it opens the next block (its system operations are flashblock 0). In manual mode
 * nothing happens on its own: `flashblock()` and `seal()` are called (by tests, or `evm_mine`).
 *
 * Invariants: one operation at a time (a promise chain); the published snapshot is never older than the
 * newest sealed block and never absent (a seal lets requests in while it computes roots, never between its
 * commit and the next block's first snapshot); a transaction seen as pre-confirmed is in the journal (a group
 * leader's: in the replicated stream); after a restart, `start()` replays the journal so the same
 * transactions land in the same order.
 * It learns of new transactions only through the pool it reads from; it never answers RPC. Listening to its
 * `flashblock` and `sealed` is listening to the feed it writes (one list of listeners, one announcement);
 * `error` (a tick that failed) and `deposed` are its own.
 *
 * With an announcement gate (a sequencer group's leader, announcement-gate.ts), every flashblock (the opening
 * included) and every seal is acknowledged through the gate before it is announced (the feed and the pool's
 * stateChanged hear of it only then); a flashblock's journal write follows its announcement, and a seal's
 * gate comes before its commit. The stream is the group's record (a takeover, this node's own after a
 * restart included, rebuilds the journal from it); the journal is only this node's working copy, which may
 * trail the stream by the flashblock just announced. The opening of the next block is acknowledged after
 * the commit, so meanwhile `pending` reads fall back to `latest` (the block resolver).
 * Flashblocks resumed from the journal are not gated: a leader's journal is rebuilt from the replicated
 * stream, so they are already there. When the gate refuses, the sequencer is deposed: it stops (no more
 * ticks; every later call fails with SequencerDeposed), announces nothing of what was refused, deletes the
 * open block's journal (never resumed by this node as if pre-confirmed: the next takeover rebuilds the journal
 * from the stream) and emits `deposed`; a journal write that failed deposes it too (what it announced is in
 * the stream). The transactions of a refused flashblock stay in this node's pool.
 * Without a gate nothing of this runs and nothing is awaited beyond what it always was.
 *
 * With a block opening (block-opening.ts; an OP Stack chain's, op-opening.ts) the opening also sets the
 * coinbase and extraData and runs the chain's leading deposits (the L1-attributes deposit, then user deposits
 * queued through `queueDeposit`) into the block: they are the opening flashblock's (index 0) transactions, in
 * every snapshot's list ahead of the rest, and journaled with the environment before the opening is announced.
 * Without one (an Ethereum chain) the opening has no transactions and nothing of this runs. A group leader's
 * user deposits are kept on the group's brokers (`useDepositKeeping`), told once the opening that took them
 * is acknowledged.
 */

import { EventEmitter } from 'node:events'
import type { BlockHeader } from '@ethereumjs/block'
import { createTxFromRLP, type TypedTransaction } from '@ethereumjs/tx'
import { keccak256 } from '../primitives/keccak.ts'
import { OpenBlock, TransactionNotIncluded, type BlockCandidate, type BlockEnvironment, type IncludedTransaction, type OpenOptions } from '../execution/block-builder.ts'
import type { ChainRules } from '../execution/chain-config.ts'
import type { ExecutedBlock } from '../execution/block-runner.ts'
import type { ChainStore } from '../chain/chain-store.ts'
import type { KvStore, WriteBatch } from '../storage/db.ts'
import { equalBytes } from '../primitives/hex.ts'
import type { StateReader } from '../state/state-reader.ts'
import { snapshotReader } from '../preconf/state.ts'
import { FlashblockJournal } from './journal.ts'
import { makeSnapshot, type PreconfirmedSnapshot } from '../preconf/snapshot.ts'
import { PreconfirmedStore, type FeedEvents, type FeedEventSource, type FeedListener, type PreconfirmedWriter } from '../preconf/feed.ts'
import type { Scheduler } from './scheduler.ts'
import { failpoint } from '../primitives/failpoints.ts'
import { decodeHeader } from '../execution/block-codec.ts'
import { SequencerDeposed, type AnnouncementGate } from './announcement-gate.ts'
import type { BlockOpening, DepositRequest } from './block-opening.ts'
import type { DepositKeeping } from './deposit-keeping.ts'
import { depositEntry } from '../execution/block-builder.ts'

/** A flashblock's journal write, prepared; `started` timed for the observer. */
type JournalWrite = { readonly batch: WriteBatch; readonly started: number }

/**
 * A transaction the pool offers. `tx` may be built on first access; a legacy, EIP-2930 or EIP-1559
 * transaction that comes with its `view` (decoded at admission) runs without it (block-builder.ts).
 */
export interface PoolCandidate extends BlockCandidate {
  /** The transaction's bytes as received, when the pool passes them (used for all but blob transactions). */
  readonly raw?: Uint8Array | undefined
}

export interface CandidateIterator {
  next(): PoolCandidate | undefined
  /** The rest of this sender's transactions cannot run now (a nonce gap or failure). */
  skipSender(sender: Uint8Array): void
}

/** What the sequencer needs of the transaction pool. */
export interface SequencerPool {
  candidates(baseFee: bigint): CandidateIterator
  /** These transactions were pre-confirmed: they leave the pool (with their persisted copies). */
  included(batch: WriteBatch, hashes: readonly Uint8Array[]): void
  /** This transaction can never be included: drop it, saying why. */
  drop(hash: Uint8Array, reason: string): void
  /** The pending state moved (a flashblock or a new block): `snapshot` is the newest, `state` its state. */
  stateChanged(state: StateReader, snapshot: PreconfirmedSnapshot): void
}

/** What the sequencer reports of its own work, for metrics (node/metrics.ts); each call is cheap and sync. */
export interface SequencerObserver {
  /**
   * A flashblock built: from asking the pool to its publication (a single node's journal write, a group
   * leader's acknowledgement included), in seconds, and the gas its new transactions used (0 for an empty one).
   */
  flashblockBuilt(seconds: number, gas: number): void
  /** The journal write of a flashblock with transactions, in seconds. */
  journalWritten(seconds: number): void
  /** A block sealed: roots, header and the atomic write, wall clock in seconds (requests answered in its one
   *  yield before the write included; the last flashblock not). */
  sealed(seconds: number): void
  /** A tick found the previous one still running and was skipped. */
  tickSkipped(): void
}

export interface SequencerOptions {
  /** How blocks are opened (e.g. where their seal's roots are hashed). */
  readonly open?: OpenOptions
  /** Where flashblocks and seals are published (the node's feed); absent: a feed of its own. */
  readonly feed?: PreconfirmedWriter & FeedEventSource
  /** Told of build, journal and seal times and of skipped ticks. */
  readonly observer?: SequencerObserver
  /** A sequencer group's leader: what must acknowledge each flashblock and seal before it is announced. */
  readonly gate?: AnnouncementGate
  /** The chain's own duties at each block's opening (an OP Stack chain's deposits); absent on Ethereum. */
  readonly opening?: BlockOpening
  /**
   * Told after each automatic tick's work how long remains until the next tick (ms): time no flashblock
   * waits on (node/idle-collection.ts collects garbage there).
   */
  readonly idleTime?: (msUntilNextTick: number) => void
}

export interface SequencerSettings {
  readonly mode: 'auto' | 'manual'
  readonly flashblockIntervalMs: number
  readonly flashblocksPerBlock: number
  readonly coinbase: Uint8Array
  readonly extraData: Uint8Array
  /** Most transactions one flashblock takes (keeps each flashblock's build short). */
  readonly maxTransactionsPerFlashblock: number
}

/** A listener of any of the sequencer's events (Sequencer.on's overloads say which). */
type AnyListener = ((error: unknown) => void) | FeedListener<'flashblock'> | FeedListener<'sealed'>

interface OwnEvents {
  error: [error: unknown]
  deposed: [error: unknown]
}

export class Sequencer {
  private open!: OpenBlock
  private current!: PreconfirmedSnapshot
  private index = 0
  private work: Promise<unknown> = Promise.resolve()
  private cancelTimer: (() => void) | undefined
  private stopped = false
  private ticking = false
  /** When the scheduled tick is due (scheduler time). */
  private nextTickAt = 0
  private readonly idleTime: ((msUntilNextTick: number) => void) | undefined
  private readonly journal: FlashblockJournal
  private readonly feed: PreconfirmedWriter & FeedEventSource
  private readonly errors = new EventEmitter<OwnEvents>()
  private gate: AnnouncementGate | undefined
  /** Why the gate refused (undefined while the sequencer may announce). */
  private deposition: unknown = undefined
  private deposed = false
  private readonly openOptions: OpenOptions
  /** The open block's environment until its first flashblock with transactions journals it. */
  private unjournaledEnv: BlockEnvironment | undefined
  private readonly observer: SequencerObserver | undefined
  private readonly opening: BlockOpening | undefined
  /** The open block takes no pool transaction (an OP fork's first block, whose deposits upgrade the chain). */
  private depositsOnly = false
  /** The open block's deposits as snapshot entries (empty on an Ethereum chain). */
  private depositEntries: readonly IncludedTransaction[] = []

  constructor(
    private readonly rules: ChainRules,
    private readonly kv: KvStore,
    private readonly chain: ChainStore,
    private readonly headHeader: () => BlockHeader,
    private readonly commitSealed: (executed: ExecutedBlock, extra: (batch: WriteBatch) => void) => void,
    private readonly pool: SequencerPool,
    private readonly scheduler: Scheduler,
    private readonly settings: SequencerSettings,
    options: SequencerOptions = {},
  ) {
    this.journal = new FlashblockJournal(kv)
    this.feed = options.feed ?? new PreconfirmedStore(kv)
    this.openOptions = options.open ?? {}
    this.observer = options.observer
    this.gate = options.gate
    this.opening = options.opening
    this.idleTime = options.idleTime
  }

  /**
   * Sets the announcement gate (a group leader's, for its term) before `start()`; the node builds the
   * sequencer before the stream that implements the gate, hence a setter beside the option.
   */
  useGate(gate: AnnouncementGate | undefined): void {
    if (this.current !== undefined) throw new Error('the announcement gate is set before the sequencer starts')
    this.gate = gate
  }

  /**
   * Where an OP chain's user deposits are kept, set before `start()` (a group leader's replicated keeper,
   * deposit-keeping.ts); without it the opening keeps them in the node's store.
   */
  useDepositKeeping(keeping: DepositKeeping): void {
    if (this.current !== undefined) throw new Error('the deposit keeper is set before the sequencer starts')
    if (this.opening === undefined) throw new Error('this chain has no deposit transactions (not an OP Stack chain)')
    this.opening.useKeeping(keeping)
  }

  /** Why the gate refused, once the sequencer is deposed (undefined while it leads). */
  get deposedBy(): unknown {
    return this.deposition
  }

  /**
   * `flashblock` and `sealed` are the feed's events (stop listening through the feed); `error` is a failed
   * tick (unheard, it is thrown); `deposed` is told once, with the gate's refusal, when the sequencer stops
   * because its gate refused a flashblock or a seal (a deposition is not also an `error`).
   */
  on(event: 'error' | 'deposed', listener: (error: unknown) => void): this
  on<K extends keyof FeedEvents>(event: K, listener: FeedListener<K>): this
  on(event: keyof OwnEvents | keyof FeedEvents, listener: AnyListener): this {
    if (event === 'error' || event === 'deposed') this.errors.on(event, listener as (error: unknown) => void)
    else this.feed.on(event, listener as FeedListener<typeof event>)
    return this
  }

  off(event: 'error' | 'deposed', listener: (error: unknown) => void): this {
    this.errors.off(event, listener)
    return this
  }

  listenerCount(event: keyof FeedEvents): number {
    return this.feed.listenerCount(event)
  }

  /** The newest pre-confirmed snapshot. */
  snapshot(): PreconfirmedSnapshot {
    return this.current
  }

  /** Reader of a snapshot's state (the newest by default). */
  pendingState(snapshot = this.current): StateReader {
    return snapshotReader(this.kv, snapshot)
  }

  /** Opens (or, after a restart, resumes from the journal) the block on top of the head. */
  async start(): Promise<void> {
    let resumed = false
    await this.serial(async () => {
      const parent = this.headHeader()
      const journaled = this.journal.read(parent.number + 1n)
      if (journaled !== undefined && equalBytes(journaled.parentHash, parent.hash())) {
        await this.resume(parent, journaled.env, journaled.flashblocks, journaled.deposits ?? [])
        resumed = true
      } else {
        await this.openNext(parent)
      }
    })
    // A group leader that took over an open block builds its next flashblock at once: the block has already
    // waited out the takeover. Anything else keeps the plain cadence from its start.
    if (this.settings.mode === 'auto') this.schedule(resumed && this.gate !== undefined ? 0 : this.settings.flashblockIntervalMs)
  }

  async stop(): Promise<void> {
    this.stopped = true
    this.cancelTimer?.()
    await this.work.catch(() => undefined)
  }

  /**
   * Queues a user deposit (OP Stack development method) for the block after the open one, where it runs
   * after the L1-attributes deposit and before every other transaction; answers its hash. Throws on a chain
   * without deposits.
   */
  queueDeposit(request: DepositRequest): Promise<Uint8Array> {
    return this.serial(async () => {
      if (this.opening === undefined) throw new Error('this chain has no deposit transactions (not an OP Stack chain)')
      if (this.current === undefined) throw new Error('the sequencer has not started')
      return this.opening.queue(request, this.open.header.number, this.open.header.gasLimit)
    })
  }

  /** Runs pending pool transactions into a new flashblock and publishes it (even when empty). */
  flashblock(): Promise<PreconfirmedSnapshot> {
    return this.serial(() => this.buildFlashblock())
  }

  /** Builds a last flashblock, seals the block and opens the next one. */
  seal(): Promise<ExecutedBlock> {
    return this.serial(async () => {
      await this.buildFlashblock()
      return this.sealOpen()
    })
  }

  // --- internals ----------------------------------------------------------------------------------

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const guarded = (): Promise<T> => (this.deposed ? Promise.reject(new SequencerDeposed({ cause: this.deposition })) : fn())
    const run = this.work.then(guarded, guarded)
    this.work = run.catch(() => undefined)
    return run
  }

  /**
   * Fixed-rate ticks: the next tick is set before this one's work starts, so build time does not stretch
   * the interval; a tick that finds the previous one still running is skipped rather than queued.
   */
  private schedule(delayMs = this.settings.flashblockIntervalMs): void {
    if (this.stopped) return
    this.nextTickAt = this.scheduler.now() + delayMs
    this.cancelTimer = this.scheduler.after(delayMs, () => {
      this.schedule()
      if (this.ticking) return this.observer?.tickSkipped()
      this.ticking = true
      this.serial(async () => {
        try {
          await this.buildFlashblock()
          if (this.index >= this.settings.flashblocksPerBlock) await this.sealOpen()
        } finally {
          this.ticking = false
        }
        this.idleTime?.(this.nextTickAt - this.scheduler.now())
      }).catch((e: unknown) => {
        if (!this.deposed) this.errors.emit('error', e)
      })
    })
  }

  /** Resolves when no operation is running or queued (for tests and shutdown). */
  async idle(): Promise<void> {
    await this.work
  }

  private environment(parent: BlockHeader): BlockEnvironment {
    const now = BigInt(Math.floor(this.scheduler.now() / 1000))
    const timestamp = now > parent.timestamp ? now : parent.timestamp + 1n
    const seed = new Uint8Array(40)
    seed.set(parent.hash(), 0)
    new DataView(seed.buffer).setBigUint64(32, parent.number + 1n)
    const chosen = this.opening?.environment(parent, timestamp)
    return {
      timestamp,
      coinbase: chosen?.coinbase ?? this.settings.coinbase,
      gasLimit: parent.gasLimit,
      extraData: chosen?.extraData ?? this.settings.extraData,
      prevRandao: keccak256(seed),
      parentBeaconBlockRoot: new Uint8Array(32),
    }
  }

  private async openNext(parent: BlockHeader): Promise<void> {
    const env = this.environment(parent)
    const open = await OpenBlock.open(this.rules, this.kv, this.chain, parent, env, this.openOptions)
    this.unjournaledEnv = env
    if (this.opening !== undefined) this.runOpeningDeposits(parent, open, env)
    else this.depositEntries = []
    const opening = this.opened(parent, open)
    if (this.gate !== undefined) await this.acknowledged(this.gate.flashblock(opening))
    // The deposits it took are in the record now: their keeper may forget them (a refusal deposed us above,
    // leaving them kept for the next leader to check against the stream).
    if (this.depositEntries.length > 1) failpoint('open:user-deposits-acknowledged')
    this.opening?.acknowledged()
    this.announce(opening)
  }

  /**
   * The chain's leading deposits, run into the new block and journaled with its environment (they are
   * pre-confirmed with the opening). A user deposit the block has no gas left for waits for the next block.
   */
  private runOpeningDeposits(parent: BlockHeader, open: OpenBlock, env: BlockEnvironment): void {
    const opening = this.opening!
    let count = 0
    for (const envelope of opening.deposits(parent, env.timestamp)) {
      try {
        open.addDeposit(envelope)
      } catch (e) {
        if (!(e instanceof TransactionNotIncluded) || count === 0) throw e
        break
      }
      count++
    }
    // One write: the deposits leave the durable queue as they enter the journal (never in both, never in neither).
    const batch = this.kv.batch()
    opening.included(batch, count)
    this.journal.writeOpen(batch, open.header.number, open.header.parentHash, env, open.deposits.map((d) => d.raw))
    this.kv.commit(batch)
    failpoint('open:after-journal')
    this.unjournaledEnv = undefined
    this.depositEntries = open.deposits.map(depositEntry)
  }

  /** `open` is the open block; its opening snapshot (index 0, its deposits if any), not yet announced. */
  private opened(parent: BlockHeader, open: OpenBlock): PreconfirmedSnapshot {
    // A block replaced before its seal (a restart of this sequencer) is dropped, its roots' feed with it.
    if (this.open !== open) this.open?.discard()
    this.open = open
    this.depositsOnly = this.opening?.depositsOnly(parent, open.header.timestamp) ?? false
    this.index = 0
    return makeSnapshot(parent, open.header, 0, this.depositEntries, 0, open.diff(), open.gasUsed, open.blobGasUsed)
  }

  /** Awaits the gate's acknowledgement; a refusal deposes the sequencer and is rethrown. */
  private async acknowledged(ack: Promise<void>): Promise<void> {
    try {
      await ack
    } catch (e) {
      this.depose(e)
      throw e
    }
  }

  private depose(err: unknown): void {
    if (this.deposed) return
    this.deposed = true
    this.deposition = err
    this.stopped = true
    this.cancelTimer?.()
    // What was journaled of the open block is not resumed by this node: the refused part was never
    // announced, and the next takeover rebuilds the journal from the replicated stream.
    const batch = this.kv.batch()
    this.journal.discard(batch, this.open.header.number)
    this.kv.commit(batch)
    this.open.discard()
    this.errors.emit('deposed', err)
  }

  /** `snapshot` is the newest: the pool hears first, then the feed's listeners. */
  private announce(snapshot: PreconfirmedSnapshot): void {
    this.current = snapshot
    this.pool.stateChanged(this.pendingState(), snapshot)
    this.feed.publish(snapshot)
  }

  private async resume(parent: BlockHeader, env: BlockEnvironment, flashblocks: Uint8Array[][], deposits: readonly Uint8Array[]): Promise<void> {
    const open = await OpenBlock.open(this.rules, this.kv, this.chain, parent, env, this.openOptions)
    for (const envelope of deposits) open.addDeposit(envelope)
    this.depositEntries = open.deposits.map(depositEntry)
    // Not gated: what the journal holds was acknowledged (a group leader's journal is the stream's).
    this.announce(this.opened(parent, open))
    for (const raws of flashblocks) {
      const first = open.included.length
      for (const raw of raws) {
        const tx = createTxFromRLP(raw, { common: open.header.common })
        await open.add(tx, tx.getSenderAddress().bytes, tx.hash())
      }
      this.announce(this.next(first))
    }
  }

  /**
   * The open block's next flashblock's snapshot (not yet announced); `firstNew` counts in `open.included`
   * (the deposits, if any, lead the snapshot's list).
   */
  private next(firstNew: number): PreconfirmedSnapshot {
    const open = this.open
    this.index += 1
    const deposits = this.depositEntries
    const transactions = deposits.length === 0 ? [...open.included] : [...deposits, ...open.included]
    return makeSnapshot(this.current.parent, open.header, this.index, transactions, deposits.length + firstNew, open.diff(), open.gasUsed, open.blobGasUsed, this.current)
  }

  private async buildFlashblock(): Promise<PreconfirmedSnapshot> {
    const started = this.observer === undefined ? 0 : performance.now()
    const open = this.open
    const first = open.included.length
    const gasBefore = open.gasUsed
    const candidates = this.pool.candidates(open.header.baseFeePerGas ?? 0n)
    const added: IncludedTransaction[] = []
    while (!this.depositsOnly && added.length < this.settings.maxTransactionsPerFlashblock) {
      if (open.header.gasLimit - open.gasUsed < 21_000n) break
      const c = candidates.next()
      if (c === undefined) break
      try {
        added.push(await open.addCandidate(c))
      } catch (e) {
        if (!(e instanceof TransactionNotIncluded)) throw e
        candidates.skipSender(c.sender)
        if (!e.retryable) this.pool.drop(c.hash, e.message)
      }
    }
    const snapshot = this.next(first)
    if (this.gate !== undefined) return this.announceAcknowledged(snapshot, added, started, gasBefore)
    if (added.length > 0) this.commitJournal(this.journalBatch(open, added, snapshot.index))
    failpoint('flashblock:after-journal')
    this.announce(snapshot)
    this.observer?.flashblockBuilt((performance.now() - started) / 1000, Number(open.gasUsed - gasBefore))
    return this.current
  }

  /**
   * A group leader's flashblock: announced once the replicated stream holds it, then journaled. The stream is
   * what makes it durable (a takeover, this node's own after a restart included, rebuilds the journal from
   * it), so the journal write, this node's working copy, is not on the way to the announcement: the main
   * thread is free while the brokers store the message, and the acknowledgement is heard as soon as it
   * comes. A journal write that fails then deposes the sequencer; what it announced is in the stream.
   */
  private async announceAcknowledged(snapshot: PreconfirmedSnapshot, added: readonly IncludedTransaction[], started: number, gasBefore: bigint): Promise<PreconfirmedSnapshot> {
    const open = this.open
    await this.acknowledged(this.gate!.flashblock(snapshot))
    // Prepared before the announcement: the pool lets the transactions go as included before it hears of the new state.
    const journal = added.length > 0 ? this.journalBatch(open, added, snapshot.index) : undefined
    this.announce(snapshot)
    this.observer?.flashblockBuilt((performance.now() - started) / 1000, Number(open.gasUsed - gasBefore))
    // The announcement's WebSocket notifications are corked until the end of this microtask turn
    // (rpc/transport/ws-server.ts coalescedWrites): they leave before the journal write holds the thread.
    await Promise.resolve()
    if (journal !== undefined) {
      try {
        this.commitJournal(journal)
      } catch (e) {
        this.depose(e)
        throw e
      }
    }
    failpoint('flashblock:after-journal')
    return this.current
  }

  /**
   * The write that journals flashblock `index`'s transactions (and the open block's environment, the first
   * time) and takes them out of the pool, one write.
   */
  private journalBatch(open: OpenBlock, added: readonly IncludedTransaction[], index: number): JournalWrite {
    const started = this.observer === undefined ? 0 : performance.now()
    const batch = this.kv.batch()
    const env = this.unjournaledEnv
    if (env !== undefined) this.journal.writeOpen(batch, open.header.number, open.header.parentHash, env)
    this.journal.writeFlashblock(batch, open.header.number, index, added.map((a) => a.raw))
    this.pool.included(batch, added.map((a) => a.hash))
    this.unjournaledEnv = undefined
    return { batch, started }
  }

  /** Commits the journal write on this thread: durable when this returns. */
  private commitJournal(journal: JournalWrite): void {
    this.kv.commit(journal.batch)
    this.observer?.journalWritten((performance.now() - journal.started) / 1000)
  }

  private async sealOpen(): Promise<ExecutedBlock> {
    const started = this.observer === undefined ? 0 : performance.now()
    const number = this.open.header.number
    const flashblocks = this.index
    const executed = await this.open.seal()
    // Requests waiting meanwhile are answered before the commit; from the commit to the next block's first
    // snapshot nothing yields, so no request ever sees a pending block older than the newest sealed one
    // (with a gate the opening's acknowledgement yields: `pending` falls back to `latest` meanwhile).
    if (this.gate === undefined) await new Promise<void>((resolve) => setImmediate(resolve))
    else await this.acknowledged(this.gate.sealed({ header: decodeHeader(this.rules, executed.stored.headerRlp), executed, last: this.current }))
    failpoint('seal:before-commit')
    this.commitSealed(executed, (batch) => this.journal.clear(batch, number, flashblocks))
    this.observer?.sealed((performance.now() - started) / 1000)
    failpoint('seal:after-commit')
    const header = this.headHeader()
    this.feed.sealed({ header, executed, last: this.current })
    await this.openNext(header)
    return executed
  }
}
