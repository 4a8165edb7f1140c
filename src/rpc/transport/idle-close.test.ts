import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { connect, type Socket } from 'node:net'
import type { MethodHandler, MethodTable } from '../registry.ts'
import { startHttpServer } from './http-server.ts'
import { idleCloseAfterMs } from './idle-close.ts'

// Idle keep-alive connections, on both lanes (the fast lane, and node:http after a hand-over), seen from a
// raw TCP client. The race under test: a client sends its next request just as the server's idle timer
// fires. The test makes that moment exact by blocking the event loop (the server runs in this process)
// past the idle time right after writing the request: when the loop runs again, the timer fires before the
// server has read the request.

const methods: MethodTable = new Map<string, MethodHandler>([['echo', async (params) => params]])
const IDLE_MS = 100

async function server(t: TestContext, idleTimeoutMs?: number) {
  const s = await startHttpServer({
    port: 0,
    methods,
    endpoint: 'test',
    ...(idleTimeoutMs !== undefined ? { limits: { idleTimeoutMs } } : {}),
    log: () => {},
  })
  t.after(() => s.close())
  return s
}

const post = (id: number, word: string): string => {
  const body = JSON.stringify({ jsonrpc: '2.0', id, method: 'echo', params: [word] })
  return `POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
}
/** A health check: the fast lane hands the connection to node:http for good. */
const HEALTH = 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'

interface Answer {
  readonly status: number
  readonly headers: Map<string, string>
  readonly body: string
}

/** A keep-alive client on a raw socket: answers are parsed as they come; a close or reset ends the wait. */
class Client {
  readonly socket: Socket
  readonly closed: Promise<string>
  private buffer = Buffer.alloc(0)
  private waiter: ((a: Answer) => void) | undefined

  constructor(port: number) {
    this.socket = connect(port, '127.0.0.1')
    this.closed = new Promise((resolve) => {
      this.socket.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message))
      this.socket.once('close', () => resolve('closed'))
    })
    this.socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk])
      const end = this.buffer.indexOf('\r\n\r\n')
      if (end < 0) return
      const lines = this.buffer.toString('latin1', 0, end).split('\r\n')
      const headers = new Map(lines.slice(1).map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()] as [string, string]))
      const length = Number(headers.get('content-length') ?? 0)
      if (this.buffer.length < end + 4 + length) return
      const answer = { status: Number(lines[0]!.split(' ')[1]), headers, body: this.buffer.toString('utf8', end + 4, end + 4 + length) }
      this.buffer = this.buffer.subarray(end + 4 + length)
      this.waiter?.(answer)
    })
  }

  /** The next answer, or a rejection saying how the connection ended first. */
  next(): Promise<Answer> {
    return Promise.race([
      new Promise<Answer>((resolve) => (this.waiter = resolve)),
      this.closed.then((how) => Promise.reject(new Error(`connection ended before the answer: ${how}`))),
    ])
  }

  write(bytes: string): Promise<void> {
    return new Promise((resolve, reject) => this.socket.write(bytes, (e) => (e ? reject(e) : resolve())))
  }
}

/** Holds this thread (client and server alike) until `ms` have passed: the server's timers fire late. */
function blockFor(ms: number): void {
  const until = performance.now() + ms
  while (performance.now() < until) {
    // busy: the event loop does not run
  }
}

const resultOf = (a: Answer): unknown => (JSON.parse(a.body) as { result: unknown }).result

test('Keep-Alive advertises the idle timeout on both lanes: 120 s by default', async (t) => {
  const s = await server(t)
  const fast = new Client(s.port)
  await fast.write(post(1, 'a'))
  assert.equal((await fast.next()).headers.get('keep-alive'), 'timeout=120')
  await fast.write(HEALTH)
  assert.equal((await fast.next()).headers.get('keep-alive'), 'timeout=120', 'node:http, after the hand-over')
  fast.socket.destroy()
  const short = await server(t, 2_500)
  const c = new Client(short.port)
  await c.write(post(1, 'a'))
  assert.equal((await c.next()).headers.get('keep-alive'), 'timeout=2')
  c.socket.destroy()
})

for (const lane of ['fast lane', 'node:http'] as const) {
  test(`${lane}: a request that starts arriving just as the idle timer fires is answered`, { timeout: 20_000 }, async (t) => {
    const s = await server(t, IDLE_MS)
    const client = new Client(s.port)
    await client.write(lane === 'fast lane' ? post(1, 'first') : HEALTH)
    assert.equal((await client.next()).status, 200)
    // The connection is idle from here. Send the next request, then keep the server from reading it
    // until its idle timer is overdue.
    await client.write(post(2, 'second'))
    blockFor(idleCloseAfterMs(IDLE_MS) + 200)
    assert.deepEqual(resultOf(await client.next()), ['second'])
    client.socket.destroy()
  })

  test(`${lane}: a request partly received when the idle timer fires is kept and answered`, { timeout: 20_000 }, async (t) => {
    const s = await server(t, IDLE_MS)
    const client = new Client(s.port)
    await client.write(lane === 'fast lane' ? post(1, 'first') : HEALTH)
    assert.equal((await client.next()).status, 200)
    const request = post(2, 'second')
    const half = request.length >> 1
    await client.write(request.slice(0, half))
    // Real time, not a blocked loop: the server reads the first half, then its idle timer fires (if it
    // has not fired by the end of this wait, the test passes without proving anything, never wrongly).
    await new Promise((resolve) => setTimeout(resolve, idleCloseAfterMs(IDLE_MS) + 300))
    await client.write(request.slice(half))
    assert.deepEqual(resultOf(await client.next()), ['second'])
    client.socket.destroy()
  })

  test(`${lane}: an idle connection is closed once the idle time and its grace have passed`, { timeout: 20_000 }, async (t) => {
    const s = await server(t, IDLE_MS)
    const client = new Client(s.port)
    await client.write(lane === 'fast lane' ? post(1, 'first') : HEALTH)
    await client.next()
    const answered = performance.now()
    assert.equal(await client.closed, 'closed')
    const after = performance.now() - answered
    assert.ok(after >= idleCloseAfterMs(IDLE_MS) - 20, `closed after ${after.toFixed(0)} ms`)
  })
}
