/**
 * The HTTP face of the JSON-RPC server, with WebSocket on the same port.
 *
 * Two lanes share the listening socket: every connection starts in the fast lane (http-fast-lane.ts), which
 * answers plain JSON-RPC POSTs straight off the TCP socket; the first request that is anything else hands
 * the connection to node:http (`serve` below, and `ws` for upgrades) for the rest of its life. `takesFast`
 * says which requests the fast lane may answer: only those whose answer by `serve` could not differ (same
 * host check, content type, size limit, connection limit and gate, through `answerPayload`).
 *
 * Owns the HTTP rules: POST `/` carries JSON-RPC (Content-Type application/json, charset allowed, else 415;
 * body over `maxBodyBytes` → 413 and the connection closes without reading the rest); GET/HEAD `/` with an
 * empty body is a health check (200 `{"status":"ok"}`), unless the server has the live view (`page`) and
 * the request's Accept asks for text/html (a browser): then it is that page; GET/HEAD `/status`, when given,
 * is the node's status document as JSON; GET/HEAD `/metrics`, when the server is given
 * `metrics`, is the Prometheus text exposition; GET/HEAD `/healthz` is 200 while the process serves, and
 * `/readyz` 200 `{"status":"ready"}` or 503 `{"status":"not ready","reason":…}` as `readiness` says;
 * `/leader`, given a sequencer group's `leader`, 200 on its leader and 503 elsewhere (and /readyz then says
 * the group's state too); OPTIONS is a CORS preflight (204) only when CORS
 * origins are configured, else 405; other methods 405; other paths 404. The Host header must be localhost,
 * an IP literal or a configured host (`*` allows all), else 403 `invalid host specified`. Every response is
 * `application/json`; refusals carry a JSON-RPC error body with id null. A notification-only payload is
 * answered 204. JSON-RPC errors are HTTP 200, as in geth. gzip (compression.ts): an answer of 1 KiB or more
 * is gzipped for a client whose Accept-Encoding accepts it (both lanes); a `Content-Encoding: gzip` body is
 * inflated under `maxBodyBytes` (413 past it, 400 when it is no gzip; another coding 415), by node:http only:
 * the fast lane hands such a request over.
 *
 * Endpoint policy: a connection past `limits.maxConnections` gets HTTP 503 `too many connections (limit N)`
 * (-32005) on its first request and is closed (connection-limit.ts). With a `gate` (rpc/policy), each
 * payload is admitted or refused whole before anything runs; a refusal is answered with its own status
 * (403 for a method the profile refuses, 429 over the rate limit) and a JSON-RPC error body (gate.ts).
 *
 * Keep-alive: an idle connection is kept `limits.idleTimeoutMs` (geth keeps 120 s) and never closed while a
 * request is in progress or on its way in, on either lane (idle-close.ts).
 *
 * Invariants: a request can never take the server down: every handler path is caught and turned into a
 * response (500 at worst) and nothing is left as an unhandled rejection. Keep-alive stays on; `close()`
 * stops listening, closes WebSocket clients and every open socket, idle keep-alive ones included.
 */

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer, type Socket } from 'node:net'
import { RPC_CODES } from '../error-codes.ts'
import type { MethodTable } from '../registry.ts'
import { applyCors, isCorsEnabled } from './cors.ts'
import { tooManyConnectionsMessage, limitConnections, type ConnectionLimit } from './connection-limit.ts'
import { answerRpcPayload } from './envelope.ts'
import type { GateFactory } from './gate.ts'
import { DEFAULT_ALLOWED_HOSTS, isHostAllowed } from './host-check.ts'
import { resolveLimits, type TransportLimits } from './limits.ts'
import { serveFastLane, type FastLaneOptions, type LaneAnswer, type RequestHead } from './http-fast-lane.ts'
import { errorMessage } from './messages.ts'
import { closeIfStillIdle } from './idle-close.ts'
import { readBody } from './read-body.ts'
import { encodeAnswer, GZIP_FROM_BYTES, inflateGzip, requestCoding } from './compression.ts'
import { acceptsHtml } from './accept.ts'
import { RequestScope } from './request-scope.ts'
import { attachWebSocketServer, type WebSocketAttachment } from './ws-server.ts'
import type { PayloadObserver, RpcObserver } from './observer.ts'
import type { FlashblockSource } from './flashblocks-ws.ts'

