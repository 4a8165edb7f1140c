import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { connect, type Socket } from 'node:net'
import { WebSocket } from 'ws'
import type { MethodHandler, MethodTable } from '../registry.ts'
import { startHttpServer, type RunningHttpServer } from './http-server.ts'

// The fast lane seen from a raw TCP client: the bytes a client may send (pipelined, split anywhere, mixed
// with requests only node:http answers) and what comes back.

let release: (() => void) | undefined
const aborted: string[] = []
const methods: MethodTable = new Map<string, MethodHandler>([
  ['echo', async (params) => params],
  ['slow', () => new Promise((resolve) => (release = () => resolve('slow done')))],
  ['hold', (params, ctx) =>
    new Promise((_resolve, reject) => {
      ctx.signal.addEventListener('abort', () => {
        aborted.push(String(params[0]))
        reject(ctx.signal.reason)
      })
    })],
  ['big', async (params) => 'é'.repeat(Number(params[0]))],
])

let server: RunningHttpServer

before(async () => {
  server = await startHttpServer({ port: 0, methods, endpoint: 'test', limits: { maxBodyBytes: 4096 }, log: () => {} })
})

after(async () => {
  await server.close()
})

const call = (id: number, method: string, params: unknown[] = []): string =>
  JSON.stringify({ jsonrpc: '2.0', id, method, params })

function post(body: string, extraHeaders = ''): string {
  return (
    `POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${extraHeaders}` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  )
}

const HEALTH = 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'

interface Response {
  status: number
  headers: Map<string, string>
  body: string
}

/** A raw client: writes bytes as given, parses responses (Content-Length framed) as they come. */
class RawClient {
  readonly socket: Socket
  #buffer = Buffer.alloc(0)
  #waiters: ((r: Response) => void)[] = []
  #ready: Response[] = []
  closed: Promise<void>

  constructor(port: number) {
    this.socket = connect(port, '127.0.0.1')
    this.closed = new Promise((resolve) => this.socket.once('close', () => resolve()))
    this.socket.on('data', (chunk: Buffer) => {
      this.#buffer = Buffer.concat([this.#buffer, chunk])
      this.#parse()
    })
  }

  async write(...parts: (string | Buffer)[]): Promise<void> {
    for (const part of parts) {
      await new Promise<void>((resolve, reject) => this.socket.write(part, (err) => (err ? reject(err) : resolve())))
      // Separate writes reach the server as separate chunks often enough; the lane must not depend on it.
      await new Promise((resolve) => setImmediate(resolve))
    }
  }

  next(): Promise<Response> {
    const ready = this.#ready.shift()
    if (ready !== undefined) return Promise.resolve(ready)
    return new Promise((resolve) => this.#waiters.push(resolve))
  }

  #parse(): void {
    for (;;) {
      const end = this.#buffer.indexOf('\r\n\r\n')
      if (end < 0) return
      const lines = this.#buffer.toString('latin1', 0, end).split('\r\n')
      const status = Number(lines[0]!.split(' ')[1])
      const headers = new Map(lines.slice(1).map((line) => {
        const colon = line.indexOf(':')
        return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()] as [string, string]
      }))
      const length = Number(headers.get('content-length') ?? 0)
      if (this.#buffer.length < end + 4 + length) return
      const body = this.#buffer.toString('utf8', end + 4, end + 4 + length)
      this.#buffer = this.#buffer.subarray(end + 4 + length)
      const response = { status, headers, body }
      const waiter = this.#waiters.shift()
      if (waiter !== undefined) waiter(response)
      else this.#ready.push(response)
    }
  }

  close(): void {
    this.socket.destroy()
  }
}

const resultOf = (r: Response): unknown => (JSON.parse(r.body) as { result: unknown }).result

test('pipelined requests in one write are answered in order, a slow one holding back the rest', async () => {
  const client = new RawClient(server.port)
  await client.write(post(call(1, 'slow')) + post(call(2, 'echo', ['b'])) + post(call(3, 'echo', ['c'])))
  const first = client.next()
  await new Promise((resolve) => setTimeout(resolve, 20))
  release!()
  const answers = [await first, await client.next(), await client.next()]
  assert.deepEqual(answers.map((r) => r.status), [200, 200, 200])
  assert.deepEqual(answers.map(resultOf), ['slow done', ['b'], ['c']])
  assert.equal(answers[0]!.headers.get('connection'), 'keep-alive')
  assert.equal(answers[0]!.headers.get('content-type'), 'application/json')
  client.close()
})

