/**
 * The fast lane of the HTTP server: plain JSON-RPC POSTs over keep-alive HTTP/1.1, read straight off the
 * TCP socket (parsed by the `http-parser-js` package) and answered with one socket write each.
 *
 * Why: on this project's 2-core machine node:http costs ~43 µs of CPU per request before any JSON-RPC work
 * (its parser binding, the IncomingMessage/ServerResponse streams, and a corked two-chunk writev per
 * response), against ~20 µs for this lane (`npx tsx bench/http-ceiling.ts` measures both). State reads
 * are answered in a few µs, so the HTTP layer was most of their cost.
 *
 * The lane never decides an HTTP rule itself: for every request it asks `takes(head)` (http-server.ts owns
 * the rules and says yes only to a request the lane can answer exactly as node:http would: POST `/`,
 * HTTP/1.1 keep-alive, a Content-Length within the limit, a JSON content type, an allowed Host, …). The
 * first request it does not take, and any byte stream it cannot parse, hands the connection over to
 * node:http for good: the raw bytes from the start of that request are put back on the socket and the
 * socket is given to the node:http server, which answers exactly as it always did (WebSocket upgrades,
 * health checks, CORS preflights, 4xx refusals, parse errors).
 *
 * Invariants: responses go out in request order (pipelined requests are answered in turn); at most
 * `MAX_QUEUED` requests of one connection are in progress before reading from it pauses, and reading also
 * pauses while the socket's write buffer is full; an idle connection is closed by the rule of idle-close.ts
 * (`idleTimeoutMs`, as node:http's keepAliveTimeout, never while a request is in progress or on its way
 * in), and a request whose bytes trickle in for more than `REQUEST_BYTES_MS` is answered 408 and closed
 * (node:http's headersTimeout). When the client goes away, the scopes of its requests in progress abort. A
 * hand-over waits until every earlier response is written.
 */

import { STATUS_CODES } from 'node:http'
import type { Socket } from 'node:net'
import httpParser from 'http-parser-js'
import { RPC_CODES } from '../error-codes.ts'
import { errorMessage } from './messages.ts'
import { RequestScope } from './request-scope.ts'
import { closeIfStillIdle, idleCloseAfterMs, keepAliveHeader } from './idle-close.ts'

const { HTTPParser } = httpParser

/**
 * The parser's position in the chunk being parsed: inside the message-complete callback, where the next
 * request begins. Not in the package's typings, but part of its parser state since its first release
 * (the version is pinned; the pipelining and hand-over tests fail if it ever moves).
 */
const positionOf = (parser: object): number => (parser as { offset: number }).offset

/** One request's bytes must all arrive within this (node:http's headersTimeout). */
export const REQUEST_BYTES_MS = 60_000
/** Requests of one connection in progress (pipelined) before reading from it pauses. */
export const MAX_QUEUED = 64
/** Largest header block the lane parses; bigger ones go to node:http, whose limit (16 KiB) answers 431. */
const MAX_HEADER_BYTES = 16 * 1024
/** Past this size a body is encoded once into a Buffer and written after the head. */
const ENCODE_ONCE_FROM = 64 * 1024

/** What the lane knows of a request when its header block is complete. */
export interface RequestHead {
  readonly method: string
  readonly url: string
  /** HTTP/1.1 (not 1.0 or 2). */
  readonly http11: boolean
  /** Neither side asked to close: the connection stays open after the answer. */
  readonly keepAlive: boolean
  readonly upgrade: boolean
  /** Header values by lower-case name (a repeated header: its values joined with ", "). */
  readonly headers: ReadonlyMap<string, string>
}

/** An answer in HTTP terms: the status, extra headers, and the JSON body (null: none, sent as 204; a Buffer: already encoded, e.g. gzipped). */
export interface LaneAnswer {
  readonly status: number
  readonly headers?: Readonly<Record<string, string>> | undefined
  readonly body: string | Buffer | null
}

export interface FastLaneOptions {
  /** Whether the lane answers this request; false hands the connection to node:http. */
  takes(head: RequestHead, socket: Socket): boolean
  /** The answer to a taken request's body (`head`: its header block). Must not reject. */
  answer(body: string, socket: Socket, scope: RequestScope, head: RequestHead): Promise<LaneAnswer>
  /** Gives the socket to node:http, with the bytes it must read first already put back. */
  handOver(socket: Socket): void
  /** How long an idle connection is kept (idle-close.ts). */
  readonly idleTimeoutMs: number
  /** Called once per answered request, for logs and metrics. */
  onAnswered?: ((status: number, requestBytes: number, durationMs: number) => void) | undefined
  log(message: string, err: unknown): void
}