export { DEFAULT_LIMITS, resolveLimits, type TransportLimits } from './limits.ts'

export interface HttpServerOptions {
  /** Interface to bind. Default 127.0.0.1. */
  readonly host?: string
  /** 0 picks a free port; the real one is returned. */
  readonly port: number
  readonly methods: MethodTable
  /** Endpoint (profile) name handed to handlers. */
  readonly endpoint: string
  readonly limits?: Partial<TransportLimits>
  /** Code for reverts: -32000 (default, the service contract) or 3 (geth). */
  readonly revertCode?: number
  /** Expose internal error messages and stacks to clients. Off by default. */
  readonly debug?: boolean
  /** Host names accepted besides IP literals. Default `['localhost']`; `'*'` accepts any. */
  readonly allowedHosts?: readonly string[]
  /** Browser origins allowed by CORS (and on WebSocket upgrades). CORS is off when absent. `'*'` = any. */
  readonly corsOrigins?: readonly string[]
  /** Serve WebSocket upgrades on `/`. Default true. */
  readonly websocket?: boolean
  /** The flashblock stream, served at `/flashblocks` (WebSocket on) when given. */
  readonly flashblocks?: FlashblockSource
  /** The endpoint policy's admission gate, made per client address. None: every payload is admitted. */
  readonly gate?: GateFactory
  /** Called once per finished HTTP request (not per WebSocket message), for logs and metrics. */
  readonly onRequest?: (info: HttpRequestInfo) => void
  /** Told of every JSON-RPC call answered, over HTTP and WebSocket, and of rate-limit refusals. */
  readonly observer?: RpcObserver
  /**
   * GET `/readyz`: whether this node should get traffic now, and if not why (503 with the reason). Absent:
   * always ready. GET `/healthz` answers 200 whenever the process serves.
   */
  readonly readiness?: () => Readiness
  /**
   * GET `/leader`, on a member of a sequencer group: 200 on the one that leads, 503 elsewhere (with who
   * leads, when known), for a balancer routing writes. Absent: 404.
   */
  readonly leader?: () => { readonly leading: boolean; readonly body: unknown }
  /**
   * The live view (src/ui/): sent, with its own headers, to a GET `/` whose Accept asks for text/html.
   * Absent: such a GET gets the health answer as any other.
   */
  readonly page?: { readonly body: Buffer; readonly headers: Readonly<Record<string, string>> }
  /** GET `/status`: the node's status document as JSON (node/node-status.ts). 404 when absent. */
  readonly status?: () => unknown
  /** GET `/metrics`: the Prometheus text exposition (its content type and body). 404 when absent. */
  readonly metrics?: () => Promise<{ contentType: string; body: string }>
  /** Where unexpected errors go; console.error when absent. */
  readonly log?: (message: string, err: unknown) => void
}

export interface Readiness {
  readonly ready: boolean
  /** Why not (or what was checked), for the operator and the load balancer's log. */
  readonly reason: string
}

export interface HttpRequestInfo {
  readonly method: string
  readonly path: string
  readonly status: number
  readonly durationMs: number
  readonly requestBytes: number
}

export interface RunningHttpServer {
  /** `http://host:port`, for clients. */
  readonly url: string
  /** `ws://host:port`, or undefined when WebSocket is off. */
  readonly wsUrl: string | undefined
  /** The port actually bound. */
  readonly port: number
  /** Open client connections counted against `maxConnections`. */
  connections(): number
  close(): Promise<void>
}

