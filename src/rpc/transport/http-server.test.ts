import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { request as httpRequest, type IncomingMessage } from 'node:http'
import { FlashnodeError } from '../../errors/errors.ts'
import type { MethodHandler, MethodTable } from '../registry.ts'
import { DEFAULT_LIMITS, isJsonContentType, startHttpServer, type HttpRequestInfo, type RunningHttpServer } from './http-server.ts'

type Json = Record<string, unknown>

const logged: unknown[] = []
const log = (_message: string, err: unknown): void => {
  logged.push(err)
}

const methods: MethodTable = new Map<string, MethodHandler>([
  ['echo', async (params) => params],
  ['boom', async () => {
    throw new Error('secret internal detail')
  }],
  ['revert', async () => {
    throw new FlashnodeError('executionReverted', 'execution reverted', { data: '0xdead' })
  }],
  ['wait', (_params, ctx) =>
    new Promise((_resolve, reject) => {
      ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason))
    })],
])

const requests: HttpRequestInfo[] = []
let server: RunningHttpServer
let cors: RunningHttpServer

before(async () => {
  server = await startHttpServer({
    port: 0,
    methods,
    endpoint: 'test',
    limits: { maxBodyBytes: 1024, requestTimeoutMs: 200 },
    log,
    onRequest: (info) => requests.push(info),
  })
  cors = await startHttpServer({
    port: 0,
    methods,
    endpoint: 'test',
    corsOrigins: ['https://app.example'],
    allowedHosts: ['rpc.example.org'],
    log,
  })
})

after(async () => {
  await server.close()
  await cors.close()
})

const post = (body: string, headers: Record<string, string> = {}, url = server.url): Promise<Response> =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body })

async function rpc(body: unknown): Promise<unknown> {
  const res = await post(JSON.stringify(body))
  assert.equal(res.status, 200)
  assert.equal(res.headers.get('content-type'), 'application/json')
  return res.json()
}

/** A raw node:http request, for what fetch cannot do (Host header, streaming a body). */
function raw(opts: { method?: string; path?: string; headers?: Record<string, string>; body?: string | Buffer }): Promise<{
  status: number
  headers: IncomingMessage['headers']
  body: string
}> {
  const { port } = server
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, method: opts.method ?? 'POST', path: opts.path ?? '/', headers: opts.headers, agent: false },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }))
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end(opts.body)
  })
}

test('the returned port is the real one and the url points at it', () => {
  assert.ok(server.port > 0)
  assert.equal(server.url, `http://127.0.0.1:${server.port}`)
  assert.equal(server.wsUrl, `ws://127.0.0.1:${server.port}`)
})

test('POST / round trip with charset in the content type', async () => {
  const res = await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'echo', params: ['a'] }), {
    'content-type': 'application/json; charset=utf-8',
  })
  assert.equal(res.status, 200)
  assert.deepEqual(await res.json(), { jsonrpc: '2.0', id: 1, result: ['a'] })
})

test('parse error over HTTP', async () => {
  const res = await post('{"jsonrpc":"2.0","id":1,')
  assert.equal(res.status, 200)
  assert.equal(await res.text(), '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}')
})

test('invalid request and unknown method over HTTP', async () => {
  assert.deepEqual(await rpc({ jsonrpc: '2.0', id: 1 }), {
    jsonrpc: '2.0',
    id: 1,
    error: { code: -32600, message: 'invalid request' },
  })
  assert.deepEqual(await rpc({ jsonrpc: '2.0', id: 2, method: 'eth_foo' }), {
    jsonrpc: '2.0',
    id: 2,
    error: { code: -32601, message: 'the method eth_foo does not exist/is not available' },
  })
})

test('a notification gets 204 and no body', async () => {
  const res = await post(JSON.stringify({ jsonrpc: '2.0', method: 'echo', params: [] }))
  assert.equal(res.status, 204)
  assert.equal(await res.text(), '')
})

