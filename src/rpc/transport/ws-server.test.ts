import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { once } from 'node:events'
import { WebSocket } from 'ws'
import type { MethodHandler, MethodTable, RpcConnection } from '../registry.ts'
import { startHttpServer, type RunningHttpServer } from './http-server.ts'
import { Writable } from 'node:stream'
import { coalescedWrites } from './ws-server.ts'

type Json = Record<string, unknown>

let closedConnection: ((id: string) => void) | undefined
const heldSignals: AbortSignal[] = []
let heldStarted: (() => void) | undefined
const connections: RpcConnection[] = []

const methods: MethodTable = new Map<string, MethodHandler>([
  ['echo', async (params) => params],
  ['whoami', async (_p, ctx) => ctx.connection?.id ?? null],
  // A stand-in for eth_subscribe: answers an id, then pushes a notification on the same connection.
  ['subscribe', async (_p, ctx) => {
    const connection = ctx.connection
    if (connection === undefined) throw new Error('no connection')
    connections.push(connection)
    connection.onClose(() => closedConnection?.(connection.id))
    queueMicrotask(() => connection.send('{"jsonrpc":"2.0","method":"sub","params":{"subscription":"0x1","result":"hi"}}'))
    return '0x1'
  }],
  ['hold', (_p, ctx) =>
    new Promise(() => {
      heldSignals.push(ctx.signal)
      heldStarted?.()
    })],
  ['wait', (_p, ctx) =>
    new Promise((_resolve, reject) => {
      ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason))
    })],
])

let server: RunningHttpServer
const clients: WebSocket[] = []

before(async () => {
  server = await startHttpServer({
    port: 0,
    methods,
    endpoint: 'ws-test',
    limits: { maxWsMessageBytes: 4096, requestTimeoutMs: 100 },
    log: () => {},
  })
})

after(async () => {
  for (const client of clients) client.terminate()
  await server.close()
})

async function connect(headers?: Record<string, string>): Promise<WebSocket> {
  const ws = new WebSocket(server.wsUrl!, { headers })
  clients.push(ws)
  await once(ws, 'open')
  return ws
}

async function next(ws: WebSocket): Promise<unknown> {
  const [data] = (await once(ws, 'message')) as [Buffer]
  return JSON.parse(data.toString())
}

test('WS round trip', async () => {
  const ws = await connect()
  ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'echo', params: ['hello'] }))
  assert.deepEqual(await next(ws), { jsonrpc: '2.0', id: 1, result: ['hello'] })
  ws.send('{"jsonrpc":"2.0","id":2,"method":"nope"}')
  assert.deepEqual(await next(ws), {
    jsonrpc: '2.0',
    id: 2,
    error: { code: -32601, message: 'the method nope does not exist/is not available' },
  })
  ws.send('{oops')
  assert.deepEqual(await next(ws), { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } })
})

test('WS batch keeps order and skips notifications', async () => {
  const ws = await connect()
  ws.send(
    JSON.stringify([
      { jsonrpc: '2.0', id: 'x', method: 'echo', params: [1] },
      { jsonrpc: '2.0', method: 'echo', params: [2] },
      { jsonrpc: '2.0', id: 'y', method: 'echo', params: [3] },
    ]),
  )
  const out = (await next(ws)) as Json[]
  assert.deepEqual(out, [
    { jsonrpc: '2.0', id: 'x', result: [1] },
    { jsonrpc: '2.0', id: 'y', result: [3] },
  ])
})

test('WS binary frames are read as UTF-8 JSON', async () => {
  const ws = await connect()
  ws.send(Buffer.from('{"jsonrpc":"2.0","id":3,"method":"echo"}'), { binary: true })
  assert.deepEqual(await next(ws), { jsonrpc: '2.0', id: 3, result: [] })
})

test('a notification over WS gets no answer (the next answer belongs to the next request)', async () => {
  const ws = await connect()
  ws.send('{"jsonrpc":"2.0","method":"echo","params":["silent"]}')
  ws.send('{"jsonrpc":"2.0","id":9,"method":"echo","params":["loud"]}')
  assert.deepEqual(await next(ws), { jsonrpc: '2.0', id: 9, result: ['loud'] })
})