interface Config {
  readonly methods: MethodTable
  readonly endpoint: string
  readonly limits: TransportLimits
  readonly revertCode: number | undefined
  readonly debug: boolean
  readonly allowedHosts: readonly string[]
  readonly corsOrigins: readonly string[] | undefined
  readonly gate: GateFactory | undefined
  readonly connectionLimit: ConnectionLimit
  readonly onRequest: ((info: HttpRequestInfo) => void) | undefined
  readonly observer: PayloadObserver | undefined
  readonly metrics: HttpServerOptions['metrics']
  readonly readiness: HttpServerOptions['readiness']
  readonly leader: HttpServerOptions['leader']
  readonly page: HttpServerOptions['page']
  readonly status: HttpServerOptions['status']
  readonly log: (message: string, err: unknown) => void
}

const HEALTH_BODY = '{"status":"ok"}'

export async function startHttpServer(opts: HttpServerOptions): Promise<RunningHttpServer> {
  const limits = resolveLimits(opts.limits)
  const front = createTcpServer()
  const server = createServer((req, res) => onHttpRequest(req, res, config))
  const config: Config = {
    methods: opts.methods,
    endpoint: opts.endpoint,
    limits,
    revertCode: opts.revertCode,
    debug: opts.debug ?? false,
    allowedHosts: opts.allowedHosts ?? DEFAULT_ALLOWED_HOSTS,
    corsOrigins: opts.corsOrigins,
    gate: opts.gate,
    connectionLimit: limitConnections(front, limits.maxConnections),
    onRequest: opts.onRequest,
    observer: opts.observer?.forTransport('http'),
    metrics: opts.metrics,
    readiness: opts.readiness,
    leader: opts.leader,
    page: opts.page,
    status: opts.status,
    log: opts.log ?? ((message, err) => console.error(`[rpc] ${message}:`, err)),
  }
  const host = opts.host ?? '127.0.0.1'
  front.on('error', (err) => config.log('http server error', err))
  server.on('error', (err) => config.log('http server error', err))
  // node:http advertises keepAliveTimeout and closes a second later; with a 'timeout' listener it leaves
  // the closing to us, so a request that arrived as the timer fired is read first (idle-close.ts).
  server.keepAliveTimeout = limits.idleTimeoutMs
  server.on('timeout', (socket: Socket) => closeIfStillIdle(socket, () => httpBusy(socket), () => socket.destroy()))

  const sockets = new Set<Socket>()
  const lane = fastLaneOptions(server, config)
  front.on('connection', (socket: Socket) => {
    if (socket.destroyed) return // refused by the connection limit
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
    serveFastLane(socket, lane)
  })

  let ws: WebSocketAttachment | undefined
  if (opts.websocket !== false) {
    ws = attachWebSocketServer(server, {
      methods: config.methods,
      endpoint: config.endpoint,
      limits: config.limits,
      revertCode: config.revertCode,
      debug: config.debug,
      allowedHosts: config.allowedHosts,
      corsOrigins: config.corsOrigins,
      gate: config.gate,
      connectionLimit: config.connectionLimit,
      clientAddress,
      log: config.log,
      ...(opts.flashblocks !== undefined ? { flashblocks: opts.flashblocks } : {}),
      ...(opts.observer !== undefined ? { observer: opts.observer.forTransport('ws') } : {}),
    })
  }

  await listen(front, opts.port, host)
  // node:http only receives handed-over sockets and never listens itself; 'listening' starts its
  // per-connection request and header timeouts.
  server.emit('listening')
  const port = (front.address() as AddressInfo).port
  const authority = `${host.includes(':') ? `[${host}]` : host}:${port}`
  let closing: Promise<void> | undefined
  return {
    url: `http://${authority}`,
    wsUrl: ws === undefined ? undefined : `ws://${authority}`,
    port,
    connections: () => config.connectionLimit.open(),
    close: () => (closing ??= closeServer(front, server, sockets, ws)),
  }
}

