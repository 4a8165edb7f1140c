/**
 * The pre-confirmation feed: where pre-confirmed state is published and where every reader finds it.
 *
 * Readers see a PreconfirmedFeed: the newest snapshot (taken once per request, so a request never mixes two
 * flashblocks), a reader of a snapshot's state, and two events: `flashblock` (a new snapshot is the newest)
 * and `sealed` (the open block was sealed and committed; the next block's first snapshot follows).
 * Producers write through a PreconfirmedWriter and nothing else: the sequencer (it executes transactions
 * into flashblocks) and, later, a follower (it applies a sequencer's stream instead of executing). A reader
 * never learns which producer is behind the feed.
 *
 * Invariants (the producer's promise, which the feed passes on): a snapshot is published only once its
 * flashblock is durable (journaled); the newest snapshot is never older than the newest sealed block once a
 * block's first snapshot follows its seal; published snapshots never change. Listeners run synchronously, in
 * the order they subscribed (an EventEmitter's), while the snapshot they hear of is the newest; a listener
 * that throws stops the rest and reaches the producer.
 */

import { EventEmitter } from 'node:events'
import type { BlockHeader } from '@ethereumjs/block'
import type { ExecutedBlock } from '../execution/block-runner.ts'
import type { KvStore } from '../storage/db.ts'
import type { StateReader } from '../state/state-reader.ts'
import type { PreconfirmedSnapshot } from './snapshot.ts'
import { snapshotReader } from './state.ts'
import { registerGauge } from '../primitives/memory-gauges.ts'

/** A block the producer sealed and committed (the head has moved to it). */
export interface SealedBlock {
  readonly header: BlockHeader
  /** What was committed: the stored block (its receipts among it), its state diff and root. */
  readonly executed: ExecutedBlock
  /** The block's last snapshot before the seal. */
  readonly last: PreconfirmedSnapshot
}

export interface FeedEvents {
  flashblock: [snapshot: PreconfirmedSnapshot]
  sealed: [block: SealedBlock]
}

export type FeedListener<K extends keyof FeedEvents> = (...args: FeedEvents[K]) => void

/** What a read of `pending` needs: the newest snapshot (none before the producer's first) and its state. */
export interface PendingSource {
  snapshot(): PreconfirmedSnapshot | undefined
  state(snapshot: PreconfirmedSnapshot): StateReader
}

/** The feed's events, listened to as an EventEmitter's. */
export interface FeedEventSource {
  on<K extends keyof FeedEvents>(event: K, listener: FeedListener<K>): unknown
  off<K extends keyof FeedEvents>(event: K, listener: FeedListener<K>): unknown
  listenerCount(event: keyof FeedEvents): number
}

/** The readers' side: pending state and its events. */
export interface PreconfirmedFeed extends PendingSource, FeedEventSource {}

/** The producers' side. */
export interface PreconfirmedWriter {
  /** `snapshot` (its flashblock already durable) becomes the newest; listeners hear of it. */
  publish(snapshot: PreconfirmedSnapshot): void
  /** The open block is sealed and committed; listeners hear of it (the next block's snapshot comes next). */
  sealed(block: SealedBlock): void
}

/** The feed of one node: a reader over its database, written by its one producer. */
export class PreconfirmedStore extends EventEmitter<FeedEvents> implements PreconfirmedFeed, PreconfirmedWriter {
  private current: PreconfirmedSnapshot | undefined

  constructor(private readonly kv: KvStore) {
    super()
    // a listener added per request and never removed would show here first
    registerGauge('feed listeners', this, (f) => ({ entries: f.listenerCount('flashblock') + f.listenerCount('sealed') }))
  }

  snapshot(): PreconfirmedSnapshot | undefined {
    return this.current
  }

  state(snapshot: PreconfirmedSnapshot): StateReader {
    return snapshotReader(this.kv, snapshot)
  }

  publish(snapshot: PreconfirmedSnapshot): void {
    this.current = snapshot
    this.emit('flashblock', snapshot)
  }

  sealed(block: SealedBlock): void {
    this.emit('sealed', block)
  }
}