test('a request split byte by byte is answered whole', async () => {
  const client = new RawClient(server.port)
  const bytes = Buffer.from(post(call(7, 'echo', ['split ✓'])))
  await client.write(...Array.from({ length: bytes.length }, (_, i) => bytes.subarray(i, i + 1)))
  assert.deepEqual(resultOf(await client.next()), ['split ✓'])
  client.close()
})

test('a request node:http must answer hands the connection over, after the earlier answers, in order', async () => {
  const client = new RawClient(server.port)
  // One write: a fast POST, a health check (GET), then a POST that node:http now answers too.
  await client.write(post(call(1, 'echo', ['before'])) + HEALTH + post(call(2, 'echo', ['after'])))
  const answers = [await client.next(), await client.next(), await client.next()]
  assert.deepEqual(answers.map((r) => r.status), [200, 200, 200])
  assert.deepEqual(resultOf(answers[0]!), ['before'])
  assert.deepEqual(JSON.parse(answers[1]!.body), { status: 'ok' })
  assert.deepEqual(resultOf(answers[2]!), ['after'])
  client.close()
})

test('a hand-over in the middle of a split request keeps every byte of it', async () => {
  const client = new RawClient(server.port)
  await client.write(post(call(1, 'echo', ['fast'])))
  assert.deepEqual(resultOf(await client.next()), ['fast'])
  const over = post(call(2, 'echo', ['via node:http']), 'Connection: close\r\n')
  await client.write(over.slice(0, 10), over.slice(10, 60), over.slice(60))
  const answer = await client.next()
  assert.equal(answer.status, 200)
  assert.deepEqual(resultOf(answer), ['via node:http'])
  await client.closed // node:http honoured Connection: close
})

test('refusals still come from node:http: 415, 404, 413 and a request it cannot parse', async () => {
  const client = new RawClient(server.port)
  await client.write(post(call(1, 'echo')).replace('application/json', 'text/plain'))
  assert.equal((await client.next()).status, 415)
  client.close()

  const other = new RawClient(server.port)
  await other.write(post(call(1, 'echo')).replace('POST / ', 'POST /x '))
  assert.equal((await other.next()).status, 404)
  other.close()

  const large = new RawClient(server.port)
  await large.write(post(call(1, 'echo', ['x'.repeat(5000)])))
  assert.equal((await large.next()).status, 413)
  large.close()

  const garbage = new RawClient(server.port)
  await garbage.write(post(call(1, 'echo', ['ok'])) + 'NOT HTTP AT ALL\r\n\r\n')
  assert.deepEqual(resultOf(await garbage.next()), ['ok'])
  assert.equal((await garbage.next()).status, 400)
  garbage.close()
})

test('a notification is 204 with no body; a large multi-byte answer carries its byte length', async () => {
  const client = new RawClient(server.port)
  await client.write(post(JSON.stringify({ jsonrpc: '2.0', method: 'echo', params: [] })))
  const notified = await client.next()
  assert.equal(notified.status, 204)
  assert.equal(notified.body, '')
  await client.write(post(call(2, 'big', [40_000])))
  const big = await client.next()
  assert.equal(Number(big.headers.get('content-length')), Buffer.byteLength(big.body))
  assert.equal(resultOf(big), 'é'.repeat(40_000))
  client.close()
})

test('a client that goes away aborts its requests still running', async () => {
  const client = new RawClient(server.port)
  await client.write(post(call(1, 'hold', ['gone-1'])) + post(call(2, 'hold', ['gone-2'])))
  await new Promise((resolve) => setTimeout(resolve, 20))
  client.close()
  for (let i = 0; i < 50 && aborted.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 10))
  assert.deepEqual(aborted.sort(), ['gone-1', 'gone-2'])
})

test('WebSocket upgrades still work, also after POSTs on other connections', async () => {
  const client = new RawClient(server.port)
  await client.write(post(call(1, 'echo', ['x'])))
  await client.next()
  const ws = new WebSocket(server.wsUrl!)
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
  const reply = new Promise<string>((resolve) => ws.once('message', (data) => resolve(String(data))))
  ws.send(call(9, 'echo', ['over ws']))
  assert.deepEqual((JSON.parse(await reply) as { result: unknown }).result, ['over ws'])
  ws.close()
  client.close()
})
