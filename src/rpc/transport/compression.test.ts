import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { gunzipSync, gzipSync } from 'node:zlib'
import type { MethodHandler, MethodTable } from '../registry.ts'
import { acceptsGzip, GZIP_FROM_BYTES, requestCoding } from './compression.ts'
import { startHttpServer, type RunningHttpServer } from './http-server.ts'

const LIMIT = 4096
const methods: MethodTable = new Map<string, MethodHandler>([
  ['echo', async (params) => params],
  /** A string of `n` hex digits. */
  ['blob', async (params) => `0x${'ab'.repeat(Number(params[0]) / 2)}`],
])

let server: RunningHttpServer
before(async () => {
  server = await startHttpServer({ port: 0, methods, endpoint: 'gzip', limits: { maxBodyBytes: LIMIT }, log: () => {} })
})
after(() => server.close())

interface Reply {
  readonly status: number
  readonly headers: IncomingHttpHeaders
  readonly raw: Buffer
}

/** One POST; `agent` keep-alive goes to the fast lane, none (Connection: close) to node:http. */
function send(body: string | Buffer, headers: Record<string, string>, agent?: Agent): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port: server.port, method: 'POST', path: '/', agent: agent ?? false, headers: { 'content-type': 'application/json', ...headers } },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, raw: Buffer.concat(chunks) }))
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

const call = (method: string, params: unknown[]): string => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params })
const expected = (result: unknown): string => JSON.stringify({ jsonrpc: '2.0', id: 1, result })

test('Accept-Encoding: gzip by name or *, not with q=0', () => {
  for (const yes of ['gzip', 'gzip, deflate', 'br;q=1, GZIP;q=0.5', '*', 'deflate, *;q=0.1']) assert.equal(acceptsGzip(yes), true, yes)
  for (const no of [undefined, '', 'deflate, br', 'gzip;q=0', 'gzip;q=0, *', 'identity']) assert.equal(acceptsGzip(no), false, String(no))
  assert.deepEqual(['gzip', ' GZIP ', 'x-gzip', 'identity', undefined, 'br'].map((h) => requestCoding(h)), ['gzip', 'gzip', 'gzip', 'identity', 'identity', 'unsupported'])
})

test('both lanes gzip an answer of 1 KiB or more for a client that accepts it, and only then', async (t) => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  t.after(() => agent.destroy())
  const big = GZIP_FROM_BYTES * 4
  for (const lane of [agent, undefined]) {
    const name = lane === undefined ? 'node:http' : 'fast lane'
    const zipped = await send(call('blob', [big]), { 'accept-encoding': 'gzip, deflate' }, lane)
    assert.equal(zipped.status, 200)
    assert.equal(zipped.headers['content-encoding'], 'gzip', name)
    assert.equal(zipped.headers['vary'], 'Accept-Encoding')
    assert.equal(zipped.headers['content-type'], 'application/json')
    assert.equal(Number(zipped.headers['content-length']), zipped.raw.length)
    const text = expected(`0x${'ab'.repeat(big / 2)}`)
    assert.equal(gunzipSync(zipped.raw).toString(), text)
    assert.ok(zipped.raw.length < text.length / 4, `${name}: ${zipped.raw.length} bytes for ${text.length}`)

    const plain = await send(call('blob', [big]), {}, lane)
    assert.equal(plain.headers['content-encoding'], undefined, `${name}: no Accept-Encoding, no gzip`)
    assert.equal(plain.raw.toString(), text)
    const refused = await send(call('blob', [big]), { 'accept-encoding': 'gzip;q=0' }, lane)
    assert.equal(refused.headers['content-encoding'], undefined)

    const small = await send(call('echo', ['x']), { 'accept-encoding': 'gzip' }, lane)
    assert.equal(small.headers['content-encoding'], undefined, `${name}: a small answer goes as it is`)
    assert.equal(small.raw.toString(), expected(['x']))
  }
})

test('a gzip request body is inflated and answered, on a kept-alive connection too', async (t) => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  t.after(() => agent.destroy())
  const body = call('echo', ['hello', 'y'.repeat(1000)])
  for (const lane of [agent, undefined]) {
    const res = await send(gzipSync(body), { 'content-encoding': 'gzip' }, lane)
    assert.equal(res.status, 200)
    assert.equal(res.raw.toString(), expected(['hello', 'y'.repeat(1000)]))
  }
  const after = await send(call('echo', [1]), {}, agent)
  assert.equal(after.raw.toString(), expected([1]), 'the connection serves on')
})

test('the body limit is the inflated size: a small zip bomb is 413; not gzip 400; another coding 415', async () => {
  const bomb = gzipSync(Buffer.alloc(LIMIT * 100, 0x20))
  assert.ok(bomb.length < LIMIT, 'its compressed form is within the limit')
  const refused = await send(bomb, { 'content-encoding': 'gzip' })
  assert.equal(refused.status, 413)
  assert.equal(JSON.parse(refused.raw.toString()).error.message, `request body too large (limit ${LIMIT} bytes) once inflated`)

  const exact = `{"jsonrpc":"2.0","id":1,"method":"echo","params":[]}`.padEnd(LIMIT, ' ')
  assert.equal((await send(gzipSync(exact), { 'content-encoding': 'gzip' })).status, 200, 'exactly the limit passes')
  assert.equal((await send(gzipSync(exact + ' '), { 'content-encoding': 'gzip' })).status, 413, 'one byte more does not')

  const notGzip = await send(call('echo', []), { 'content-encoding': 'gzip' })
  assert.equal(notGzip.status, 400)
  assert.equal(JSON.parse(notGzip.raw.toString()).error.message, 'invalid gzip request body')
  const brotli = await send(call('echo', []), { 'content-encoding': 'br' })
  assert.equal(brotli.status, 415)
  assert.equal(JSON.parse(brotli.raw.toString()).error.message, 'unsupported content encoding "br", only gzip is supported')
})