test('handlers see the connection: push after the answer, onClose when the client leaves', async () => {
  const ws = await connect()
  const messages: unknown[] = []
  ws.on('message', (d: Buffer) => messages.push(JSON.parse(d.toString())))
  ws.send('{"jsonrpc":"2.0","id":1,"method":"subscribe"}')
  ws.send('{"jsonrpc":"2.0","id":2,"method":"whoami"}')
  while (messages.length < 3) await once(ws, 'message')
  assert.deepEqual(messages.find((m) => (m as Json).id === 1), { jsonrpc: '2.0', id: 1, result: '0x1' })
  assert.deepEqual(messages.find((m) => (m as Json).method === 'sub'), {
    jsonrpc: '2.0',
    method: 'sub',
    params: { subscription: '0x1', result: 'hi' },
  })
  const connection = connections.at(-1)!
  assert.equal((messages.find((m) => (m as Json).id === 2) as Json).result, connection.id)
  assert.match(connection.id, /^ws-/)

  const closed = new Promise<string>((resolve) => (closedConnection = resolve))
  ws.close()
  assert.equal(await closed, connection.id)
  connection.send('{"late":true}') // a no-op after close, must not throw
  const late = new Promise<void>((resolve) => connection.onClose(resolve))
  await late // registered after close: still runs
})

test('messages sent in one run leave the socket in one write, and later runs in writes of their own', async () => {
  const writes: number[] = []
  const socket = new Writable({
    write(_chunk, _encoding, done) {
      writes.push(1)
      done()
    },
    writev(chunks, done) {
      writes.push(chunks.length)
      done()
    },
  })
  const coalesce = coalescedWrites(socket)
  for (let i = 0; i < 5; i++) {
    coalesce()
    // ws corks around each frame's header and body: a nested cork, which must not flush
    socket.cork()
    socket.write(`header ${i}`)
    socket.write(`body ${i}`)
    socket.uncork()
  }
  assert.deepEqual(writes, [], 'nothing written during the run')
  await Promise.resolve()
  assert.deepEqual(writes, [10], 'the run in one write')
  coalesce()
  socket.write('next run')
  await Promise.resolve()
  assert.deepEqual(writes, [10, 1])
})

test('a burst of pushes in one run reaches the client whole and in order', async () => {
  const ws = await connect()
  const messages: string[] = []
  ws.on('message', (d: Buffer) => messages.push(d.toString()))
  ws.send('{"jsonrpc":"2.0","id":1,"method":"subscribe"}')
  while (messages.length < 2) await once(ws, 'message')
  const connection = connections.at(-1)!
  const burst = Array.from({ length: 200 }, (_, i) => JSON.stringify({ jsonrpc: '2.0', method: 'sub', params: { subscription: '0x1', result: i } }))
  for (const m of burst) connection.send(m)
  while (messages.length < 2 + burst.length) await once(ws, 'message')
  assert.deepEqual(messages.slice(2), burst)
})

test('closing the connection aborts its in-flight requests', { timeout: 5000 }, async () => {
  const ws = await connect()
  const started = new Promise<void>((resolve) => (heldStarted = resolve))
  ws.send('{"jsonrpc":"2.0","id":1,"method":"hold"}')
  await started
  const signal = heldSignals.at(-1)!
  assert.equal(signal.aborted, false)
  const aborted = once(signal, 'abort')
  ws.close()
  await aborted
  assert.equal(signal.aborted, true)
})

test('connections get distinct ids', async () => {
  const a = await connect()
  const b = await connect()
  a.send('{"jsonrpc":"2.0","id":1,"method":"whoami"}')
  b.send('{"jsonrpc":"2.0","id":1,"method":"whoami"}')
  const [ra, rb] = (await Promise.all([next(a), next(b)])) as Json[]
  assert.notEqual(ra!.result, rb!.result)
})

test('WS request deadline answers -32002', async () => {
  const ws = await connect()
  ws.send('{"jsonrpc":"2.0","id":1,"method":"wait"}')
  assert.deepEqual(await next(ws), { jsonrpc: '2.0', id: 1, error: { code: -32002, message: 'request timed out' } })
})