/** Thrown out of the parser's callback to stop parsing at a request the lane does not take. */
const HAND_OVER = Symbol('hand over')

interface Pending {
  /** The response bytes once the answer is in; undefined while it runs. */
  out: string | Buffer | undefined
  readonly scope: RequestScope
}

/** Serves one connection; returns at once (everything happens on the socket's events). */
export function serveFastLane(socket: Socket, opts: FastLaneOptions): void {
  socket.setNoDelay(true)
  const parser = new HTTPParser(HTTPParser.REQUEST)
  parser.maxHeaderSize = MAX_HEADER_BYTES
  /** Earlier chunks' bytes of the request being received (kept for a hand-over). */
  let partial: Buffer[] = []
  /** Where, in the chunk being parsed, the request being received begins. */
  let startInChunk = 0
  /** When the first byte of the request being received arrived (0: none pending). */
  let begunAt = 0
  let bodyChunks: Buffer[] = []
  let bodyBytes = 0
  const queue: Pending[] = []
  let handingOver: Buffer | undefined
  /** The header block of the request being received. */
  let head: RequestHead | undefined
  let gone = false
  const closeAfterMs = idleCloseAfterMs(opts.idleTimeoutMs)
  const keepAlive = keepAliveHeader(opts.idleTimeoutMs)

  parser[HTTPParser.kOnHeadersComplete] = (info: {
    versionMajor: number
    versionMinor: number
    headers: string[]
    method: number
    url: string
    upgrade: boolean
    shouldKeepAlive: boolean
  }): void => {
    const received: RequestHead = {
      method: HTTPParser.methods[info.method] ?? '',
      url: info.url,
      http11: info.versionMajor === 1 && info.versionMinor === 1,
      keepAlive: info.shouldKeepAlive,
      upgrade: info.upgrade,
      headers: headerMap(info.headers),
    }
    if (!opts.takes(received, socket)) throw HAND_OVER
    head = received
    bodyChunks = []
    bodyBytes = 0
  }
  parser[HTTPParser.kOnBody] = (chunk: Buffer, offset: number, length: number): void => {
    bodyChunks.push(offset === 0 && length === chunk.length ? chunk : chunk.subarray(offset, offset + length))
    bodyBytes += length
  }
  parser[HTTPParser.kOnMessageComplete] = (): void => {
    const body = bodyChunks.length === 1 ? bodyChunks[0]! : Buffer.concat(bodyChunks, bodyBytes)
    const requestBytes = bodyBytes
    bodyChunks = []
    partial = []
    startInChunk = positionOf(parser)
    begunAt = 0
    start(body.toString('utf8'), requestBytes, head!)
  }

  const start = (text: string, requestBytes: number, requestHead: RequestHead): void => {
    const entry: Pending = { out: undefined, scope: new RequestScope() }
    queue.push(entry)
    if (queue.length >= MAX_QUEUED) socket.pause()
    const started = opts.onAnswered === undefined ? 0 : performance.now()
    opts.answer(text, socket, entry.scope, requestHead).then(
      (answer) => {
        entry.out = encode(answer, keepAlive)
        opts.onAnswered?.(answer.status, requestBytes, performance.now() - started)
        flush()
      },
      (err: unknown) => {
        // answer() must not reject; a bug there still answers instead of hanging the connection.
        opts.log('http request failed', err)
        entry.out = encode({ status: 500, body: errorMessage(null, { code: RPC_CODES.internal, message: 'internal error' }) }, keepAlive)
        flush()
      },
    )
  }

  let waitingForDrain = false

  /** Writes every finished answer at the head of the queue, in order; then reads on, or hands over. */
  const flush = (): void => {
    if (gone) return
    while (queue.length > 0 && queue[0]!.out !== undefined) {
      if (!socket.write(queue.shift()!.out!) && !waitingForDrain) {
        waitingForDrain = true
        socket.once('drain', onDrain)
      }
    }
    if (handingOver !== undefined) {
      if (queue.length === 0) finishHandOver()
    } else if (!waitingForDrain && queue.length < MAX_QUEUED && socket.isPaused()) {
      socket.resume()
    }
  }

  const onDrain = (): void => {
    waitingForDrain = false
    flush()
  }

  const onData = (chunk: Buffer): void => {
    if (waitingForDrain) socket.pause()
    if (begunAt !== 0 && performance.now() - begunAt > REQUEST_BYTES_MS) return requestTimedOut()
    startInChunk = 0
    let result: number | Error
    try {
      result = parser.execute(chunk)
    } catch (err) {
      if (err !== HAND_OVER) {
        opts.log('http connection failed', err)
        socket.destroy()
        return
      }
      result = new Error('hand over')
    }
    if (result instanceof Error) {
      // Not taken, or not parseable here: node:http reads it again from its first byte and answers.
      beginHandOver(Buffer.concat([...partial, chunk.subarray(startInChunk)]))
      return
    }
    if (startInChunk < chunk.length) {
      partial.push(startInChunk === 0 ? chunk : chunk.subarray(startInChunk))
      if (begunAt === 0) begunAt = performance.now()
    }
  }

  const beginHandOver = (bytes: Buffer): void => {
    handingOver = bytes
    socket.off('data', onData)
    socket.pause()
    if (queue.length === 0) finishHandOver()
  }

  const finishHandOver = (): void => {
    const bytes = handingOver!
    socket.off('timeout', onTimeout)
    socket.off('close', onClose)
    socket.off('drain', onDrain)
    socket.setTimeout(0)
    if (bytes.length > 0) socket.unshift(bytes)
    opts.handOver(socket)
    process.nextTick(() => socket.resume())
  }

  const requestTimedOut = (): void => {
    socket.off('data', onData)
    socket.end('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n')
    socket.destroySoon()
  }

  /** The socket was silent for the idle time: a request partly in may have stalled; else maybe idle. */
  const onTimeout = (): void => {
    if (begunAt !== 0) {
      if (performance.now() - begunAt > REQUEST_BYTES_MS) requestTimedOut()
      else socket.setTimeout(closeAfterMs) // silent since: look again after another idle time
      return
    }
    if (queue.length === 0) closeIfStillIdle(socket, () => queue.length > 0 || begunAt !== 0, () => socket.destroy())
  }

  const onClose = (): void => {
    gone = true
    for (const entry of queue) entry.scope.abort()
  }

  socket.on('data', onData)
  socket.on('close', onClose)
  socket.on('error', () => {}) // a reset is seen as 'close'
  socket.on('timeout', onTimeout) // not setTimeout's callback: that one fires once
  socket.setTimeout(closeAfterMs)
}

