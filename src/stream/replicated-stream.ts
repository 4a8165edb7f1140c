/**
 * A sequencer group leader's announcement gate (issue 40, "replicated before announced"; the port is
 * sequencer/announcement-gate.ts, which this class fits without importing it): each flashblock's and each
 * seal's message is built first (the stream publisher's builder and numbering, publisher.ts `prepare…`),
 * stored in the chain's replicated JetStream stream (`FLASHNODE_<chainId>`, created with `replicas` when the
 * broker has none) by a fenced publish (fenced-publisher.ts: the expected last sequence is the last one this
 * leader had acknowledged, the message id is `<term>:<metadata.sequence>`, headers Flashnode-Term,
 * Flashnode-Sequence, Flashnode-Block; the JSON Brotli-compressed, stored-payload.ts), and only once
 * acknowledged does the gate resolve, after which the sequencer announces and the publisher delivers that very
 * message to its subscribers.
 *
 * Refusals, all final for this gate (every later call rejects with the same error):
 * - `FencedOut`: the stream moved on without this leader (another leader wrote): step down.
 * - `BrokerUnavailable`: no acknowledgement within `unavailableAfterMs` (no quorum, no answer), the same
 *   message being published again, same id and same expectation, after each attempt that timed out (an
 *   attempt is bounded by `ackTimeoutMs`; so the refusal comes within `unavailableAfterMs + ackTimeoutMs`).
 *   The leader stops pre-confirming rather than promise what it cannot keep; the message may still be
 *   stored later, which is why a new leader continues from what the stream holds, never from a journal.
 * - anything else the publisher or the broker throws (a message that does not follow, a misconfigured stream).
 *
 * A taking-over leader calls `continueFrom` (the stream's tail, stream-tail.ts) before its sequencer starts:
 * the first expectation is the tail's stream sequence, the numbering and the open block go on from there.
 * On a stream that held messages at `open`, a first message without `continueFrom` is refused.
 *
 * Given the cluster's servers, it publishes through a connection of its own to the stream leader's server
 * (stream-leader-route.ts: one hop less each way), found in the background after `open`, dropped for the
 * caller's connection as soon as an attempt on it gets no answer; `close` closes it. Apart from that one it
 * owns no connection, no lease and no journal; it never announces anything and never publishes twice what
 * was acknowledged; one message is in flight at a time (the sequencer awaits each).
 */

import type { NatsConnection } from '@nats-io/transport-node'
import type { SealedBlock } from '../preconf/feed.ts'
import type { PreconfirmedSnapshot } from '../preconf/snapshot.ts'
import { BrokerUnavailable } from './coordination-errors.ts'
import { DEFAULT_FENCED_ACK_TIMEOUT_MS, ensureStream, FencedPublisher } from './fenced-publisher.ts'
import { HEADER, streamConfig, streamName, subjectOf } from './jetstream-layout.ts'
import type { FlashblockPublisher, PublishedMessage, StreamContinuation } from './publisher.ts'
import { connectToStreamLeader } from './stream-leader-route.ts'
import { BROTLI_ENCODING, compressForStream } from './stored-payload.ts'

export interface ReplicatedStreamOptions {
  readonly chainId: bigint
  /** The leader's term (leader-lease.ts): on every message, in every message id. */
  readonly term: number
  /** The node's stream publisher: its builder makes the messages, its subscribers get them once acknowledged. */
  readonly publisher: FlashblockPublisher
  /** Replicas of the stream when the gate creates it (3 in a group; 1 for a single test broker). */
  readonly replicas?: number
  /** The bound on one publish attempt's acknowledgement (and on reading the stream's last sequence). */
  readonly ackTimeoutMs?: number
  /** The bound on creating the stream at `open` (a replicated stream's creation takes a cluster round). */
  readonly createTimeoutMs?: number
  /** How long a message is tried before it is refused as BrokerUnavailable. */
  readonly unavailableAfterMs?: number
  /** The pause between attempts (a refusal without waiting, e.g. no responders, is not retried in a loop). */
  readonly retryPauseMs?: number
  /**
   * The cluster's servers (host:port): when given, the gate looks, in the background, for the one that leads
   * the stream, and publishes through a connection of its own to it (stream-leader-route.ts) while that
   * connection lasts; the caller's connection otherwise.
   */
  readonly servers?: readonly string[]
}

export const DEFAULT_REPLICATED_STREAM = { replicas: 3, ackTimeoutMs: DEFAULT_FENCED_ACK_TIMEOUT_MS, unavailableAfterMs: 1_500, retryPauseMs: 50, createTimeoutMs: 10_000 } as const

/** Where a taking-over leader continues: the publisher's continuation and the tail's JetStream sequence. */
export interface ReplicatedContinuation extends StreamContinuation {
  /** JetStream's sequence of the stream's last message, as the tail was read (stream-tail.ts). */
  readonly streamSequence: number
}

export class ReplicatedStream {
  private last: number
  private continued: boolean
  private failure: unknown = undefined
  private failed = false
  private readonly unavailableAfterMs: number
  private readonly retryPauseMs: number

  /** The publisher on a connection to the stream leader's own server, while it is open (stream-leader-route.ts). */
  private direct: { readonly nc: NatsConnection; readonly fenced: FencedPublisher } | undefined
  private closed = false

