/**
 * The flashblock stream's publisher: a reader of the pre-confirmation feed that turns its events into
 * messages (message-builder.ts), keeps the recent ones, and delivers them to subscribers (sinks; the
 * WebSocket side lives in rpc/transport/flashblocks-ws.ts).
 *
 * Invariants:
 * - The producer never waits for a subscriber: a feed event is only queued (the listener does no other
 *   work); messages are built (as their JSON bytes, written directly: message-text.ts) and handed to every
 *   socket in a microtask once the producer's synchronous step has returned (before the event loop takes up
 *   other I/O: publication is not queued behind incoming requests), no send awaited. Each message's JSON bytes are written once (no object tree, no string),
 *   and compressed with Brotli at most once, whatever the number of subscribers. A live message is handed
 *   to the JSON subscribers first, then compressed on this thread (about 1 ms for 70 kB at quality 4: the
 *   thread pool's queue, shared with the database and the file system, made the wait for it unbounded)
 *   for the Brotli subscribers; older kept messages that a resuming Brotli subscriber needs are compressed
 *   on the thread pool, so a catch-up never holds the event loop.
 * - It publishes only what the feed announced, in the feed's order; the feed announces a flashblock only once
 *   it is journaled, so no message precedes its flashblock's durability.
 * - Kept: the open block's messages and those of the last `historyBlocks` sealed blocks. A new subscriber
 *   gets the open block's messages so far, then live ones; one that resumes after a sequence gets every kept
 *   message after it, or is closed (CLOSE.tooOld / CLOSE.ahead) when that point is not kept.
 * - Each subscriber is sent every message in order, each once. One whose unsent bytes pass `maxQueuedBytes`
 *   is closed (CLOSE.tooSlow) and dropped: memory per subscriber stays bounded.
 * - A sequencer group's leader (replicated-stream.ts) has each message built BEFORE its announcement
 *   (`prepareFlashblock` / `prepareSealed`, the same builder and numbering), stores it in the replicated
 *   stream, and the feed's event, when it comes, delivers that very message; one prepared message at a time,
 *   and only for the event it was prepared for. At a takeover (`continueFrom`) the numbering continues the
 *   replicated stream's, the open block's messages already there are kept as they are, and the snapshots
 *   the sequencer resumes for them are adopted (no message built). Without these calls nothing changes.
 */

import { promisify } from 'node:util'
import { brotliCompress as brotliCompressCb, brotliCompressSync, constants as zlib, type BrotliOptions } from 'node:zlib'
import type { FeedEventSource, FeedListener, SealedBlock } from '../preconf/feed.ts'
import type { PreconfirmedSnapshot } from '../preconf/snapshot.ts'
import { failpoint } from '../primitives/failpoints.ts'
import { errorFields, type Logger, SILENT_LOGGER } from '../primitives/logger.ts'
import type { KvStore } from '../storage/db.ts'
import type { Hex } from '../primitives/hex.ts'
import { MessageBuilder, type StreamMessage } from './message-builder.ts'
import type { FlashblocksPayloadV1 } from './payload.ts'
import { SequenceNumbers } from './sequence.ts'
import { registerGauge } from '../primitives/memory-gauges.ts'

const brotliCompress = promisify(brotliCompressCb)

/** WebSocket close codes of the stream (4000-4999: private use). docs/stream.md lists them. */
export const CLOSE = {
  /** The resume point is older than what the node keeps. */
  tooOld: 4000,
  /** The resume point was never published by this node. */
  ahead: 4001,
  /** The subscriber did not read fast enough. */
  tooSlow: 4008,
  /** The node is shutting down. */
  goingAway: 1001,
  /** The stream stopped on an internal error. */
  internal: 1011,
} as const

export interface StreamSettings {
  /** Sealed blocks whose messages are kept for resuming, besides the open block's. */
  readonly historyBlocks: number
  /** Unsent bytes of one subscriber past which it is cut. */
  readonly maxQueuedBytes: number
  /** Brotli quality (0-11). */
  readonly brotliQuality: number
}

