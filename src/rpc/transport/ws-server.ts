/**
 * JSON-RPC over WebSocket, on the HTTP server's port (package `ws`, `noServer` mode).
 *
 * Owns the upgrade checks (path `/`, or `/flashblocks` for the flashblock stream (flashblocks-ws.ts) when the
 * node streams; the same Host check as HTTP, and an Origin check, since browsers do
 * not apply CORS to WebSocket) and the per-connection life: each message (text, or binary read as UTF-8)
 * is one JSON-RPC payload handled by the envelope; its response, if any, goes back on the same connection.
 * Messages are handled concurrently, so responses may come out of order (clients match them by id).
 *
 * The connection is exposed to handlers as `MethodContext.connection` (`RpcConnection`): `send` pushes a
 * message later (subscriptions), `onClose` runs cleanup once the connection is gone.
 *
 * Endpoint policy: an upgrade on a connection past `maxConnections` is refused 503 (connection-limit.ts);
 * with a gate, each message is admitted or refused like an HTTP payload, but a refusal is only its error
 * body (no status line exists): the connection stays open. The gate is made once per connection, from the
 * address of the upgrade request. `RpcConnection.maxSubscriptions` carries the endpoint's
 * `maxSubscriptionsPerConnection`.
 *
 * Invariants: a message over `maxWsMessageBytes` closes the connection with 1009 (enforced by `ws` before
 * the message is buffered whole). What waits to be sent is bounded too: a message to send when more than
 * `maxWsBufferedBytes` are still queued (a client that stopped reading its notifications) cuts the
 * connection instead (logged), so one slow subscriber cannot grow the heap. When the connection closes, the signal of its in-flight requests aborts,
 * `send` becomes a no-op, and every `onClose` callback runs exactly once. No more than
 * `MAX_PENDING_MESSAGES` messages of one connection are handled at a time; past that, reading from its
 * socket pauses. Nothing here throws into `ws` or leaves a rejection unhandled.
 */

import { randomUUID } from 'node:crypto'
import type { IncomingMessage, Server } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocket, WebSocketServer, type RawData } from 'ws'
import type { MethodTable, RpcConnection } from '../registry.ts'
import { tooManyConnectionsMessage, type ConnectionLimit } from './connection-limit.ts'
import { isWebSocketOriginAllowed } from './cors.ts'
import { handleRpcPayload } from './envelope.ts'
import type { GateFactory } from './gate.ts'
import { isHostAllowed } from './host-check.ts'
import type { TransportLimits } from './limits.ts'
import { errorMessage } from './messages.ts'
import { FLASHBLOCKS_PATH, upgradeToStream, type FlashblockSource } from './flashblocks-ws.ts'
import { RPC_CODES } from '../error-codes.ts'
import type { PayloadObserver } from './observer.ts'
import { registerGauge } from '../../primitives/memory-gauges.ts'

/** Payloads of one connection handled at the same time before its socket is paused. */
export const MAX_PENDING_MESSAGES = 64
/** How long `close()` waits for clients to answer the close handshake before cutting them off. */
const CLOSE_GRACE_MS = 1000

export interface WebSocketOptions {
  readonly methods: MethodTable
  readonly endpoint: string
  readonly limits: TransportLimits
  readonly revertCode: number | undefined
  readonly debug: boolean
  readonly allowedHosts: readonly string[]
  readonly corsOrigins: readonly string[] | undefined
  readonly gate?: GateFactory | undefined
  readonly connectionLimit?: ConnectionLimit
  /** Turns a socket's remote address into the key the gate is made for. */
  readonly clientAddress?: (remote: string | undefined) => string
  readonly log: (message: string, err: unknown) => void
  /** The flashblock stream, served at `/flashblocks` (flashblocks-ws.ts) when given. */
  readonly flashblocks?: FlashblockSource
  /** Told of every call answered over WebSocket (metrics). */
  readonly observer?: PayloadObserver
}

export interface WebSocketAttachment {
  /** Open connections. */
  connectionCount(): number
  /** Closes every connection (1001 going away) and stops accepting upgrades. */
  close(): Promise<void>
}

export function attachWebSocketServer(server: Server, opts: WebSocketOptions): WebSocketAttachment {
  const wss = new WebSocketServer({ noServer: true, maxPayload: opts.limits.maxWsMessageBytes })
  const streamWss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 })
  registerGauge('WebSocket connections', wss, (w) => ({ entries: w.clients.size, maxEntries: opts.connectionLimit?.max ?? opts.limits.maxConnections }))
  registerGauge('flashblock stream connections', streamWss, (w) => ({ entries: w.clients.size, maxEntries: opts.connectionLimit?.max ?? opts.limits.maxConnections }))
  let closed = false

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => {}) // a reset during the handshake must not become an uncaught error
    try {
      if (closed) return refuseUpgrade(socket, 503, 'Service Unavailable', 'server is shutting down')
      const limit = opts.connectionLimit
      if (limit !== undefined && limit.isOverLimit(req.socket)) {
        return refuseUpgrade(socket, 503, 'Service Unavailable', tooManyConnectionsMessage(limit.max), RPC_CODES.limitExceeded)
      }
      if (!isHostAllowed(req.headers.host, opts.allowedHosts)) {
        return refuseUpgrade(socket, 403, 'Forbidden', 'invalid host specified')
      }
      const path = pathOf(req)
      const stream = path === FLASHBLOCKS_PATH ? opts.flashblocks : undefined
      if (path !== '/' && stream === undefined) return refuseUpgrade(socket, 404, 'Not Found', 'not found')
      if (!isWebSocketOriginAllowed(req.headers.origin, opts.corsOrigins, req.headers.host)) {
        return refuseUpgrade(socket, 403, 'Forbidden', 'invalid origin')
      }
      if (stream !== undefined) return upgradeToStream(streamWss, stream, req, socket, head)
      const address = (opts.clientAddress ?? ((remote) => remote ?? 'unknown'))(req.socket.remoteAddress)
      wss.handleUpgrade(req, socket, head, (ws) => serveConnection(ws, socket, opts, address))
    } catch (err) {
      opts.log('websocket upgrade failed', err)
      socket.destroy()
    }
  })

  return {
    connectionCount: () => wss.clients.size,
    close: async () => {
      closed = true
      await Promise.all([closeClients(wss), closeClients(streamWss)])
      await new Promise<void>((resolve) => wss.close(() => resolve()))
      await new Promise<void>((resolve) => streamWss.close(() => resolve()))
    },
  }
}

