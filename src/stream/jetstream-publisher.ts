/**
 * The sequencer's fan-out through NATS JetStream (`--stream nats://HOST:PORT`; docs/scaling.md): every
 * message the flashblock stream publishes (publisher.ts) is also published, as the same JSON bytes, into the
 * chain's JetStream stream (jetstream-layout.ts), where any number of followers read it.
 *
 * The sequencer never waits for the broker:
 * - the stream's listener only hands the bytes to the NATS client (a buffered write) and returns; the
 *   broker's acknowledgement is awaited asynchronously, off the sequencer's path;
 * - at most `maxInFlight` publications wait for their acknowledgement; past that, and whenever the broker is
 *   not connected, a message is dropped from the broker path (never from the WebSocket stream), with a
 *   warning at the start of a run of drops and a count (`stats()`; flashnode_stream_broker_messages_total).
 *   Followers see the hole by sequence (`previous_sequence`) and fetch what they missed.
 * - nothing is retried: a message the broker did not acknowledge in time may or may not be stored, and
 *   `Nats-Msg-Id` (= its sequence) makes the broker keep one copy if the client sends it again after a
 *   reconnect. Publishing in order on one connection keeps the stream in the messages' order.
 *
 * On each (re)connection the stream is created if it does not exist (a broker restarted without its store);
 * one that exists is used as it is configured. A stream whose newest message has a sequence this node has
 * not reached holds another history (a sequencer started on a new data directory, or a second sequencer of
 * the same chain id on the broker): nothing is published into it (an error is logged, the messages are
 * counted as dropped) until its operator deletes or purges it, since its readers find their place by sequence.
 */

import { jetstream, jetstreamManager, JetStreamApiCodes, JetStreamApiError, type JetStreamClient } from '@nats-io/jetstream'
import { headers, type NatsConnection } from '@nats-io/transport-node'
import { errorFields, type Logger, SILENT_LOGGER } from '../primitives/logger.ts'
import { BrokerConnection } from './broker-connection.ts'
import { HEADER, streamConfig, streamName, subjectOf } from './jetstream-layout.ts'
import type { PublishedMessage } from './publisher.ts'

export interface JetStreamPublisherOptions {
  /** nats://host:port */
  readonly url: string
  readonly chainId: bigint
  /** Publications awaiting the broker's acknowledgement, past which messages are dropped. */
  readonly maxInFlight?: number
  /** How long an acknowledgement is awaited. */
  readonly ackTimeoutMs?: number
  readonly retryMs?: number
  readonly log?: Logger
}

export const DEFAULT_JETSTREAM_PUBLISHER = { maxInFlight: 64, ackTimeoutMs: 5_000, retryMs: 500 } as const

export interface BrokerStats {
  /** Messages the broker acknowledged as stored (duplicates not counted). */
  readonly acknowledged: number
  /** Messages never handed to the broker: it was not connected, or too many awaited their acknowledgement. */
  readonly dropped: number
  /** Messages handed to the broker whose acknowledgement failed or did not come in time. */
  readonly failed: number
  readonly inFlight: number
  readonly connected: boolean
}

export class JetStreamPublisher {
  private readonly connection: BrokerConnection
  private js: JetStreamClient | undefined
  private readonly subject: string
  private readonly maxInFlight: number
  private readonly ackTimeoutMs: number
  private readonly log: Logger
  private inFlight = 0
  private acknowledged = 0
  private dropped = 0
  private failed = 0
  /** Drops since the last message the broker took (a run of drops is warned about once). */
  private dropRun = 0
  /** The sequence of the stream's newest message when the connection came up. */
  private brokerLast = 0

