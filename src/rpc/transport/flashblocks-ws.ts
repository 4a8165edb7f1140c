/**
 * The flashblock stream over WebSocket (docs/stream.md): one message per flashblock, server to client only.
 * Served at `/flashblocks` on the JSON-RPC port (ws-server.ts hands such upgrades here) and, with
 * `--flashblocks-port`, on a port of its own (`startFlashblocksServer`).
 *
 * The upgrade's query chooses: `compression=brotli` for Brotli-compressed binary messages (default: JSON
 * text), `after=N` to resume with every kept message after sequence N. Anything else in those two is refused
 * with HTTP 400 before the upgrade. What the client sends is ignored. Each connection is a StreamSink of the
 * publisher (stream/publisher.ts), which decides what is sent and when a connection is closed and why; a
 * connection asked to close that does not finish the closing handshake within CLOSE_GRACE_MS is cut.
 */

import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocket, WebSocketServer } from 'ws'
import { listenOn } from './listen.ts'
import type { StreamSink } from '../../stream/publisher.ts'
import { isHostAllowed } from './host-check.ts'

/** What the transport needs of the stream. */
export interface FlashblockSource {
  subscribe(sink: StreamSink, after?: number): boolean
  unsubscribe(sink: StreamSink): void
}

export const FLASHBLOCKS_PATH = '/flashblocks'
const CLOSE_GRACE_MS = 2_000

export interface StreamRequest {
  readonly compressed: boolean
  readonly after: number | undefined
}

/** The upgrade's query, or why it is refused. */
export function parseStreamQuery(url: string): StreamRequest | string {
  const query = new URLSearchParams(url.includes('?') ? url.slice(url.indexOf('?') + 1) : '')
  const compression = query.get('compression')
  if (compression !== null && compression !== 'brotli' && compression !== 'none') return `compression must be brotli or none, got "${compression}"`
  const after = query.get('after')
  if (after !== null && !/^\d{1,15}$/.test(after)) return `after must be a sequence number, got "${after}"`
  return { compressed: compression === 'brotli', after: after === null ? undefined : Number(after) }
}

/** Upgrades `req` and subscribes the connection (the caller has done its Host and Origin checks). */
export function upgradeToStream(wss: WebSocketServer, source: FlashblockSource, req: IncomingMessage, socket: Duplex, head: Buffer): void {
  const asked = parseStreamQuery(req.url ?? '/')
  if (typeof asked === 'string') {
    socket.end(`HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(asked)}\r\n\r\n${asked}`)
    return
  }
  wss.handleUpgrade(req, socket, head, (ws) => {
    const sink = sinkOf(ws, asked.compressed)
    ws.on('error', () => {})
    ws.on('close', () => source.unsubscribe(sink))
    source.subscribe(sink, asked.after)
  })
}

function sinkOf(ws: WebSocket, compressed: boolean): StreamSink {
  return {
    compressed,
    send(data, binary) {
      if (ws.readyState === WebSocket.OPEN) ws.send(data, { binary })
    },
    queuedBytes: () => ws.bufferedAmount,
    close(code, reason) {
      if (ws.readyState !== WebSocket.OPEN) return
      ws.close(code, reason.slice(0, 120))
      setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref()
    },
  }
}

export interface RunningStreamServer {
  readonly url: string
  close(): Promise<void>
}

/** The stream alone on its own port (`/flashblocks`, and `/`). */
export async function startFlashblocksServer(
  source: FlashblockSource,
  opts: { host: string; port: number; allowedHosts: readonly string[] },
): Promise<RunningStreamServer> {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 })
  const server: Server = createServer((_req, res) => {
    res.writeHead(426, { 'content-type': 'text/plain', upgrade: 'websocket' })
    res.end(`the flashblock stream is a WebSocket at ${FLASHBLOCKS_PATH}\n`)
  })
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => {})
    const path = (req.url ?? '/').split('?')[0]
    if (path !== FLASHBLOCKS_PATH && path !== '/') return void socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n')
    if (!isHostAllowed(req.headers.host, opts.allowedHosts)) return void socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n')
    upgradeToStream(wss, source, req, socket, head)
  })
  const authority = await listenOn(server, opts.host, opts.port)
  return {
    url: `ws://${authority}${FLASHBLOCKS_PATH}`,
    close: async () => {
      for (const client of wss.clients) client.terminate()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