  private constructor(
    private readonly fenced: FencedPublisher,
    private readonly publisher: FlashblockPublisher,
    streamLast: number,
    private readonly options: ReplicatedStreamOptions,
  ) {
    this.last = streamLast
    this.continued = streamLast === 0
    this.unavailableAfterMs = options.unavailableAfterMs ?? DEFAULT_REPLICATED_STREAM.unavailableAfterMs
    this.retryPauseMs = options.retryPauseMs ?? DEFAULT_REPLICATED_STREAM.retryPauseMs
  }

  /**
   * Ensures the stream (with `replicas`) and reads its last sequence. Throws BrokerUnavailable. With
   * `servers`, the route to the stream's leader is looked for afterwards, without holding the caller up.
   */
  static async open(nc: NatsConnection, options: ReplicatedStreamOptions): Promise<ReplicatedStream> {
    const replicas = options.replicas ?? DEFAULT_REPLICATED_STREAM.replicas
    await ensureStream(nc, streamConfig(options.chainId, replicas), options.createTimeoutMs ?? DEFAULT_REPLICATED_STREAM.createTimeoutMs)
    const fenced = ReplicatedStream.fencedOn(nc, options)
    const gate = new ReplicatedStream(fenced, options.publisher, await fenced.lastSequence(), options)
    if (options.servers !== undefined) void gate.routeToLeader(nc, options.servers)
    return gate
  }

  private static fencedOn(nc: NatsConnection, options: ReplicatedStreamOptions): FencedPublisher {
    const ackTimeoutMs = options.ackTimeoutMs ?? DEFAULT_REPLICATED_STREAM.ackTimeoutMs
    return new FencedPublisher(nc, { stream: streamName(options.chainId), subject: subjectOf(options.chainId), term: options.term, ackTimeoutMs })
  }

  private async routeToLeader(nc: NatsConnection, servers: readonly string[]): Promise<void> {
    const direct = await connectToStreamLeader(nc, servers, streamName(this.options.chainId), `flashnode leader, term ${this.options.term}`)
    if (direct === undefined) return
    if (this.closed) return void (await direct.close().catch(() => undefined))
    this.direct = { nc: direct, fenced: ReplicatedStream.fencedOn(direct, this.options) }
  }

  /** Whether publishes go through a connection to the stream leader's own server now. */
  get routedToLeader(): boolean {
    return this.direct !== undefined && !this.direct.nc.isClosed()
  }

  /** Closes the connection this gate opened (the caller's stays open); later messages are refused. */
  async close(): Promise<void> {
    this.closed = true
    const direct = this.direct
    this.direct = undefined
    await direct?.nc.close().catch(() => undefined)
  }

  get term(): number {
    return this.fenced.term
  }

  /** JetStream's sequence of the last message this leader had acknowledged (or found at `open` / `continueFrom`). */
  get lastStreamSequence(): number {
    return this.last
  }

  /** Why the gate refuses everything now (undefined while it works). */
  get refusedBy(): unknown {
    return this.failure
  }

  /** Goes on from the stream's tail (stream-tail.ts `continuationOf`), before the sequencer starts. */
  continueFrom(c: ReplicatedContinuation): void {
    this.publisher.continueFrom(c)
    this.last = c.streamSequence
    this.continued = true
  }

  /** AnnouncementGate: resolves once `snapshot`'s message is stored in the replicated stream. */
  flashblock(snapshot: PreconfirmedSnapshot): Promise<void> {
    return this.store(() => this.publisher.prepareFlashblock(snapshot))
  }

  /** AnnouncementGate: the same for the closing message of a block about to be sealed. */
  sealed(block: SealedBlock): Promise<void> {
    return this.store(() => this.publisher.prepareSealed(block))
  }

  private async store(prepare: () => PublishedMessage): Promise<void> {
    if (this.closed && !this.failed) {
      this.failed = true
      this.failure = new BrokerUnavailable('publish', { cause: new Error('the gate was closed') })
    }
    if (this.failed) throw this.failure
    try {
      if (!this.continued) throw new Error(`the replicated stream held messages when the leader of term ${this.fenced.term} opened it: continueFrom its tail before the first message`)
      const message = prepare()
      this.last = await this.publish(message)
    } catch (err) {
      this.failed = true
      this.failure = err
      this.publisher.discardPrepared()
      throw err
    }
  }

  /**
   * Publishes `m` after `this.last`, again after each attempt without an answer, until the bound. An attempt
   * on the route to the stream's leader that gets no answer gives the route up: the same message (same id,
   * same expectation, so stored once whichever way it went) goes again at once on the caller's connection.
   */
  private async publish(m: PublishedMessage): Promise<number> {
    const headers = { [HEADER.sequence]: String(m.sequence), [HEADER.block]: String(m.message.blockNumber), [HEADER.encoding]: BROTLI_ENCODING }
    const data = compressForStream(m.json)
    const until = performance.now() + this.unavailableAfterMs
    for (;;) {
      const direct = this.routedToLeader ? this.direct : undefined
      try {
        return await (direct?.fenced ?? this.fenced).publish(data, { expectedLastSequence: this.last, id: String(m.sequence), headers })
      } catch (err) {
        if (!(err instanceof BrokerUnavailable)) throw err
        if (direct !== undefined) {
          this.dropRoute(direct)
          continue
        }
        if (performance.now() + this.retryPauseMs >= until) throw err
        await new Promise((resolve) => setTimeout(resolve, this.retryPauseMs))
      }
    }
  }

  private dropRoute(route: NonNullable<ReplicatedStream['direct']>): void {
    if (this.direct === route) this.direct = undefined
    void route.nc.close().catch(() => undefined)
  }
}