  constructor(private readonly options: JetStreamPublisherOptions) {
    this.subject = subjectOf(options.chainId)
    this.maxInFlight = options.maxInFlight ?? DEFAULT_JETSTREAM_PUBLISHER.maxInFlight
    this.ackTimeoutMs = options.ackTimeoutMs ?? DEFAULT_JETSTREAM_PUBLISHER.ackTimeoutMs
    this.log = options.log ?? SILENT_LOGGER
    this.connection = new BrokerConnection({
      url: options.url,
      name: `flashnode sequencer ${options.chainId}`,
      retryMs: options.retryMs ?? DEFAULT_JETSTREAM_PUBLISHER.retryMs,
      log: this.log,
      onUp: async (nc) => {
        await this.ensureStream(nc)
        this.js = jetstream(nc)
        this.log.info({ url: options.url, stream: streamName(options.chainId), subject: this.subject }, 'flashblock stream: publishing to JetStream')
      },
      onDown: () => {
        this.js = undefined
      },
    })
  }

  /** Connects in the background; messages before the connection is up are dropped (and counted). */
  start(): void {
    this.connection.start()
  }

  /** Resolves once connected and the stream is there. */
  whenConnected(): Promise<void> {
    return this.connection.whenUp()
  }

  /** The stream's listener (FlashblockPublisher.onPublished): hands the message over, never waits. */
  readonly publish = (message: PublishedMessage): void => {
    const js = this.connection.isUp ? this.js : undefined
    if (js === undefined) return this.drop(message, 'the broker is not connected')
    if (this.inFlight >= this.maxInFlight) return this.drop(message, `${this.inFlight} messages await the broker's acknowledgement`)
    if (message.sequence <= this.brokerLast) return this.otherHistory(message)
    const h = headers()
    h.set(HEADER.sequence, String(message.sequence))
    h.set(HEADER.block, String(message.message.blockNumber))
    this.inFlight++
    this.dropRun = 0
    js.publish(this.subject, message.json, { msgID: String(message.sequence), headers: h, timeout: this.ackTimeoutMs }).then(
      (ack) => {
        this.inFlight--
        if (!ack.duplicate) this.acknowledged++
      },
      (err: unknown) => {
        this.inFlight--
        this.failed++
        this.log.warn({ sequence: message.sequence, ...errorFields(err) }, 'flashblock stream: the broker did not acknowledge a message')
      },
    )
  }

  stats(): BrokerStats {
    return { acknowledged: this.acknowledged, dropped: this.dropped, failed: this.failed, inFlight: this.inFlight, connected: this.connection.isUp }
  }

  async close(): Promise<void> {
    this.js = undefined
    await this.connection.close()
  }

  private otherHistory(message: PublishedMessage): void {
    this.dropped++
    if (this.dropRun++ === 0) {
      const name = streamName(this.options.chainId)
      this.log.error(
        { stream: name, newest: this.brokerLast, sequence: message.sequence },
        `flashblock stream: the broker's stream holds another history (newer sequences than this sequencer's): nothing published there until it is deleted or purged (nats stream purge ${name})`,
      )
    }
  }

  private drop(message: PublishedMessage, why: string): void {
    this.dropped++
    if (this.dropRun++ === 0) this.log.warn({ sequence: message.sequence, why }, 'flashblock stream: dropping messages from the broker path (followers fetch them from the sequencer)')
  }

  /** Creates the chain's stream when the broker has none; leaves one that exists as it is. */
  private async ensureStream(nc: NatsConnection): Promise<void> {
    const jsm = await jetstreamManager(nc)
    const name = streamName(this.options.chainId)
    try {
      const info = await jsm.streams.info(name)
      if (!info.config.subjects?.includes(this.subject)) throw new Error(`the broker's stream ${name} does not hold the subject ${this.subject}`)
      const newest = info.state.messages === 0 ? null : await jsm.streams.getMessage(name, { last_by_subj: this.subject })
      this.brokerLast = Number(newest?.header.get(HEADER.sequence) || 0)
    } catch (err) {
      if (!(err instanceof JetStreamApiError) || err.code !== JetStreamApiCodes.StreamNotFound) throw err
      await jsm.streams.add(streamConfig(this.options.chainId))
      this.brokerLast = 0
      this.log.info({ stream: name }, 'flashblock stream: created the JetStream stream')
    }
  }
}
