/**
 * The follower: the second producer of the pre-confirmation feed (preconf/feed.ts). Where the sequencer
 * executes transactions, the follower applies a sequencer's stream messages (docs/stream.md): each
 * flashblock becomes the same snapshot the sequencer published, each closing message a sealed block the
 * follower checked itself (replica-block.ts) before committing it. Readers see the feed and never learn
 * which producer is behind it.
 *
 * Order: messages are handled one at a time, in arrival order. A message whose sequence is not newer than
 * the last one handled is a duplicate and ignored; one whose previous sequence is not the last one handled
 * means messages were missed: `receive` answers `{ resume }` and the caller re-subscribes after that
 * sequence. A block the follower cannot build from the stream (it joined mid-block, missed its opening, or
 * its seal did not check out) is fetched sealed from the sequencer instead and imported the way any block
 * is (re-executed, every root checked), never served from what did not check out. Blocks the follower lacks
 * before an opening (an empty or restarted follower) are fetched the same way first (catch-up).
 *
 * Pending state is never dropped on a gap: the open block's snapshot stays until the block is sealed or
 * rebuilt, and `pending` reads fall back to `latest` once the head passes it (node/block-resolver.ts).
 */

import type { BlockHeader } from '@ethereumjs/block'
import type { ExecutedBlock } from '../execution/block-runner.ts'
import { decodeHeader } from '../execution/block-codec.ts'
import type { ChainRules } from '../execution/chain-config.ts'
import type { PreconfirmedWriter } from '../preconf/feed.ts'
import { errorFields, type Logger, SILENT_LOGGER } from '../primitives/logger.ts'
import type { KvStore } from '../storage/db.ts'
import { decodeMessage, type DecodedMessage } from './message-decoder.ts'
import { ReplicaBlock, ReplicaOutOfStep, SealMismatch, type ReplicaWork } from './replica-block.ts'

/** The sequencer's sealed chain, for catch-up and refetching (sequencer-client.ts over JSON-RPC). */
export interface SealedBlockSource {
  /** Blocks `from`..`to` (inclusive), each as its RLP encoding, in order. */
  blocks(from: bigint, to: bigint): Promise<Uint8Array[]>
}

/** What the follower tells its observers (metrics, logs). */
export interface FollowerObserver {
  /** What became of a message (gaps are told by `gap`). */
  handled?(outcome: 'applied' | 'sealed' | 'duplicate' | 'skipped'): void
  gap?(expected: number, got: number): void
  sealMismatch?(error: SealMismatch): void
  caughtUp?(blocks: number, head: bigint): void
  /** A catch-up's progress: `done` of `total` blocks fetched and imported (told after each batch, and at 0). */
  catchUpProgress?(done: number, total: number): void
}

export interface FollowerDeps {
  readonly rules: ChainRules
  readonly kv: KvStore
  /** The newest sealed block in this node's database. */
  readonly head: () => BlockHeader
  /** Commits a checked block (ChainWriter.commit). */
  readonly commit: (executed: ExecutedBlock) => void
  /** Imports blocks fetched from the sequencer, re-executing and checking each (ChainWriter.importRlp). */
  readonly importBlocks: (rlps: readonly Uint8Array[]) => Promise<void>
  readonly writer: PreconfirmedWriter
  readonly sealed: SealedBlockSource
  readonly log?: Logger
  readonly observer?: FollowerObserver
  /** Blocks fetched per request while catching up. */
  readonly catchUpBatch?: number
  /** Where a seal's roots and the senders' recovery run (default: this thread, in turns). */
  readonly work?: ReplicaWork
}

/** What became of a message. `resume`: messages were missed, re-subscribe after that sequence. */
export type Outcome = 'applied' | 'sealed' | 'duplicate' | 'skipped' | { readonly resume: number }

export class Follower {
  private open: ReplicaBlock | undefined
  private lastSequence: number | null = null
  /** The newest block the sequencer is known to have sealed (from its messages, or a catch-up's target). */
  private sequencerHead = 0n
  /** This node's head when it last fell behind (eth_syncing's startingBlock). */
  private fellBehindAt: bigint | undefined
  private chain: Promise<unknown> = Promise.resolve()
  private readonly log: Logger
  private readonly observers = new Set<FollowerObserver>()

  constructor(private readonly deps: FollowerDeps) {
    this.log = deps.log ?? SILENT_LOGGER
    if (deps.observer !== undefined) this.observers.add(deps.observer)
  }

  private tell<K extends keyof FollowerObserver>(event: K, ...args: Parameters<NonNullable<FollowerObserver[K]>>): void {
    for (const o of this.observers) (o[event] as ((...a: typeof args) => void) | undefined)?.(...args)
  }

  /** Adds an observer (metrics, logs, tests); returns the way to remove it. */
  observe(observer: FollowerObserver): () => void {
    this.observers.add(observer)
    return () => this.observers.delete(observer)
  }