test('batch over HTTP keeps order; empty batch is one error', async () => {
  const out = (await rpc([
    { jsonrpc: '2.0', id: 'b', method: 'echo', params: [2] },
    { jsonrpc: '2.0', id: 'a', method: 'echo', params: [1] },
  ])) as Json[]
  assert.deepEqual(
    out.map((r) => r.id),
    ['b', 'a'],
  )
  assert.deepEqual(await rpc([]), { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'empty batch' } })
})

test('batch too large over HTTP', async () => {
  const big = await startHttpServer({ port: 0, methods, endpoint: 't', limits: { maxBatchItems: 2 }, log })
  try {
    const batch = [1, 2, 3].map((id) => ({ jsonrpc: '2.0', id, method: 'echo' }))
    const res = await post(JSON.stringify(batch), {}, big.url)
    assert.deepEqual(await res.json(), [{ jsonrpc: '2.0', id: 1, error: { code: -32600, message: 'batch too large' } }])
  } finally {
    await big.close()
  }
})

test('depth limit over HTTP', async () => {
  const res = await post('['.repeat(200) + ']'.repeat(200))
  const body = (await res.json()) as Json
  assert.equal((body.error as Json).code, -32600)
  assert.match((body.error as Json).message as string, /nesting too deep/)
})

test('internal error hides the message and stack', async () => {
  logged.length = 0
  const res = await post(JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'boom' }))
  const text = await res.text()
  assert.equal(text, '{"jsonrpc":"2.0","id":5,"error":{"code":-32603,"message":"internal error"}}')
  assert.doesNotMatch(text, /secret|at /)
  assert.equal(logged.length, 1)
})

test('revert keeps its data', async () => {
  assert.deepEqual(await rpc({ jsonrpc: '2.0', id: 1, method: 'revert' }), {
    jsonrpc: '2.0',
    id: 1,
    error: { code: -32000, message: 'execution reverted', data: '0xdead' },
  })
})

test('request deadline answers -32002', async () => {
  assert.deepEqual(await rpc({ jsonrpc: '2.0', id: 1, method: 'wait' }), {
    jsonrpc: '2.0',
    id: 1,
    error: { code: -32002, message: 'request timed out' },
  })
})

test('body over the limit is 413 (declared length)', async () => {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'echo', params: ['x'.repeat(2000)] })
  const res = await post(body)
  assert.equal(res.status, 413)
  assert.equal(res.headers.get('content-type'), 'application/json')
  assert.equal(((await res.json()) as Json).id, null)
})

test('body over the limit is 413 (chunked, no declared length)', { timeout: 5000 }, async () => {
  const res = await new Promise<number>((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port: server.port, method: 'POST', path: '/', agent: false,
        headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } },
      (r) => {
        r.resume()
        resolve(r.statusCode ?? 0)
      },
    )
    req.on('error', (err) => reject(err))
    // Write more than the limit, then keep the request open: the answer must come before the body ends.
    req.write('"' + 'x'.repeat(1500))
  })
  assert.equal(res, 413)
})

test('a body at the limit is accepted', async () => {
  const prefix = '{"jsonrpc":"2.0","id":1,"method":"echo","params":["'
  const suffix = '"]}'
  const body = prefix + 'y'.repeat(1024 - prefix.length - suffix.length) + suffix
  assert.equal(Buffer.byteLength(body), 1024)
  const res = await post(body)
  assert.equal(res.status, 200)
})

test('wrong content type is 415', async () => {
  for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/jsonx']) {
    const res = await post('{}', { 'content-type': type })
    assert.equal(res.status, 415, type)
    assert.equal(res.headers.get('content-type'), 'application/json')
  }
  const none = await raw({ body: '{}' })
  assert.equal(none.status, 415)
})

test('content type parsing', () => {
  assert.equal(isJsonContentType('application/json'), true)
  assert.equal(isJsonContentType('Application/JSON ; charset=UTF-8'), true)
  assert.equal(isJsonContentType('application/json-rpc'), false)
  assert.equal(isJsonContentType(undefined), false)
})