function fastLaneOptions(server: Server, config: Config): FastLaneOptions {
  return {
    takes: (head: RequestHead, socket: Socket) => takesFast(head, socket, config),
    answer: (body: string, socket: Socket, scope: RequestScope, head: RequestHead) =>
      answerPayload(body, socket.remoteAddress, scope, config).then((out) => encoded(out, head.headers.get('accept-encoding'))),
    handOver: (socket: Socket) => server.emit('connection', socket),
    idleTimeoutMs: config.limits.idleTimeoutMs,
    onAnswered:
      config.onRequest === undefined
        ? undefined
        : (status, requestBytes, durationMs) => report(config, { method: 'POST', path: '/', status, durationMs, requestBytes }),
    log: config.log,
  }
}

/** Hands one finished request to the onRequest hook; a failing hook is logged, never thrown into the server. */
function report(config: Config, info: HttpRequestInfo): void {
  try {
    config.onRequest?.(info)
  } catch (err) {
    config.log('onRequest hook failed', err)
  }
}

/**
 * Whether the fast lane may answer this request: a keep-alive HTTP/1.1 POST to `/` with a JSON body of
 * declared length within the limit, an allowed Host, no CORS to apply, nothing to negotiate (Expect,
 * Upgrade, Transfer-Encoding, a compressed body) and a connection within the limit. `serve` answers
 * everything else.
 */
function takesFast(head: RequestHead, socket: Socket, config: Config): boolean {
  if (head.method !== 'POST' || head.url !== '/' || !head.http11 || !head.keepAlive || head.upgrade) return false
  const headers = head.headers
  const length = headers.get('content-length')
  if (length === undefined || !/^\d{1,10}$/.test(length) || Number(length) > config.limits.maxBodyBytes) return false
  if (headers.has('transfer-encoding') || headers.has('expect')) return false
  if (headers.has('content-encoding') && requestCoding(headers.get('content-encoding')) !== 'identity') return false
  if (isCorsEnabled(config.corsOrigins) && headers.has('origin')) return false
  if (!isJsonContentType(headers.get('content-type')) || !isHostAllowed(headers.get('host'), config.allowedHosts)) return false
  return !config.connectionLimit.isOverLimit(socket)
}

function listen(server: TcpServer, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onError = (err: Error): void => reject(err)
    server.once('error', onError)
    server.listen(port, host, () => {
      server.off('error', onError)
      resolve()
    })
  })
}

async function closeServer(
  front: TcpServer,
  server: Server,
  sockets: Set<Socket>,
  ws: WebSocketAttachment | undefined,
): Promise<void> {
  await ws?.close()
  await new Promise<void>((resolve) => {
    front.close(() => resolve())
    server.close()
    for (const socket of sockets) socket.destroy()
  })
}

/** node:http connections' requests in progress, and how many bytes they had read when the last one ended. */
const httpActivity = new WeakMap<Socket, { inProgress: number; readAtRest: number }>()

/** A request in progress, or bytes of a next one read since the last ended. */
function httpBusy(socket: Socket): boolean {
  const activity = httpActivity.get(socket)
  return activity !== undefined && (activity.inProgress > 0 || socket.bytesRead > activity.readAtRest)
}

function trackHttpActivity(req: IncomingMessage, res: ServerResponse): void {
  const socket = req.socket
  let activity = httpActivity.get(socket)
  if (activity === undefined) httpActivity.set(socket, (activity = { inProgress: 0, readAtRest: 0 }))
  activity.inProgress++
  const a = activity
  res.once('close', () => {
    a.inProgress--
    a.readAtRest = socket.bytesRead
  })
}

