import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { once } from 'node:events'
import { request as httpRequest } from 'node:http'
import { WebSocket } from 'ws'
import type { MethodHandler, MethodTable } from '../registry.ts'
import { handleRpcPayload } from './envelope.ts'
import { startHttpServer, type RunningHttpServer } from './http-server.ts'
import { numericIdTokens } from './raw-ids.ts'

const methods: MethodTable = new Map<string, MethodHandler>([['echo', async (params) => params]])

/** Ids a double cannot hold, or whose text JSON.stringify would change. */
const IDS = ['12345678901234567890', '1e400', '0.5', '1.0', '-0', '1E+2', '9007199254740993', '-12.50e-3']

/** The `"id":…` member of a response text, as text (JSON.parse would round it). */
function idText(response: string): string {
  const match = /^\{"jsonrpc":"2\.0","id":([^,]*),/.exec(response)
  assert.ok(match, `no id in ${response}`)
  return match[1]!
}

const single = (id: string, method = 'echo'): string => `{"jsonrpc":"2.0","id":${id},"method":"${method}","params":[{"id":7}]}`

test('the scanner reads the id member of a request object, not one nested in params, the last when repeated', () => {
  assert.deepEqual(numericIdTokens(single('1.0'), false), new Map([[0, '1.0']]))
  assert.deepEqual(numericIdTokens('{"params":[{"id":3}],"method":"id","id" : 5e1 }', false), new Map([[0, '5e1']]))
  assert.deepEqual(numericIdTokens('{"id":1,"id":2.50}', false), new Map([[0, '2.50']]))
  assert.deepEqual(numericIdTokens('{"\\u0069d":0.10}', false), new Map([[0, '0.10']]))
  assert.deepEqual(numericIdTokens('{"id":"12"}', false), new Map())
})

test('the scanner numbers batch items by position, skipping commas inside items and strings', () => {
  const text = `[1, {"id":"a,b","params":[1,2]}, ${single('2.0')}, "x", {"method":"echo","id":-3e0}]`
  assert.deepEqual(numericIdTokens(text, true), new Map([[2, '2.0'], [4, '-3e0']]))
})

test('the envelope echoes every numeric id as sent, in results and errors, single and batch', async () => {
  for (const id of IDS) {
    assert.equal(idText((await handleRpcPayload(single(id), methods, { endpoint: 't' }))!), id)
    assert.equal(idText((await handleRpcPayload(single(id, 'nope'), methods, { endpoint: 't' }))!), id)
  }
  const batch = `[${IDS.map((id) => single(id)).join(',')}]`
  const out = (await handleRpcPayload(batch, methods, { endpoint: 't' }))!
  const echoed = [...out.matchAll(/"id":([^,]*),"result"/g)].map((m) => m[1])
  assert.deepEqual(echoed, IDS)
})

let server: RunningHttpServer
before(async () => {
  server = await startHttpServer({ port: 0, methods, endpoint: 'raw-ids', log: () => {} })
})
after(() => server.close())

test('over HTTP both lanes echo the id as sent (fast lane: keep-alive fetch; node:http: Connection close)', async () => {
  for (const id of IDS) {
    const fast = await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: single(id) })
    assert.equal(idText(await fast.text()), id)
    const slow = await new Promise<string>((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port: server.port, method: 'POST', path: '/', agent: false, headers: { 'content-type': 'application/json', connection: 'close' } },
        (res) => {
          const chunks: Buffer[] = []
          res.on('data', (c: Buffer) => chunks.push(c))
          res.on('end', () => resolve(Buffer.concat(chunks).toString()))
        },
      )
      req.on('error', reject)
      req.end(single(id))
    })
    assert.equal(idText(slow), id)
  }
})

test('over WebSocket the id is echoed as sent', async () => {
  const ws = new WebSocket(server.wsUrl!)
  await once(ws, 'open')
  try {
    for (const id of IDS) {
      ws.send(single(id))
      const [data] = (await once(ws, 'message')) as [Buffer]
      assert.equal(idText(data.toString()), id)
    }
  } finally {
    ws.terminate()
  }
})

test('a payload refused unparsed echoes its id when the token is valid, a batch its first non-null one', async () => {
  const { unparsedRequestId } = await import('./raw-ids.ts')
  const { idJson } = await import('./messages.ts')
  const cases: [string, string][] = [
    [single('12345678901234567890'), '12345678901234567890'],
    ['{"jsonrpc":"2.0","id":"a\\"b","method":"x"}', '"a\\"b"'],
    [' [{"id":null,"method":"x"},{"method":"y","id":"second"}]', '"second"'],
    ['{"id":01,"method":"x"}', 'null'], // not a JSON number
    ['{"id":"open', 'null'],
    ['{"id":{"a":1}}', 'null'],
    ['not json', 'null'],
    // a malformed escape in a member name of unchecked text (found by test/fuzz/envelope.test.ts)
    [String.raw`["][]"method""2.0"\ { "\u"method"{"\u}\-"1\:null-["null"id"-],,true"method"\"1"jsonrpc"e"2.0"- {e:null{:,null"method":1}`, 'null'],
  ]
  for (const [text, expected] of cases) assert.equal(idJson(unparsedRequestId(text)), expected, text)
})
