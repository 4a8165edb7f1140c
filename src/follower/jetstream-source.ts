/**
 * A follower's second message source (beside stream-client.ts, with the same contract towards the Follower):
 * the sequencer's stream read from NATS JetStream (`--stream nats://HOST:PORT` with `--follow URL`;
 * docs/scaling.md). Messages go to the follower in stream order, one at a time.
 *
 * - Where to start. JetStream numbers messages its own way; the headers carry the message's sequence and
 *   block number (stream/jetstream-layout.ts), and both grow with JetStream's sequence, so the start is
 *   found by a binary search over the stream (about log2(messages kept) direct reads): after the last
 *   sequence the follower handled, or, when it has handled none (a started or restarted process), at the
 *   first message of the first block after this node's newest sealed block: the block's opening if the
 *   broker still keeps it, so a restarted follower rebuilds the open block from the broker instead of
 *   waiting for the next one. Nothing kept that is newer: from the next message published. The newest
 *   message kept tells the follower how far the sequencer is (the block before it is sealed), so a
 *   follower reading a backlog is behind, and not ready, until it has read it.
 * - Reading: an ordered consumer (ephemeral, no acknowledgements; the client recreates it after the last
 *   message delivered when the connection or the consumer is lost, so a reconnect loses nothing), pulling at
 *   most `maxPulled` messages ahead of the follower: the queue between the broker and the state is bounded,
 *   and a follower that falls behind leaves the backlog on the broker, not in its memory.
 * - A hole (`{ resume }`: a message the sequencer dropped from the broker path, which the broker therefore
 *   never had): the missing span is read from the sequencer's own WebSocket stream, which keeps recent
 *   messages (stream-range.ts), then reading goes on from the broker. When the sequencer no longer has the
 *   span either, the follower rejoins (Follower.rejoin): the block is fetched sealed at its closing and the
 *   next opening starts afresh.
 * - Anything else that ends the reading (the stream not created yet, the consumer lost for good, a message
 *   the follower could not take) starts it again after a back-off, from the follower's last sequence.
 */

import { DeliverPolicy, jetstream, jetstreamManager, JetStreamApiCodes, JetStreamApiError, type ConsumerMessages, type JetStreamManager, type JsMsg } from '@nats-io/jetstream'
import type { NatsConnection } from '@nats-io/transport-node'
import { errorFields, type Logger, SILENT_LOGGER } from '../primitives/logger.ts'
import { BrokerConnection } from '../stream/broker-connection.ts'
import { HEADER, streamName } from '../stream/jetstream-layout.ts'
import { storedJson } from '../stream/stored-payload.ts'
import type { Follower } from './follower.ts'
import { readStreamRange, type StreamRange } from './stream-range.ts'

export interface JetStreamSourceOptions {
  /** nats://host:port */
  readonly url: string
  readonly chainId: bigint
  /** This node's newest sealed block number. */
  readonly head: () => bigint
  /** Reads a span of the sequencer's WebSocket stream (a hole the broker path left); stream-range.ts. */
  readonly fill: (after: number, before: number) => Promise<StreamRange>
  /** Messages pulled ahead of the follower. */
  readonly maxPulled?: number
  readonly retryMs?: { readonly min: number; readonly max: number }
  readonly log?: Logger
}

/** How long one pull waits for messages, and the server's heartbeat within it (ms). */
const PULL_EXPIRES_MS = 5_000
const PULL_HEARTBEAT_MS = 1_000

export const DEFAULT_JETSTREAM_SOURCE = { maxPulled: 64, retryMs: { min: 100, max: 5_000 } } as const

/** The sequencer's stream as `fill` reads it (ws://…/flashblocks). */
export function sequencerFill(streamUrl: string): (after: number, before: number) => Promise<StreamRange> {
  return (after, before) => readStreamRange(streamUrl, after, before, { timeoutMs: 5_000, max: 10_000 })
}

export class JetStreamSource {
  private readonly connection: BrokerConnection
  private readonly log: Logger
  private readonly retryMs: { readonly min: number; readonly max: number }
  private retry: number
  private stopped = true
  private messages: ConsumerMessages | undefined
  private running: Promise<void> | undefined
  private wake: (() => void) | undefined
  /** The broker was found without the stream, and the log told so (once until it is found). */
  private toldAbsent = false
  /** Holes filled from the sequencer's stream, and those it could not fill (the follower rejoined). */
  readonly holes = { filled: 0, rejoined: 0 }

  constructor(
    private readonly options: JetStreamSourceOptions,
    private readonly follower: Follower,
  ) {
    this.log = options.log ?? SILENT_LOGGER
    this.retryMs = options.retryMs ?? DEFAULT_JETSTREAM_SOURCE.retryMs
    this.retry = this.retryMs.min
    this.connection = new BrokerConnection({ url: options.url, name: `flashnode follower ${options.chainId}`, retryMs: this.retryMs.max, log: this.log })
  }

  get connected(): boolean {
    return this.connection.isUp
  }

  start(): void {
    if (!this.stopped) return
    this.stopped = false
    this.connection.start()
    this.running = this.run()
  }

