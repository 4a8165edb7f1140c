import { test } from 'node:test'
import assert from 'node:assert/strict'
import { once } from 'node:events'
import { WebSocket } from 'ws'
import { FlashnodeError } from '../../errors/errors.ts'
import type { MethodHandler, MethodTable } from '../registry.ts'
import { answerRpcPayload } from './envelope.ts'
import type { GateFactory, PayloadGate } from './gate.ts'
import { startHttpServer } from './http-server.ts'

let ran = 0
const methods: MethodTable = new Map<string, MethodHandler>([
  ['echo', async (params) => {
    ran++
    return params
  }],
  ['secret', async () => {
    ran++
    return 'leaked'
  }],
])

/** Refuses `secret` with 403; refuses everything with 429 once `budget` requests were admitted. */
function testGate(budget: number): { factory: GateFactory; seen: (readonly (string | undefined)[])[]; clients: string[] } {
  const seen: (readonly (string | undefined)[])[] = []
  const clients: string[] = []
  let left = budget
  const factory: GateFactory = (client) => {
    clients.push(client)
    const gate: PayloadGate = {
      beforeParse: () => (left <= 0 ? { status: 429, error: new FlashnodeError('limitExceeded', 'slow down') } : undefined),
      admit: (names) => {
        seen.push(names)
        left -= names.length
        return undefined
      },
      refuse: (name) => (name === 'secret' ? { status: 403, error: new FlashnodeError('forbidden', 'not here'), headers: { 'X-Why': 'profile' } } : undefined),
    }
    return gate
  }
  return { factory, seen, clients }
}

const req = (id: number, method: string): Record<string, unknown> => ({ jsonrpc: '2.0', id, method, params: [id] })

test('the envelope asks the gate once per payload with every item; a refused batch item alone answers the refusal', async () => {
  const { factory, seen } = testGate(100)
  const gate = factory('c')
  ran = 0
  const batch = JSON.stringify([req(1, 'echo'), { jsonrpc: '2.0', method: 'echo' }, 7, req(4, 'secret'), req(5, 'echo'), { jsonrpc: '2.0', method: 'secret' }])
  const out = await answerRpcPayload(batch, methods, { endpoint: 't', gate })
  assert.equal(out.status, 200)
  assert.equal(out.headers, undefined)
  assert.deepEqual(JSON.parse(out.body!), [
    { jsonrpc: '2.0', id: 1, result: [1] },
    { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid request' } },
    { jsonrpc: '2.0', id: 4, error: { code: -32004, message: 'not here' } },
    { jsonrpc: '2.0', id: 5, result: [5] },
  ])
  assert.deepEqual(seen.at(-1), ['echo', 'echo', undefined, 'secret', 'echo', 'secret'])
  assert.equal(ran, 3, 'the echoes ran (the notification too), neither secret did')

  const single = await answerRpcPayload(JSON.stringify(req(6, 'secret')), methods, { endpoint: 't', gate })
  assert.equal(single.status, 403)
  assert.deepEqual(single.headers, { 'X-Why': 'profile' })
  assert.deepEqual(JSON.parse(single.body!), { jsonrpc: '2.0', id: 6, error: { code: -32004, message: 'not here' } })
  assert.equal(ran, 3)

  const ok = await answerRpcPayload(JSON.stringify(req(9, 'echo')), methods, { endpoint: 't', gate })
  assert.deepEqual({ status: ok.status, body: JSON.parse(ok.body!) }, { status: 200, body: { jsonrpc: '2.0', id: 9, result: [9] } })
  for (const malformed of ['{', '[]', '[[[[1]]]]']) {
    const before = seen.length
    await answerRpcPayload(malformed, methods, { endpoint: 't', gate, limits: { maxDepth: 3 } })
    assert.deepEqual(seen.slice(before), [[undefined]], `${malformed} counts as one request`)
  }
})

test('over HTTP a refusal is its status, headers and error body; the gate is made per client address', async (t) => {
  const { factory, clients } = testGate(3)
  const server = await startHttpServer({ port: 0, methods, endpoint: 't', gate: factory, log: () => {} })
  t.after(() => server.close())
  const post = (body: unknown): Promise<Response> =>
    fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  ran = 0
  const forbidden = await post(req(1, 'secret'))
  assert.equal(forbidden.status, 403)
  assert.equal(forbidden.headers.get('x-why'), 'profile')
  assert.equal(forbidden.headers.get('content-type'), 'application/json')
  assert.deepEqual(await forbidden.json(), { jsonrpc: '2.0', id: 1, error: { code: -32004, message: 'not here' } })
  assert.equal(ran, 0)
  assert.equal((await post([req(2, 'echo'), req(3, 'echo')])).status, 200)
  const limited = await post(req(4, 'echo'))
  assert.equal(limited.status, 429)
  assert.deepEqual(await limited.json(), { jsonrpc: '2.0', id: 4, error: { code: -32005, message: 'slow down' } }, 'refused unparsed, with its id')
  assert.deepEqual(new Set(clients), new Set(['127.0.0.1']))
})

test('over WebSocket a refusal is only its error body and the connection stays open', async (t) => {
  const { factory, clients } = testGate(2)
  const server = await startHttpServer({ port: 0, methods, endpoint: 't', gate: factory, log: () => {} })
  t.after(() => server.close())
  const ws = new WebSocket(server.wsUrl!)
  t.after(() => ws.terminate())
  await once(ws, 'open')
  const ask = async (body: unknown): Promise<unknown> => {
    ws.send(JSON.stringify(body))
    const [data] = (await once(ws, 'message')) as [Buffer]
    return JSON.parse(data.toString())
  }
  assert.deepEqual(await ask(req(1, 'secret')), { jsonrpc: '2.0', id: 1, error: { code: -32004, message: 'not here' } })
  assert.deepEqual(await ask(req(2, 'echo')), { jsonrpc: '2.0', id: 2, result: [2] })
  assert.deepEqual(await ask(req(3, 'echo')), { jsonrpc: '2.0', id: 3, error: { code: -32005, message: 'slow down' } })
  assert.equal(ws.readyState, WebSocket.OPEN)
  assert.equal(clients.length, 1, 'one gate for the whole connection')
})
