import { test } from 'node:test'
import assert from 'node:assert/strict'
import { once } from 'node:events'
import { connect, type Socket } from 'node:net'
import { WebSocket } from 'ws'
import type { MethodHandler, MethodTable } from '../registry.ts'
import { startHttpServer, type RunningHttpServer } from './http-server.ts'

const methods: MethodTable = new Map<string, MethodHandler>([['echo', async (params) => params]])
const REQUEST = '{"jsonrpc":"2.0","id":1,"method":"echo","params":[1]}'

/** Waits (by polling the event loop, bounded) until `ok()` holds. */
async function until(ok: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 2_000
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setImmediate(resolve))
  }
}

async function openSocket(server: RunningHttpServer): Promise<Socket> {
  const socket = connect(server.port, '127.0.0.1')
  await once(socket, 'connect')
  return socket
}

/** One raw HTTP/1.1 POST on `socket`; resolves with the whole response text once the server closes or answers. */
function exchange(socket: Socket, body = REQUEST): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = ''
    const onData = (chunk: Buffer): void => {
      text += chunk.toString()
      const split = text.indexOf('\r\n\r\n')
      const length = /content-length: (\d+)/i.exec(text)
      if (split >= 0 && length !== null && text.length >= split + 4 + Number(length[1])) done()
    }
    const done = (): void => {
      socket.off('data', onData)
      resolve(text)
    }
    socket.on('data', onData)
    socket.once('end', done)
    socket.once('error', reject)
    socket.write(
      `POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    )
  })
}

const bodyOf = (response: string): Record<string, unknown> =>
  JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>

test('a connection past maxConnections gets 503 with a JSON-RPC error naming the limit, then is closed', async (t) => {
  const server = await startHttpServer({ port: 0, methods, endpoint: 't', limits: { maxConnections: 2 }, log: () => {} })
  t.after(() => server.close())
  const first = await openSocket(server)
  const second = await openSocket(server)
  await until(() => server.connections() === 2, 'two connections')
  assert.match(await exchange(first), /^HTTP\/1.1 200/, 'connections within the limit are served (and kept alive)')

  const third = await openSocket(server)
  const closed = once(third, 'close')
  const refused = await exchange(third)
  assert.match(refused, /^HTTP\/1.1 503/)
  assert.match(refused, /connection: close/i)
  assert.deepEqual(bodyOf(refused), {
    jsonrpc: '2.0',
    id: null,
    error: { code: -32005, message: 'too many connections (limit 2)' },
  })
  await closed
  assert.equal(server.connections(), 2, 'the refused connection never counted')

  second.destroy()
  await until(() => server.connections() === 1, 'the slot to free')
  const fourth = await openSocket(server)
  assert.match(await exchange(fourth), /^HTTP\/1.1 200/, 'a freed slot is taken by the next client')
  assert.match(await exchange(first), /^HTTP\/1.1 200/, 'the kept-alive connection still works')
  first.destroy()
  fourth.destroy()
})

test('WebSockets count against the same limit, and an upgrade over it is refused 503', async (t) => {
  const server = await startHttpServer({ port: 0, methods, endpoint: 't', limits: { maxConnections: 1 }, log: () => {} })
  t.after(() => server.close())
  const ws = new WebSocket(server.wsUrl!)
  await once(ws, 'open')
  await until(() => server.connections() === 1, 'the WebSocket to count')

  const refused = new WebSocket(server.wsUrl!)
  const [, response] = (await once(refused, 'unexpected-response')) as [unknown, import('node:http').IncomingMessage]
  assert.equal(response.statusCode, 503)
  let text = ''
  for await (const chunk of response) text += String(chunk)
  assert.deepEqual(JSON.parse(text), { jsonrpc: '2.0', id: null, error: { code: -32005, message: 'too many connections (limit 1)' } })
  const http = await openSocket(server)
  assert.match(await exchange(http), /^HTTP\/1.1 503/, 'plain HTTP is refused too while the WebSocket holds the slot')
  http.destroy()

  ws.close()
  await once(ws, 'close')
  await until(() => server.connections() === 0, 'the WebSocket slot to free')
  const after = await openSocket(server)
  assert.match(await exchange(after), /^HTTP\/1.1 200/)
  after.destroy()
})
