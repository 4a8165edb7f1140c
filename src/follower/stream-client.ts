/**
 * A follower's subscription to its sequencer's flashblock stream (ws://…/flashblocks, docs/stream.md): it
 * hands every message to the follower in arrival order, one at a time, and keeps the subscription going.
 *
 * - Resume: after a disconnect it subscribes again with `?after=<the last sequence the follower handled>`,
 *   so nothing kept by the sequencer is lost; when the sequencer no longer keeps that point (close 4000) or
 *   never published it (4001: the sequencer restarted on another history), it subscribes afresh and the
 *   follower catches up on sealed blocks at the next block's opening. A follower that reports a missed
 *   message (`{ resume }`) is re-subscribed after its last sequence the same way.
 * - Bounded: at most `maxQueued` messages wait to be applied; past that the subscription is dropped and
 *   taken again afresh once the follower is done (it then catches up on sealed blocks instead of growing).
 * - Reconnects back off from `retryMs.min` to `retryMs.max`; a message resets it.
 * - A message the follower cannot take (malformed, or a block that does not fit this node's chain) is
 *   logged and the subscription taken again after the back-off, from the last message handled.
 */

import WebSocket from 'ws'
import { errorFields, type Logger, SILENT_LOGGER } from '../primitives/logger.ts'
import type { Follower } from './follower.ts'

export interface StreamClientOptions {
  /** The sequencer's stream (ws://host:port/flashblocks). */
  readonly url: string
  readonly maxQueued: number
  readonly retryMs: { readonly min: number; readonly max: number }
  readonly log?: Logger
  /** Told of each (re)connection, with the resume point asked for (undefined: afresh). */
  readonly onConnect?: (after: number | undefined) => void
}

export const DEFAULT_STREAM_CLIENT = { maxQueued: 1_000, retryMs: { min: 100, max: 5_000 } } as const

/** The stream's close codes a follower acts on (stream/publisher.ts CLOSE). */
const TOO_OLD = 4000
const AHEAD = 4001

export class StreamClient {
  private socket: WebSocket | undefined
  private queue: unknown[] = []
  private draining = false
  private stopped = true
  private retry: number
  private afresh = false
  private timer: NodeJS.Timeout | undefined
  private readonly log: Logger

  constructor(
    private readonly options: StreamClientOptions,
    private readonly follower: Follower,
  ) {
    this.retry = options.retryMs.min
    this.log = options.log ?? SILENT_LOGGER
  }

  get connected(): boolean {
    return this.socket?.readyState === WebSocket.OPEN
  }

  start(): void {
    if (!this.stopped) return
    this.stopped = false
    this.connect()
  }

  async stop(): Promise<void> {
    this.stopped = true
    clearTimeout(this.timer)
    this.queue = []
    const socket = this.socket
    this.socket = undefined
    if (socket === undefined || socket.readyState === WebSocket.CLOSED) return
    await new Promise<void>((resolve) => {
      socket.once('close', () => resolve())
      socket.terminate()
    })
  }

  private connect(): void {
    if (this.stopped) return
    const after = this.afresh ? undefined : (this.follower.sequence ?? undefined)
    // Afresh (the resume point is gone, or the queue overflowed): the first message does not follow the last
    // one handled, and must not be answered `{ resume }` again: the follower takes it as a new start.
    if (this.afresh) this.follower.rejoin()
    this.afresh = false
    const socket = new WebSocket(after === undefined ? this.options.url : `${this.options.url}?after=${after}`, { perMessageDeflate: false })
    this.socket = socket
    socket.on('open', () => this.options.onConnect?.(after))
    socket.on('message', (data: Buffer, binary: boolean) => {
      if (this.socket !== socket) return
      this.retry = this.options.retryMs.min
      if (binary) return this.drop(socket, 'a binary message on a JSON subscription')
      let message: unknown
      try {
        message = JSON.parse(data.toString('utf8'))
      } catch {
        return this.drop(socket, 'a message that is not JSON')
      }
      if (this.queue.length >= this.options.maxQueued) {
        this.log.warn({ queued: this.queue.length }, 'flashblock stream: the follower is behind; subscribing afresh once it is done')
        this.afresh = true
        return this.drop(socket, 'queue full')
      }
      this.queue.push(message)
      void this.drain(socket)
    })
    socket.on('close', (code: number, reason: Buffer) => {
      if (this.socket !== socket) return
      this.socket = undefined
      if (code === TOO_OLD || code === AHEAD) this.afresh = true
      if (!this.stopped) this.log.info({ code, reason: reason.toString() }, 'flashblock stream closed: subscribing again')
      this.later()
    })
    socket.on('error', (err: Error) => {
      if (this.socket === socket) this.log.warn({ error: err.message }, 'flashblock stream connection failed')
    })
  }

  /** Applies queued messages one at a time; a resume or a failure ends this subscription. */
  private async drain(socket: WebSocket): Promise<void> {
    if (this.draining) return
    this.draining = true
    try {
      while (this.queue.length > 0 && this.socket === socket) {
        const message = this.queue.shift()
        let outcome
        try {
          outcome = await this.follower.receive(message)
        } catch (err) {
          this.log.error(errorFields(err), 'flashblock stream: message not applied; subscribing again')
          return this.drop(socket, 'message not applied')
        }
        if (typeof outcome === 'object') return this.drop(socket, `resuming after ${outcome.resume}`, true)
      }
    } finally {
      this.draining = false
    }
  }

  private drop(socket: WebSocket, why: string, now = false): void {
    if (this.socket !== socket) return
    this.queue = []
    this.socket = undefined
    this.log.debug({ why }, 'flashblock stream: subscription dropped')
    socket.removeAllListeners('message')
    socket.terminate()
    this.later(now)
  }

  private later(now = false): void {
    if (this.stopped) return
    clearTimeout(this.timer)
    const wait = now ? 0 : this.retry
    this.retry = Math.min(this.options.retryMs.max, this.retry * 2)
    this.timer = setTimeout(() => this.connect(), wait)
    this.timer.unref()
  }
}