test('other methods are 405; OPTIONS is 405 without CORS', async () => {
  for (const method of ['PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
    const res = await fetch(server.url, { method })
    assert.equal(res.status, 405, method)
    assert.equal(res.headers.get('content-type'), 'application/json')
    await res.arrayBuffer()
  }
})

test('GET / with an empty body is a health check; HEAD too', async () => {
  const res = await fetch(server.url)
  assert.equal(res.status, 200)
  assert.equal(res.headers.get('content-type'), 'application/json')
  assert.deepEqual(await res.json(), { status: 'ok' })
  const head = await fetch(server.url, { method: 'HEAD' })
  assert.equal(head.status, 200)
  assert.equal(await head.text(), '')
})

test('GET with a body is 405', async () => {
  const res = await raw({ method: 'GET', body: '{"a":1}', headers: { 'content-type': 'application/json', 'content-length': '7' } })
  assert.equal(res.status, 405)
})

test('other paths are 404 with a JSON-RPC error body', async () => {
  const res = await fetch(`${server.url}/rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"jsonrpc":"2.0","id":1,"method":"echo"}',
  })
  assert.equal(res.status, 404)
  const body = (await res.json()) as Json
  assert.equal(body.jsonrpc, '2.0')
  assert.equal(body.id, null)
  assert.equal(typeof (body.error as Json).code, 'number')
})

test('a query string on / is fine', async () => {
  const res = await fetch(`${server.url}/?x=1`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"jsonrpc":"2.0","id":1,"method":"echo"}',
  })
  assert.equal(res.status, 200)
})

test('Host check: foreign names are 403, localhost and IPs pass', async () => {
  const evil = await raw({ headers: { host: 'evil.example:8545', 'content-type': 'application/json' }, body: '{}' })
  assert.equal(evil.status, 403)
  assert.equal(evil.headers['content-type'], 'application/json')
  assert.equal(((JSON.parse(evil.body) as Json).error as Json).message, 'invalid host specified')
  const body = '{"jsonrpc":"2.0","id":1,"method":"echo"}'
  for (const host of ['localhost:8545', '127.0.0.1', '[::1]:1']) {
    const ok = await raw({ headers: { host, 'content-type': 'application/json' }, body })
    assert.equal(ok.status, 200, host)
  }
  const health = await raw({ method: 'GET', headers: { host: 'evil.example' } })
  assert.equal(health.status, 403)
})

test('Host check: a configured list replaces localhost', async () => {
  const request = (host: string): Promise<number> =>
    new Promise((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port: cors.port, path: '/', method: 'GET', headers: { host }, agent: false }, (r) => {
        r.resume()
        resolve(r.statusCode ?? 0)
      })
      req.on('error', reject)
      req.end()
    })
  assert.equal(await request('rpc.example.org'), 200)
  assert.equal(await request('localhost'), 403)
  assert.equal(await request('10.0.0.1:8545'), 200)
})

test('CORS: preflight is 204 with headers for an allowed origin; responses carry the origin', async () => {
  const pre = await fetch(cors.url, {
    method: 'OPTIONS',
    headers: { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
  })
  assert.equal(pre.status, 204)
  assert.equal(pre.headers.get('access-control-allow-origin'), 'https://app.example')
  assert.match(pre.headers.get('access-control-allow-methods') ?? '', /POST/)
  const res = await fetch(cors.url, {
    method: 'POST',
    headers: { origin: 'https://app.example', 'content-type': 'application/json' },
    body: '{"jsonrpc":"2.0","id":1,"method":"echo"}',
  })
  assert.equal(res.headers.get('access-control-allow-origin'), 'https://app.example')
  await res.arrayBuffer()
  const other = await fetch(cors.url, { method: 'OPTIONS', headers: { origin: 'https://evil.example' } })
  assert.equal(other.status, 204)
  assert.equal(other.headers.get('access-control-allow-origin'), null)
})

test('CORS is off by default: no allow-origin header', async () => {
  const res = await fetch(server.url, {
    method: 'POST',
    headers: { origin: 'https://app.example', 'content-type': 'application/json' },
    body: '{"jsonrpc":"2.0","id":1,"method":"echo"}',
  })
  assert.equal(res.headers.get('access-control-allow-origin'), null)
  await res.arrayBuffer()
})

test('the server survives garbage and keeps serving', async () => {
  const bodies = ['\u0000\u0001', 'null', '[null]', '"x"', '{"__proto__":{"x":1}}', '\uFFFF'.repeat(10)]
  for (const body of bodies) {
    const res = await post(body)
    assert.equal(res.status, 200, body)
    await res.arrayBuffer()
  }
  assert.deepEqual(await rpc({ jsonrpc: '2.0', id: 1, method: 'echo' }), { jsonrpc: '2.0', id: 1, result: [] })
})

test('onRequest reports each finished request', async () => {
  requests.length = 0
  await rpc({ jsonrpc: '2.0', id: 1, method: 'echo' })
  assert.equal(requests.length, 1)
  assert.equal(requests[0]!.status, 200)
  assert.equal(requests[0]!.method, 'POST')
  assert.ok(requests[0]!.requestBytes > 0)
})

test('default limits', () => {
  assert.deepEqual({ ...DEFAULT_LIMITS }, {
    maxBodyBytes: 5 * 1024 * 1024,
    maxWsMessageBytes: 32 * 1024 * 1024,
    maxWsBufferedBytes: 32 * 1024 * 1024,
    maxBatchItems: 1000,
    maxBatchResponseBytes: 25_000_000,
    maxDepth: 128,
    maxMethodNameLength: 2048,
    requestTimeoutMs: 30_000,
    batchConcurrency: 8,
    maxConnections: 1000,
    maxSubscriptionsPerConnection: 128,
    idleTimeoutMs: 120_000,
  })
})

test('close() ends idle keep-alive connections and frees the port', async () => {
  const s = await startHttpServer({ port: 0, methods, endpoint: 't', log })
  const res = await fetch(s.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"echo"}' })
  await res.arrayBuffer() // the keep-alive socket is now idle in fetch's pool
  await s.close()
  await assert.rejects(fetch(s.url))
})

test('close() also cuts connections with a request still running', { timeout: 5000 }, async () => {
  let started!: () => void
  const running = new Promise<void>((resolve) => (started = resolve))
  const hang: MethodHandler = () => {
    started()
    return new Promise(() => {})
  }
  const s = await startHttpServer({ port: 0, methods: new Map([['hang', hang]]), endpoint: 't', log })
  const pending = fetch(s.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"hang"}' })
  pending.catch(() => {})
  await running
  await s.close()
  await assert.rejects(pending)
})

test('listening on a taken port rejects', async () => {
  await assert.rejects(startHttpServer({ port: server.port, methods, endpoint: 't', log }), /EADDRINUSE/)
})

test('a large answer with multi-byte characters carries its exact byte length and arrives whole', async () => {
  const big = `é€${'0123456789abcdef'.repeat(8_000)}😀`
  // The `cors` server keeps the default 5 MB body limit (the main one is capped at 1 KiB).
  // identity: this is about the plain encoding (compression.test.ts covers gzip).
  const res = await post(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'echo', params: [big] }), { 'accept-encoding': 'identity' }, cors.url)
  assert.equal(res.status, 200)
  assert.equal(res.headers.get('content-encoding'), null)
  const text = await res.text()
  assert.ok(text.length > 64 * 1024, 'large enough to be encoded once into a Buffer')
  assert.equal(Number(res.headers.get('content-length')), Buffer.byteLength(text))
  assert.deepEqual((JSON.parse(text) as Json).result, [big])
})