function onHttpRequest(req: IncomingMessage, res: ServerResponse, config: Config): void {
  trackHttpActivity(req, res)
  const onRequest = config.onRequest
  const started = onRequest === undefined ? 0 : performance.now()
  let requestBytes = 0
  if (onRequest !== undefined) res.on('finish', () => {
    report(config, {
      method: req.method ?? '',
      path: pathOf(req),
      status: res.statusCode,
      durationMs: performance.now() - started,
      requestBytes,
    })
  })
  serve(req, res, config, (n) => (requestBytes = n)).catch((err: unknown) => {
    config.log('http request failed', err)
    if (!res.headersSent) sendJson(res, 500, errorMessage(null, { code: RPC_CODES.internal, message: 'internal error' }))
    else res.destroy()
  })
}

async function serve(
  req: IncomingMessage,
  res: ServerResponse,
  config: Config,
  noteBytes: (n: number) => void,
): Promise<void> {
  if (config.connectionLimit.isOverLimit(req.socket)) {
    res.setHeader('Connection', 'close')
    const message = tooManyConnectionsMessage(config.connectionLimit.max)
    return sendJson(res, 503, errorMessage(null, { code: RPC_CODES.limitExceeded, message }))
  }
  if (!isHostAllowed(req.headers.host, config.allowedHosts)) return refuse(res, 403, 'invalid host specified')
  const path = pathOf(req)
  if (req.method === 'GET' || req.method === 'HEAD') {
    if (path === METRICS_PATH && config.metrics !== undefined) return sendMetrics(res, config.metrics)
    if (path === '/healthz') return sendJson(res, 200, HEALTH_BODY)
    if (path === '/status' && config.status !== undefined) return sendJson(res, 200, JSON.stringify(config.status()))
    if (path === '/' && config.page !== undefined && acceptsHtml(req.headers.accept)) return sendPage(res, config.page)
    if (path === '/leader' && config.leader !== undefined) {
      const l = config.leader()
      return sendJson(res, l.leading ? 200 : 503, JSON.stringify(l.body))
    }
    if (path === '/readyz') {
      const r = config.readiness?.() ?? { ready: true, reason: 'serving' }
      const group = config.leader === undefined ? {} : { group: config.leader().body }
      return sendJson(res, r.ready ? 200 : 503, JSON.stringify({ status: r.ready ? 'ready' : 'not ready', reason: r.reason, ...group }))
    }
  }
  if (pathOf(req) !== '/') return refuse(res, 404, 'not found')
  applyCors(req, res, config.corsOrigins)

  const method = req.method ?? ''
  if (method === 'OPTIONS' && isCorsEnabled(config.corsOrigins)) {
    res.writeHead(204, { 'Content-Length': '0' })
    res.end()
    return
  }
  if ((method === 'GET' || method === 'HEAD') && hasNoBody(req)) return sendJson(res, 200, HEALTH_BODY)
  if (method !== 'POST') {
    res.setHeader('Allow', isCorsEnabled(config.corsOrigins) ? 'POST, GET, HEAD, OPTIONS' : 'POST, GET, HEAD')
    return refuse(res, 405, 'method not allowed')
  }
  if (!isJsonContentType(req.headers['content-type'])) {
    return refuse(res, 415, 'invalid content type, only application/json is supported')
  }

  const coding = requestCoding(req.headers['content-encoding'])
  if (coding === 'unsupported') {
    return refuse(res, 415, `unsupported content encoding ${JSON.stringify(req.headers['content-encoding'])}, only gzip is supported`)
  }
  const tooLarge = `request body too large (limit ${config.limits.maxBodyBytes} bytes)`
  const body = await readBody(req, config.limits.maxBodyBytes)
  if (body.kind === 'aborted') return
  if (body.kind === 'tooLarge') {
    res.setHeader('Connection', 'close')
    return refuse(res, 413, tooLarge)
  }
  noteBytes(body.bytes)
  let data = body.data
  if (coding === 'gzip') {
    const inflated = await inflateGzip(data, config.limits.maxBodyBytes)
    if (inflated.kind === 'tooLarge') return refuse(res, 413, `${tooLarge} once inflated`)
    if (inflated.kind === 'invalid') return refuse(res, 400, 'invalid gzip request body')
    data = inflated.data
  }

  const scope = new RequestScope()
  res.on('close', () => {
    if (!res.writableFinished) scope.abort()
  })
  const out = await encoded(await answerPayload(data.toString('utf8'), req.socket.remoteAddress, scope, config), req.headers['accept-encoding'])
  if (res.destroyed) return
  for (const [name, value] of Object.entries(out.headers ?? {})) res.setHeader(name, value)
  if (out.body === null) {
    res.writeHead(204)
    res.end()
    return
  }
  sendJson(res, out.status, out.body)
}