export const DEFAULT_STREAM_SETTINGS: StreamSettings = { historyBlocks: 10, maxQueuedBytes: 16 * 1024 * 1024, brotliQuality: 4 }

/** A subscriber's connection. */
export interface StreamSink {
  /** Brotli-compressed binary messages instead of JSON text. */
  readonly compressed: boolean
  /** `data` is UTF-8 JSON (a text message) or, with `binary`, Brotli (a binary message). */
  send(data: Buffer, binary: boolean): void
  /** Bytes given to `send` that are not yet written out. */
  queuedBytes(): number
  close(code: number, reason: string): void
}

/** What a kept message remembers of its StreamMessage besides the bytes. */
export type KeptMessage = Pick<StreamMessage, 'sequence' | 'blockNumber' | 'closing'>

/**
 * A kept message: its JSON as UTF-8 bytes (as the builder wrote them: every subscriber is sent the same
 * buffer), and its Brotli form once a subscriber asked for it. No object tree of the payload is built or kept
 * (message-text.ts writes the bytes directly): held with the blocks of history, such a tree outlived every
 * young-generation collection only to be copied by each, and a group leader's acknowledgement waits through
 * those pauses.
 */
export class PublishedMessage {
  private brotli: Promise<Buffer> | undefined
  /** The Brotli form once it exists (compressed here or on the thread pool). */
  brotliBytes: Buffer | undefined
  readonly json: Buffer
  readonly message: KeptMessage

  constructor(
    message: KeptMessage,
    /** The message's JSON, UTF-8 (kept as it is: not copied). */
    json: Buffer,
    private readonly quality: number,
    /** When it was serialized (performance.now(), for the bench). */
    readonly publishedAt: number,
  ) {
    this.json = json
    this.message = { sequence: message.sequence, blockNumber: message.blockNumber, closing: message.closing }
  }

  get sequence(): number {
    return this.message.sequence
  }

  /** The Brotli form, compressed on the thread pool when it does not exist yet. */
  compressed(): Promise<Buffer> {
    if (this.brotliBytes !== undefined) return Promise.resolve(this.brotliBytes)
    this.brotli ??= brotliCompress(this.json, this.options()).then((b) => (this.brotliBytes ??= b))
    return this.brotli
  }

  /** The Brotli form, compressed on this thread when it does not exist yet. */
  compressedNow(): Buffer {
    this.brotliBytes ??= brotliCompressSync(this.json, this.options())
    return this.brotliBytes
  }

  private options(): BrotliOptions {
    return { params: { [zlib.BROTLI_PARAM_QUALITY]: this.quality, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT } }
  }
}

/** Without a logger, internal errors still reach the console; warnings go nowhere. */
const CONSOLE_ERRORS: Logger = { ...SILENT_LOGGER, error: (fields, message) => console.error(message, fields) }

type Pending = { kind: 'flashblock'; snapshot: PreconfirmedSnapshot } | { kind: 'sealed'; block: SealedBlock }

/** Where a taking-over leader's stream goes on from (replicated-stream.ts reads it from the broker). */
export interface StreamContinuation {
  /** `metadata.sequence` of the replicated stream's last message: the next message follows it. */
  readonly lastSequence: number
  /** The open block the stream's last message belongs to (absent when that message closed its block). */
  readonly open?: {
    readonly number: bigint
    readonly payloadId: Hex
    /** The index of its last message in the stream: the sequencer resumes flashblocks 0..lastIndex. */
    readonly lastIndex: number
    /** Its messages as stored (JSON bytes, index 0 first), kept for this node's own subscribers. */
    readonly messages?: readonly Uint8Array[]
  }
}

/** The feed announced something other than what a continued or prepared message was for. */
export class StreamOutOfStep extends Error {
  override readonly name = 'StreamOutOfStep'
}

interface Subscriber {
  readonly sink: StreamSink
  /** Sequence of the last message sent to it. */
  sent: number
  pumping: boolean
}