  /**
   * Where this node stands against its sequencer: its head, the sequencer's newest sealed block as known
   * here, and the head it had when it fell behind (undefined when not behind).
   */
  progress(): { readonly head: bigint; readonly sequencerHead: bigint; readonly startingBlock: bigint | undefined } {
    const head = this.deps.head().number
    if (head >= this.sequencerHead) this.fellBehindAt = undefined
    return { head, sequencerHead: this.sequencerHead > head ? this.sequencerHead : head, startingBlock: this.fellBehindAt }
  }

  /** The sequence of the last message handled (null before the first). */
  get sequence(): number | null {
    return this.lastSequence
  }

  /**
   * Forgets the last sequence handled, for when the messages after it cannot be had from anywhere: the next
   * message is taken as a new subscription's first (mid-block, its block is fetched sealed at its closing;
   * the next opening starts a block afresh), instead of being answered `{ resume }` again.
   */
  rejoin(): void {
    this.chain = this.chain.then(() => {
      this.lastSequence = null
    })
  }

  /** Handles one message (its JSON parsed), after every earlier one. */
  receive(message: unknown): Promise<Outcome> {
    const next = this.chain.then(() => this.handle(message))
    this.chain = next.catch(() => undefined)
    return next
  }

  /** Fetches and imports the sequencer's sealed blocks after this node's head, up to `to`. */
  async catchUp(to: bigint): Promise<number> {
    const batch = BigInt(this.deps.catchUpBatch ?? 32)
    this.knowSequencerHead(to)
    let done = 0
    const total = Number(to - this.deps.head().number)
    if (total > 0) this.tell('catchUpProgress', 0, total)
    for (let head = this.deps.head().number; head < to; head = this.deps.head().number) {
      const last = head + batch < to ? head + batch : to
      const rlps = await this.deps.sealed.blocks(head + 1n, last)
      await this.deps.importBlocks(rlps)
      done += rlps.length
      this.tell('catchUpProgress', done, total)
    }
    if (done > 0) this.tell('caughtUp', done, this.deps.head().number)
    return done
  }

  /**
   * The sequencer is known to have sealed block `n` (a source learned it other than from a message handled,
   * e.g. the newest message a broker keeps, while this node still reads older ones): readiness and
   * eth_syncing count this node behind until its head reaches `n`.
   */
  sequencerSealed(n: bigint): void {
    this.knowSequencerHead(n)
  }

  private knowSequencerHead(n: bigint): void {
    if (n <= this.sequencerHead) return
    this.sequencerHead = n
    const head = this.deps.head().number
    if (n > head) this.fellBehindAt ??= head
  }

  private async handle(raw: unknown): Promise<Outcome> {
    const message = decodeMessage(raw)
    this.knowSequencerHead(message.closing !== undefined ? message.blockNumber : message.blockNumber - 1n)
    const last = this.lastSequence
    if (last !== null && message.sequence <= last) {
      this.tell('handled', 'duplicate')
      return 'duplicate'
    }
    if (last !== null && message.previousSequence !== null && message.previousSequence !== last) {
      this.tell('gap', last + 1, message.sequence)
      this.log.warn({ expected: last + 1, got: message.sequence, previous: message.previousSequence }, 'flashblock stream gap: resuming')
      return { resume: last }
    }
    const outcome = await this.take(message)
    this.lastSequence = message.sequence
    this.tell('handled', outcome)
    return outcome
  }

  private async take(message: DecodedMessage): Promise<'applied' | 'sealed' | 'skipped'> {
    const head = this.deps.head()
    if (message.blockNumber <= head.number) {
      this.open = undefined
      return 'skipped'
    }
    if (message.index === 0) {
      if (message.blockNumber > head.number + 1n) await this.catchUp(message.blockNumber - 1n)
      this.open = ReplicaBlock.open(this.deps.rules, this.deps.kv, this.deps.head(), message, this.deps.work)
      this.deps.writer.publish(this.open.snapshot())
      return 'applied'
    }
    const open = this.open
    const inStep = open !== undefined && open.number === message.blockNumber && open.payloadId === message.payloadId && open.index + 1 === message.index
    if (message.closing !== undefined) {
      this.open = undefined
      if (inStep) {
        try {
          const executed = await open.seal(message)
          this.deps.commit(executed)
          this.deps.writer.sealed({ header: decodeHeader(this.deps.rules, executed.stored.headerRlp), executed, last: open.snapshot() })
          return 'sealed'
        } catch (err) {
          if (!(err instanceof SealMismatch)) throw err
          this.tell('sealMismatch', err)
          this.log.error({ block: Number(err.blockNumber), field: err.field, expected: err.expected, got: err.got }, 'sealed block does not match the stream: refetching it')
        }
      }
      // Not built here (joined mid-block, a missed message, or a mismatch): the sealed block from the sequencer.
      await this.catchUp(message.blockNumber)
      return 'sealed'
    }
    if (!inStep) return 'skipped'
    try {
      this.deps.writer.publish(open.apply(message))
    } catch (err) {
      if (!(err instanceof ReplicaOutOfStep)) throw err
      this.log.warn(errorFields(err), 'flashblock does not fit the open block: the block will be fetched sealed')
      this.open = undefined
      return 'skipped'
    }
    return 'applied'
  }
}