  async stop(): Promise<void> {
    this.stopped = true
    this.wake?.()
    await this.messages?.close().catch(() => undefined)
    await this.connection.close()
    await this.running
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      await Promise.race([this.connection.whenUp(), new Promise<void>((resolve) => (this.wake = resolve))])
      this.wake = undefined
      const nc = this.connection.connection
      if (this.stopped || nc === undefined) continue
      try {
        await this.read(nc)
      } catch (err) {
        if (this.stopped) continue
        // A stream no sequencer has published to yet (a new chain, a group's first leader still taking over)
        // is waited for, told once rather than at every attempt.
        const absent = err instanceof JetStreamApiError && err.code === JetStreamApiCodes.StreamNotFound
        if (!absent) this.log.warn({ url: this.options.url, ...errorFields(err) }, 'flashblock stream (JetStream): reading stopped; starting again')
        else if (!this.toldAbsent) this.log.info({ url: this.options.url, stream: streamName(this.options.chainId) }, 'flashblock stream (JetStream): no such stream on the broker yet; waiting for its sequencer')
        this.toldAbsent = absent
      } finally {
        this.messages = undefined
      }
      await this.pause()
    }
  }

  /** One ordered consumer, from the follower's position, until it ends. */
  private async read(nc: NatsConnection): Promise<void> {
    const jsm = await jetstreamManager(nc)
    const stream = streamName(this.options.chainId)
    const start = await this.startAt(jsm, stream)
    const consumer = await jetstream(nc).consumers.get(stream, { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: start })
    // Short pulls with heartbeats: a consumer whose server died (a cluster member killed) is noticed after two
    // missed heartbeats and recreated on another server, instead of waiting out the default 30 s pull.
    const messages = await consumer.consume({ max_messages: this.options.maxPulled ?? DEFAULT_JETSTREAM_SOURCE.maxPulled, expires: PULL_EXPIRES_MS, idle_heartbeat: PULL_HEARTBEAT_MS })
    this.messages = messages
    if (this.stopped) return void (await messages.close())
    this.log.info({ stream, from: start, after: this.follower.sequence ?? 'none' }, 'flashblock stream: reading from JetStream')
    for await (const msg of messages) {
      if (this.stopped) break
      this.retry = this.retryMs.min
      await this.take(msg)
    }
  }

  /** Hands one message to the follower, filling a hole before it first. */
  private async take(msg: JsMsg): Promise<void> {
    let message: unknown
    try {
      message = JSON.parse(new TextDecoder().decode(storedJson(msg.data, msg.headers?.get(HEADER.encoding))))
    } catch (err) {
      // Not JSON (or in an encoding not read here): skipped; the next message shows the hole, filled from the sequencer's stream.
      this.log.error({ seq: msg.seq, ...errorFields(err) }, 'flashblock stream (JetStream): a message that is not JSON; skipped')
      return
    }
    const outcome = await this.follower.receive(message)
    if (typeof outcome !== 'object') return
    const sequence = Number(msg.headers?.get(HEADER.sequence))
    const filled = await this.fill(outcome.resume, sequence)
    const again = await this.follower.receive(message)
    if (typeof again !== 'object') {
      if (filled) this.holes.filled++
      return
    }
    this.holes.rejoined++
    this.follower.rejoin()
    await this.follower.receive(message)
  }

  /** The messages between `after` and `before` from the sequencer's stream, handed to the follower. */
  private async fill(after: number, before: number): Promise<boolean> {
    const range = Number.isSafeInteger(before) ? await this.options.fill(after, before) : { missing: 'a message without its sequence header' }
    if ('missing' in range) {
      this.log.warn({ after, before, why: range.missing }, 'flashblock stream (JetStream): messages missing from the broker and not to be had from the sequencer; rejoining at the next block')
      return false
    }
    this.log.info({ after, before, messages: range.messages.length }, 'flashblock stream (JetStream): messages missing from the broker read from the sequencer')
    for (const message of range.messages) {
      if (typeof (await this.follower.receive(message)) === 'object') return false
    }
    return true
  }

  /** JetStream's sequence of the first message to read (see the top comment). */
  private async startAt(jsm: JetStreamManager, stream: string): Promise<number> {
    const { state } = await jsm.streams.info(stream)
    const after = this.follower.sequence
    const head = after === null ? this.options.head() : 0n
    const wanted = (headers: { get(k: string): string } | undefined): boolean => {
      if (headers === undefined) return false
      if (after !== null) return Number(headers.get(HEADER.sequence)) > after
      const block = headers.get(HEADER.block)
      return block !== '' && BigInt(block) > head
    }
    let low = state.first_seq
    let high = state.last_seq + 1
    if (state.messages === 0) return high
    // The broker's newest message is the sequencer's present: until this node reads that far it is behind
    // (not ready), however fresh the older messages it is reading seem.
    const newest = (await jsm.streams.getMessage(stream, { seq: state.last_seq }).catch(() => null))?.header?.get(HEADER.block)
    if (newest !== undefined && /^[0-9]+$/.test(newest)) this.follower.sequencerSealed(BigInt(newest) - 1n)
    // The first seq in [low, high) that is wanted (high when none is): both keys grow with JetStream's sequence.
    while (low < high) {
      const mid = Math.floor((low + high) / 2)
      const stored = await jsm.streams.getMessage(stream, { seq: mid }).catch(() => null)
      // A message gone meanwhile (aged out from the front) is older than anything wanted.
      if (stored !== null && wanted(stored.header)) high = mid
      else low = mid + 1
    }
    return low
  }

  private async pause(): Promise<void> {
    if (this.stopped) return
    const wait = this.retry
    this.retry = Math.min(this.retryMs.max, this.retry * 2)
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, wait)
      timer.unref()
      this.wake = () => {
        clearTimeout(timer)
        resolve()
      }
    })
    this.wake = undefined
  }
}