export class FlashblockPublisher {
  private readonly builder: MessageBuilder
  private readonly sequences: SequenceNumbers
  /** Kept messages, oldest first. */
  private kept: PublishedMessage[] = []
  /** Index in `kept` of the open block's first message (kept.length when no block is open). */
  private openFrom = 0
  private readonly subscribers = new Set<Subscriber>()
  private readonly queue: Pending[] = []
  private scheduled = false
  private closed = false
  private readonly onFlashblock: FeedListener<'flashblock'>
  private readonly onSealed: FeedListener<'sealed'>
  private readonly listeners = new Set<(m: PublishedMessage) => void>()
  /** Subscribers cut for reading too slowly (or falling behind what is kept), since the start. */
  private slowCuts = 0
  /** A message built ahead of its announcement (group mode), delivered when the feed announces its event. */
  private prepared: { readonly event: Pending; readonly message: PublishedMessage } | undefined
  /** A taken-over open block: its snapshots up to `lastIndex` are adopted, not published. */
  private adopting: { readonly number: bigint; readonly lastIndex: number } | undefined

  constructor(
    private readonly feed: FeedEventSource,
    kv: KvStore,
    private readonly settings: StreamSettings = DEFAULT_STREAM_SETTINGS,
    private readonly log: Logger = CONSOLE_ERRORS,
  ) {
    this.sequences = new SequenceNumbers(kv)
    this.builder = new MessageBuilder(() => this.sequences.take())
    this.onFlashblock = (snapshot) => this.enqueue({ kind: 'flashblock', snapshot })
    this.onSealed = (block) => this.enqueue({ kind: 'sealed', block })
    feed.on('flashblock', this.onFlashblock)
    feed.on('sealed', this.onSealed)
    // bounded by blocks (the open one and `historyBlocks` sealed ones), not by a count of messages
    registerGauge('stream kept messages', this, (p) => ({ entries: p.kept.length }))
    registerGauge('stream subscribers', this, (p) => ({ entries: p.subscribers.size }))
  }

  /**
   * Builds the message of `snapshot` before the feed announces it (a group leader stores it in the
   * replicated stream first); the feed's event delivers it. Throws StreamOutOfStep when it does not follow.
   */
  prepareFlashblock(snapshot: PreconfirmedSnapshot): PublishedMessage {
    return this.prepare({ kind: 'flashblock', snapshot })
  }

  /** The same for the closing message of a block about to be sealed (`block.last` is its last snapshot). */
  prepareSealed(block: SealedBlock): PublishedMessage {
    return this.prepare({ kind: 'sealed', block })
  }

  /** Forgets the prepared message (it was refused: its event never comes). */
  discardPrepared(): void {
    this.prepared = undefined
  }

  /**
   * Goes on from another leader's stream: the next message follows `c.lastSequence` (the numbering continues
   * there, durably); with an open block, the messages already out are kept (when given) and the snapshots
   * the sequencer resumes up to `c.open.lastIndex` are adopted. Called before the sequencer starts.
   */
  continueFrom(c: StreamContinuation): void {
    this.flush()
    this.prepared = undefined
    this.sequences.continueAfter(c.lastSequence)
    this.builder.continueAfter(c.lastSequence, c.open?.payloadId)
    this.adopting = c.open === undefined ? undefined : { number: c.open.number, lastIndex: c.open.lastIndex }
    this.kept = []
    this.openFrom = 0
    for (const bytes of c.open?.messages ?? []) {
      const json = Buffer.from(bytes)
      const payload = JSON.parse(json.toString('utf8')) as FlashblocksPayloadV1
      const message: KeptMessage = { sequence: payload.metadata.sequence, blockNumber: BigInt(payload.metadata.block_number), closing: false }
      this.kept.push(new PublishedMessage(message, json, this.settings.brotliQuality, performance.now()))
    }
    const last = this.kept.at(-1)?.sequence
    if (last !== undefined && (last !== c.lastSequence || this.kept.some((m, i) => m.sequence !== last - this.kept.length + 1 + i))) {
      this.kept = []
      throw new StreamOutOfStep(`the kept messages do not end at sequence ${c.lastSequence} in consecutive numbers`)
    }
  }

  /** Subscribers connected now. */
  subscriberCount(): number {
    return this.subscribers.size
  }