const METRICS_PATH = '/metrics'

function sendPage(res: ServerResponse, page: NonNullable<Config['page']>): void {
  res.writeHead(200, page.headers)
  res.end(res.req.method === 'HEAD' ? undefined : page.body)
}

async function sendMetrics(res: ServerResponse, metrics: NonNullable<Config['metrics']>): Promise<void> {
  const { contentType, body } = await metrics()
  res.writeHead(200, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body) })
  res.end(res.req.method === 'HEAD' ? undefined : body)
}

/**
 * An answer as it goes out to a client with this Accept-Encoding: gzipped when large enough (compression.ts).
 * A small answer (most of them) is returned as it is, without a promise.
 */
function encoded(out: LaneAnswer, acceptEncoding: string | undefined): LaneAnswer | Promise<LaneAnswer> {
  if (out.body === null || typeof out.body !== 'string' || out.body.length < GZIP_FROM_BYTES) return out
  return encodeAnswer(out.body, acceptEncoding).then(({ body, headers }) =>
    headers === undefined ? out : { status: out.status, body, headers: out.headers === undefined ? headers : { ...out.headers, ...headers } },
  )
}

/** One JSON-RPC payload's answer (both lanes): the gate for the client's address, then the envelope. */
function answerPayload(body: string, remote: string | undefined, scope: RequestScope, config: Config): Promise<LaneAnswer> {
  const gate = config.gate?.(clientAddress(remote))
  return answerRpcPayload(body, config.methods, {
    endpoint: config.endpoint,
    limits: config.limits,
    revertCode: config.revertCode,
    debug: config.debug,
    scope,
    log: config.log,
    ...(gate !== undefined ? { gate } : {}),
    ...(config.observer !== undefined ? { observer: config.observer } : {}),
  })
}

/** The client's address as rate limits key it: IPv4-mapped IPv6 (`::ffff:1.2.3.4`) reads as IPv4. */
export function clientAddress(remote: string | undefined): string {
  if (remote === undefined) return 'unknown'
  return remote.startsWith('::ffff:') && remote.includes('.') ? remote.slice(7) : remote
}

function pathOf(req: IncomingMessage): string {
  const url = req.url ?? '/'
  const query = url.indexOf('?')
  return query < 0 ? url : url.slice(0, query)
}

function hasNoBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length']
  return req.headers['transfer-encoding'] === undefined && (length === undefined || Number(length) === 0)
}

/** `application/json`, optionally with parameters (`; charset=utf-8`). */
export function isJsonContentType(header: string | undefined): boolean {
  if (header === undefined) return false
  const semicolon = header.indexOf(';')
  const media = (semicolon < 0 ? header : header.slice(0, semicolon)).trim().toLowerCase()
  return media === 'application/json'
}

function refuse(res: ServerResponse, status: number, message: string): void {
  sendJson(res, status, errorMessage(null, { code: RPC_CODES.invalidRequest, message }))
}

/** Past this size a body is encoded once into a Buffer (measuring its length would be a second pass). */
const ENCODE_ONCE_FROM = 64 * 1024

function sendJson(res: ServerResponse, status: number, body: string | Buffer): void {
  const payload = typeof body === 'string' && body.length >= ENCODE_ONCE_FROM ? Buffer.from(body, 'utf8') : body
  const length = typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': length })
  res.end(res.req.method === 'HEAD' ? undefined : payload)
}