test('a message over the size limit closes the connection with 1009', async () => {
  const ws = await connect()
  ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'echo', params: ['z'.repeat(5000)] }))
  const [code] = (await once(ws, 'close')) as [number]
  assert.equal(code, 1009)
})

test('a message at the limit is served', async () => {
  const ws = await connect()
  const prefix = '{"jsonrpc":"2.0","id":1,"method":"echo","params":["'
  const suffix = '"]}'
  ws.send(prefix + 'z'.repeat(4096 - prefix.length - suffix.length) + suffix)
  const res = (await next(ws)) as Json
  assert.equal((res.result as string[])[0]!.length, 4096 - prefix.length - suffix.length)
})

async function upgradeStatus(path: string, headers: Record<string, string>): Promise<number> {
  const ws = new WebSocket(`${server.wsUrl}${path}`, { headers })
  clients.push(ws)
  ws.on('error', () => {})
  return new Promise<number>((resolve) => {
    ws.once('open', () => resolve(101))
    ws.once('unexpected-response', (_req, res: { statusCode: number; resume(): void }) => {
      res.resume()
      resolve(res.statusCode)
    })
  })
}

test('upgrade: foreign Host is 403, foreign browser Origin is 403, other paths 404', async () => {
  assert.equal(await upgradeStatus('/', { host: 'evil.example' }), 403)
  assert.equal(await upgradeStatus('/', { origin: 'https://evil.example' }), 403)
  assert.equal(await upgradeStatus('/other', {}), 404)
  const fromLocalPage = await connect({ origin: 'http://localhost:3000' })
  assert.equal(fromLocalPage.readyState, WebSocket.OPEN)
})

test('close() closes open WebSocket clients with 1001', async () => {
  const s = await startHttpServer({ port: 0, methods, endpoint: 't', log: () => {} })
  const ws = new WebSocket(s.wsUrl!)
  clients.push(ws)
  await once(ws, 'open')
  const closed = once(ws, 'close')
  await s.close()
  const [code] = (await closed) as [number]
  assert.equal(code, 1001)
})

test('a client that stops reading is cut once what waits for it passes maxWsBufferedBytes; others carry on', { timeout: 30_000 }, async () => {
  const logged: string[] = []
  let flood: RpcConnection | undefined
  let pushed = 0
  const table: MethodTable = new Map<string, MethodHandler>([
    ['echo', async (params) => params],
    ['flood', async (_p, ctx) => {
      flood = ctx.connection
      return 'ok'
    }],
  ])
  const s = await startHttpServer({ port: 0, methods: table, endpoint: 't', limits: { maxWsBufferedBytes: 256 * 1024 }, log: (m) => logged.push(m) })
  try {
    const slow = new WebSocket(s.wsUrl!)
    clients.push(slow)
    await once(slow, 'open')
    slow.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'flood', params: [] }))
    await once(slow, 'message')
    const closed = once(slow, 'close')
    ;(slow as unknown as { _socket: { pause(): void } })._socket.pause() // the client reads nothing more
    // Notifications of 64 KiB each until the server gives up on it (bounded: 64 MiB at most).
    const note = JSON.stringify({ jsonrpc: '2.0', method: 'sub', params: { result: 'x'.repeat(64 * 1024) } })
    let closedSeen = false
    void closed.then(() => (closedSeen = true))
    for (; pushed < 1024 && logged.length === 0; pushed++) {
      flood!.send(note)
      if (pushed % 16 === 0) await new Promise((resolve) => setImmediate(resolve))
    }
    assert.deepEqual(logged, ['websocket client not reading'])
    ;(slow as unknown as { _socket: { resume(): void } })._socket.resume()
    await closed
    assert.ok(closedSeen)
    assert.ok(pushed < 1024, `cut after ${pushed} notifications, not at the end of the flood`)
    const other = new WebSocket(s.wsUrl!)
    clients.push(other)
    await once(other, 'open')
    other.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'echo', params: ['still here'] }))
    const [reply] = (await once(other, 'message')) as [Buffer]
    assert.deepEqual((JSON.parse(String(reply)) as Json).result, ['still here'])
  } finally {
    await s.close()
  }
})
