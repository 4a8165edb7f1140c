/**
 * What the live view (GET / in a browser) and `GET /status` show that no subscription carries: the recent
 * flashblocks with their build times, the recent sealed blocks with their seal times, the pool's levels, the
 * stream's subscribers, and each recent transaction's pre-confirmation latency as the node measures it.
 *
 * Pre-confirmation latency, here: from the pool admitting the transaction (signature recovered, checks
 * passed, stored; the pool's `added` event) to the publication of the flashblock that includes it (the
 * feed's `flashblock` event), on the sequencer's clock (ms; injected in tests). A transaction admitted queued
 * (behind a nonce gap) counts its wait for the gap too; one restored from disk at a restart counts from the
 * restore. Network time to and from the client is not in it.
 *
 * A reader of the feed and the pool's events, and a SequencerObserver for the build and seal times; it keeps
 * bounded lists only (the admission times live until their transaction is included or dropped, and never
 * more than MAX_WAITING of them). Nothing here is on a read request's path: `status()` is built when asked.
 */

import { bytesToHex } from '../primitives/hex.ts'
import type { PreconfirmedFeed, SealedBlock } from '../preconf/feed.ts'
import type { PreconfirmedSnapshot } from '../preconf/snapshot.ts'
import type { SequencerObserver } from '../sequencer/sequencer.ts'
import type { TxPool } from '../txpool/pool.ts'
import { registerGauge } from '../primitives/memory-gauges.ts'

export const RECENT_FLASHBLOCKS = 60
export const RECENT_SEALED = 12
export const RECENT_LATENCIES = 200
/** Admission times kept at most (the pool's own limits keep far fewer in practice). */
export const MAX_WAITING = 100_000

export const LATENCY_DEFINITION =
  'pool admission to the publication of the including flashblock, on the node clock (network time not included)'

export interface FlashblockSummary {
  readonly block: number
  readonly index: number
  /** Transactions this flashblock added. */
  readonly transactions: number
  /** Gas used by those transactions. */
  readonly gasUsed: number
  /** From asking the pool to publication (a single node's journal write, a group leader's acknowledgement included), ms; null for a block's opening. */
  buildMs: number | null
  /** When it was published (node clock, ms). */
  readonly at: number
}

export interface SealedSummary {
  readonly number: number
  readonly hash: string
  readonly transactions: number
  readonly gasUsed: number
  readonly flashblocks: number
  /** Its flashblocks' build times, summed (ms). */
  readonly buildMs: number
  readonly sealMs: number
  readonly at: number
}

export interface LatencySample {
  readonly hash: string
  readonly block: number
  readonly index: number
  readonly ms: number
}

export interface LiveStatusView {
  readonly time: number
  readonly flashblocks: readonly FlashblockSummary[]
  readonly sealed: readonly SealedSummary[]
  readonly latency: { readonly definition: string; readonly recent: readonly LatencySample[] }
}

const ms = (seconds: number): number => Math.round(seconds * 10_000) / 10

export class LiveStatus implements SequencerObserver {
  private readonly flashblocks: FlashblockSummary[] = []
  private readonly sealedBlocks: SealedSummary[] = []
  private readonly latencies: LatencySample[] = []
  /** Transaction hash (0x-hex) -> when the pool admitted it. */
  private readonly waiting = new Map<string, number>()
  private buildSeconds = 0
  private sealSeconds = 0
  private lastGas = 0n
  private lastBlock = -1

  constructor(
    feed: PreconfirmedFeed,
    /** Absent on a follower: it admits nothing, so it records no admission-to-flashblock latency. */
    pool: TxPool | undefined,
    private readonly now: () => number,
  ) {
    registerGauge('live-view admissions waiting', this.waiting, (w) => ({ entries: w.size, maxEntries: MAX_WAITING }))
    feed.on('flashblock', (snapshot) => this.flashblock(snapshot))
    feed.on('sealed', (block) => this.sealedBlock(block))
    pool?.events.on('added', (tx) => this.admitted(tx.hashHex))
    pool?.events.on('dropped', (hash, reason) => {
      // Inclusion is announced before the flashblock that includes it: its time is taken then.
      if (reason !== 'included') this.waiting.delete(hash)
    })
  }

  // --- SequencerObserver: the build time arrives just after its flashblock's publication ---

  flashblockBuilt(seconds: number): void {
    this.buildSeconds += seconds
    const newest = this.flashblocks.at(-1)
    if (newest !== undefined && newest.buildMs === null) newest.buildMs = ms(seconds)
  }

  journalWritten(): void {}

  sealed(seconds: number): void {
    this.sealSeconds = seconds
  }

  tickSkipped(): void {}

  status(): LiveStatusView {
    return {
      time: this.now(),
      flashblocks: this.flashblocks.map((f) => ({ ...f })),
      sealed: [...this.sealedBlocks],
      latency: { definition: LATENCY_DEFINITION, recent: [...this.latencies] },
    }
  }

  private admitted(hash: string): void {
    if (this.waiting.size >= MAX_WAITING) this.waiting.delete(this.waiting.keys().next().value!)
    this.waiting.set(hash, this.now())
  }

  private flashblock(s: PreconfirmedSnapshot): void {
    const at = this.now()
    const block = Number(s.header.number)
    if (block !== this.lastBlock) {
      this.lastBlock = block
      this.lastGas = 0n
    }
    push(this.flashblocks, RECENT_FLASHBLOCKS, {
      block,
      index: s.index,
      transactions: s.transactions.length - s.firstNew,
      gasUsed: Number(s.gasUsed - this.lastGas),
      buildMs: null,
      at,
    })
    this.lastGas = s.gasUsed
    for (let i = s.firstNew; i < s.transactions.length; i++) {
      const hash = bytesToHex(s.transactions[i]!.hash)
      const admittedAt = this.waiting.get(hash)
      if (admittedAt === undefined) continue
      this.waiting.delete(hash)
      push(this.latencies, RECENT_LATENCIES, { hash, block, index: s.index, ms: Math.max(0, at - admittedAt) })
    }
  }

  private sealedBlock(b: SealedBlock): void {
    push(this.sealedBlocks, RECENT_SEALED, {
      number: Number(b.header.number),
      hash: bytesToHex(b.header.hash()),
      transactions: b.last.transactions.length,
      gasUsed: Number(b.header.gasUsed),
      flashblocks: b.last.index,
      buildMs: ms(this.buildSeconds),
      sealMs: ms(this.sealSeconds),
      at: this.now(),
    })
    this.buildSeconds = 0
  }
}

function push<T>(list: T[], max: number, item: T): void {
  list.push(item)
  if (list.length > max) list.splice(0, list.length - max)
}