/**
 * Messages sent in one synchronous run (a flashblock's notifications, one per transaction) leave in one write:
 * the first corks the socket, and a microtask after the run uncorks it (ws corks and uncorks around each
 * frame too; a cork is counted, so those only nest). What is corked counts in `bufferedAmount` as before.
 */
export function coalescedWrites(socket: Pick<Duplex, 'cork' | 'uncork'>): () => void {
  let corked = false
  const uncork = (): void => {
    corked = false
    socket.uncork()
  }
  return () => {
    if (corked) return
    corked = true
    socket.cork()
    queueMicrotask(uncork)
  }
}

function serveConnection(ws: WebSocket, socket: Duplex, opts: WebSocketOptions, address: string): void {
  const gate = opts.gate?.(address)
  const coalesce = coalescedWrites(socket)
  const closeCallbacks: (() => void)[] = []
  const gone = new AbortController()
  let isClosed = false
  let pending = 0

  const runCallback = (callback: () => void): void => {
    try {
      callback()
    } catch (err) {
      opts.log('websocket onClose callback failed', err)
    }
  }

  const connection: RpcConnection = {
    id: `ws-${randomUUID()}`,
    maxSubscriptions: opts.limits.maxSubscriptionsPerConnection,
    send(message: string): void {
      if (ws.readyState !== WebSocket.OPEN) return
      if (ws.bufferedAmount > opts.limits.maxWsBufferedBytes) {
        opts.log('websocket client not reading', new Error(`${ws.bufferedAmount} bytes queued for it (limit ${opts.limits.maxWsBufferedBytes}): connection cut`))
        ws.terminate()
        return
      }
      coalesce()
      ws.send(message, (err) => {
        if (err !== undefined && err !== null && !isClosed) opts.log('websocket send failed', err)
      })
    },
    onClose(callback: () => void): void {
      if (isClosed) queueMicrotask(() => runCallback(callback))
      else closeCallbacks.push(callback)
    },
  }

  ws.on('message', (data: RawData) => {
    pending++
    if (pending >= MAX_PENDING_MESSAGES) ws.pause()
    handleRpcPayload(rawText(data), opts.methods, {
      endpoint: opts.endpoint,
      limits: opts.limits,
      revertCode: opts.revertCode,
      debug: opts.debug,
      connection,
      signal: gone.signal,
      log: opts.log,
      ...(gate !== undefined ? { gate } : {}),
      ...(opts.observer !== undefined ? { observer: opts.observer } : {}),
    })
      .then((out) => {
        if (out !== null) connection.send(out)
      })
      .catch((err: unknown) => {
        opts.log('websocket message failed', err)
        connection.send(errorMessage(null, { code: RPC_CODES.internal, message: 'internal error' }))
      })
      .finally(() => {
        pending--
        if (ws.isPaused && pending < MAX_PENDING_MESSAGES) ws.resume()
      })
  })

  ws.on('error', () => {
    // Protocol errors (e.g. a message over maxPayload) are answered by `ws` with a close frame (1009, …);
    // the 'close' event below does the cleanup.
  })

  ws.on('close', () => {
    isClosed = true
    gone.abort()
    const callbacks = closeCallbacks.splice(0)
    for (const callback of callbacks) runCallback(callback)
  })
}

function rawText(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8')
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8')
  return Buffer.from(data).toString('utf8')
}

function pathOf(req: IncomingMessage): string {
  const url = req.url ?? '/'
  const query = url.indexOf('?')
  return query < 0 ? url : url.slice(0, query)
}

function refuseUpgrade(
  socket: Duplex,
  status: number,
  reason: string,
  message: string,
  code: number = RPC_CODES.invalidRequest,
): void {
  const body = errorMessage(null, { code, message })
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  )
}

async function closeClients(wss: WebSocketServer): Promise<void> {
  const clients = [...wss.clients]
  if (clients.length === 0) return
  const allClosed = Promise.all(
    clients.map((client) => new Promise<void>((resolve) => {
      if (client.readyState === WebSocket.CLOSED) return resolve()
      client.once('close', () => resolve())
      client.close(1001, 'server shutting down')
    })),
  )
  let timer: NodeJS.Timeout | undefined
  const grace = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, CLOSE_GRACE_MS)
  })
  await Promise.race([allClosed, grace])
  clearTimeout(timer)
  for (const client of clients) if (client.readyState !== WebSocket.CLOSED) client.terminate()
}