  /** Subscribers disconnected so far for reading too slowly (CLOSE.tooSlow), for the metrics. */
  slowDisconnects(): number {
    return this.slowCuts
  }

  /** The kept messages (oldest first). */
  messages(): readonly PublishedMessage[] {
    return this.kept
  }

  /** Hears every message as it is published (bench and tests). Returns the way to stop. */
  onPublished(listener: (m: PublishedMessage) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /**
   * Adds a subscriber: with `after` undefined it first gets the open block's messages so far; with `after`
   * a sequence number, every kept message after it (closed with CLOSE.tooOld / CLOSE.ahead when that point
   * is not kept). Returns false when the subscriber was closed instead.
   */
  subscribe(sink: StreamSink, after?: number): boolean {
    if (this.closed) {
      sink.close(CLOSE.goingAway, 'server shutting down')
      return false
    }
    let sent: number
    if (after === undefined) {
      sent = this.openFrom < this.kept.length ? this.kept[this.openFrom]!.sequence - 1 : this.lastSequence()
    } else {
      const last = this.lastSequence()
      const oldest = this.kept[0]?.sequence ?? last + 1
      if (after > last) {
        sink.close(CLOSE.ahead, `sequence ${after} was never published here (newest: ${last})`)
        return false
      }
      if (after < oldest - 1) {
        sink.close(CLOSE.tooOld, `sequence ${after} is no longer kept (oldest kept: ${oldest}); read the sealed blocks, then subscribe anew`)
        return false
      }
      sent = after
    }
    const sub: Subscriber = { sink, sent, pumping: false }
    this.subscribers.add(sub)
    void this.pump(sub)
    return true
  }

  unsubscribe(sink: StreamSink): void {
    for (const sub of this.subscribers) if (sub.sink === sink) this.subscribers.delete(sub)
  }

  /** Stops listening to the feed and closes every subscriber. */
  close(): void {
    if (this.closed) return
    this.closed = true
    this.feed.off('flashblock', this.onFlashblock)
    this.feed.off('sealed', this.onSealed)
    for (const sub of this.subscribers) sub.sink.close(CLOSE.goingAway, 'server shutting down')
    this.subscribers.clear()
  }

  /** Publishes what is queued now (tests call it instead of waiting for the microtask). */
  flush(): void {
    this.scheduled = false
    try {
      while (this.queue.length > 0 && !this.closed) this.publish(this.queue.shift()!)
    } catch (err) {
      // A message that cannot be built leaves the stream without a consistent block: end it, not the node.
      this.log.error(errorFields(err), 'flashblock stream stopped')
      for (const sub of this.subscribers) sub.sink.close(CLOSE.internal, 'stream stopped: internal error')
      this.close()
    }
  }

  // --- internals ----------------------------------------------------------------------------------

  /** The feed's listener: queue only. */
  private enqueue(event: Pending): void {
    this.queue.push(event)
    if (this.scheduled) return
    this.scheduled = true
    queueMicrotask(() => {
      if (this.scheduled) this.flush()
    })
  }

  private lastSequence(): number {
    return this.kept.at(-1)?.sequence ?? this.sequences.peek() - 1
  }

  private prepare(event: Pending): PublishedMessage {
    if (this.prepared !== undefined) throw new StreamOutOfStep('a prepared message still awaits its announcement')
    // What the feed announced before comes first (its messages, or the snapshots adopted at a takeover).
    this.flush()
    if (this.closed) throw new Error('the flashblock stream is closed')
    if (this.adopting !== undefined) this.continues(event)
    const message = this.build(event)
    this.prepared = { event, message }
    return message
  }

  private build(event: Pending): PublishedMessage {
    const message = event.kind === 'flashblock' ? this.builder.flashblock(event.snapshot) : this.builder.sealed(event.block)
    return new PublishedMessage(message, message.json, this.settings.brotliQuality, performance.now())
  }

  /** Whether `event` is a resumed snapshot of the taken-over block (adopted), else checks that it follows it. */
  private adopted(event: Pending): boolean {
    const a = this.adopting!
    if (event.kind === 'flashblock' && event.snapshot.header.number === a.number && event.snapshot.index <= a.lastIndex && this.prepared === undefined) {
      this.builder.adopt(event.snapshot)
      return true
    }
    this.continues(event)
    return false
  }

  /** The first event after a taken-over block's adopted snapshots must be that block's next message. */
  private continues(event: Pending): void {
    const a = this.adopting!
    const number = event.kind === 'flashblock' ? event.snapshot.header.number : event.block.header.number
    const index = event.kind === 'flashblock' ? event.snapshot.index : event.block.last.index + 1
    if (number !== a.number || index !== a.lastIndex + 1) {
      throw new StreamOutOfStep(`block ${number} index ${index} does not continue the stream's block ${a.number} after index ${a.lastIndex}`)
    }
    this.adopting = undefined
  }

  private publish(event: Pending): void {
    if (this.adopting !== undefined && this.adopted(event)) return
    let published: PublishedMessage
    if (this.prepared === undefined) published = this.build(event)
    else {
      const { event: was, message } = this.prepared
      const same = was.kind === 'flashblock' ? event.kind === 'flashblock' && event.snapshot === was.snapshot : event.kind === 'sealed' && event.block.last === was.block.last
      if (!same) throw new StreamOutOfStep('the feed announced another event than the prepared message was built for')
      this.prepared = undefined
      published = message
    }
    const message = published.message
    if (event.kind === 'flashblock' && event.snapshot.index === 0) this.openFrom = this.kept.length
    this.kept.push(published)
    if (message.closing) {
      this.openFrom = this.kept.length
      this.forget()
    }
    for (const listener of this.listeners) listener(published)
    let compressedSubscribers = false
    for (const sub of this.subscribers) {
      if (sub.sink.compressed) compressedSubscribers = true
      else void this.pump(sub)
    }
    if (!compressedSubscribers) return
    published.compressedNow()
    for (const sub of this.subscribers) if (sub.sink.compressed) void this.pump(sub)
  }

  /** Drops the messages of sealed blocks beyond the kept number. */
  private forget(): void {
    let closings = 0
    for (let i = this.kept.length - 1; i >= 0; i--) {
      if (!this.kept[i]!.message.closing) continue
      closings++
      if (closings > this.settings.historyBlocks) {
        this.kept = this.kept.slice(i + 1)
        this.openFrom = this.kept.length
        return
      }
    }
  }

  /** Sends `sub` every kept message after its last one, in order; one pump per subscriber at a time. */
  private async pump(sub: Subscriber): Promise<void> {
    if (sub.pumping) return
    sub.pumping = true
    try {
      for (;;) {
        if (!this.subscribers.has(sub)) return
        const next = this.nextFor(sub)
        if (next === undefined) return
        if (next === 'lost') return this.cut(sub, `${this.lastSequence() - sub.sent} messages behind: no longer kept`)
        const queued = sub.sink.queuedBytes()
        if (queued > this.settings.maxQueuedBytes) return this.cut(sub, `${queued} bytes queued (limit ${this.settings.maxQueuedBytes})`)
        const data = !sub.sink.compressed ? next.json : (next.brotliBytes ?? (await next.compressed()))
        if (!this.subscribers.has(sub)) return
        sub.sink.send(data, sub.sink.compressed)
        sub.sent = next.sequence
        failpoint('stream:sent')
      }
    } catch {
      this.cut(sub, 'message could not be compressed')
    } finally {
      sub.pumping = false
    }
  }

  private nextFor(sub: Subscriber): PublishedMessage | 'lost' | undefined {
    const first = this.kept[0]
    if (first === undefined || sub.sent >= this.kept.at(-1)!.sequence) return undefined
    if (sub.sent < first.sequence - 1) return 'lost'
    // Kept sequences are consecutive within one run: the position follows from the number.
    return this.kept[sub.sent + 1 - first.sequence]
  }

  private cut(sub: Subscriber, why: string): void {
    this.log.warn({ why, subscribers: this.subscribers.size - 1 }, 'flashblock stream subscriber too slow: disconnected')
    this.subscribers.delete(sub)
    this.slowCuts++
    sub.sink.close(CLOSE.tooSlow, `too slow: ${why}`)
  }
}