function headerMap(raw: readonly string[]): Map<string, string> {
  const map = new Map<string, string>()
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase()
    const value = raw[i + 1]!
    const seen = map.get(name)
    map.set(name, seen === undefined ? value : `${seen}, ${value}`)
  }
  return map
}

let dateSecond = 0
let dateValue = ''

/** The Date header's value, formatted once a second. */
function httpDate(): string {
  const now = Date.now()
  const second = Math.floor(now / 1000)
  if (second !== dateSecond) {
    dateSecond = second
    dateValue = new Date(now).toUTCString()
  }
  return dateValue
}

/** The whole response, as one string (one write) unless the body is large. */
function encode(answer: LaneAnswer, keepAlive: string): string | Buffer {
  const status = answer.body === null ? 204 : answer.status
  let head = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nDate: ${httpDate()}\r\nConnection: keep-alive\r\nKeep-Alive: ${keepAlive}\r\n`
  if (answer.headers !== undefined) for (const [name, value] of Object.entries(answer.headers)) head += `${name}: ${value}\r\n`
  const body = answer.body
  if (body === null) return `${head}\r\n`
  if (typeof body !== 'string') {
    return Buffer.concat([Buffer.from(`${head}Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`, 'latin1'), body])
  }
  if (body.length < ENCODE_ONCE_FROM) {
    return `${head}Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  }
  const bytes = Buffer.from(body, 'utf8')
  return Buffer.concat([Buffer.from(`${head}Content-Type: application/json\r\nContent-Length: ${bytes.length}\r\n\r\n`, 'latin1'), bytes])
}
