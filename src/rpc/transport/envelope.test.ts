import { test } from 'node:test'
import assert from 'node:assert/strict'
import { FlashnodeError } from '../../errors/errors.ts'
import type { MethodHandler, MethodTable } from '../registry.ts'
import { handleRpcPayload, type EnvelopeOptions } from './envelope.ts'
import { RawJson } from './messages.ts'

type Json = Record<string, unknown>

const logged: unknown[] = []
const quietLog = (_message: string, err: unknown): void => {
  logged.push(err)
}

const table = (entries: Record<string, MethodHandler>): MethodTable => new Map(Object.entries(entries))

const echo: MethodHandler = async (params) => params
const methods = table({ echo, add: async (p) => (p[0] as number) + (p[1] as number) })

const base: EnvelopeOptions = { endpoint: 'test', log: quietLog }

async function call(body: unknown, opts: Partial<EnvelopeOptions> = {}, m: MethodTable = methods): Promise<unknown> {
  const text = typeof body === 'string' ? body : JSON.stringify(body)
  const out = await handleRpcPayload(text, m, { ...base, ...opts })
  return out === null ? null : JSON.parse(out)
}

const req = (id: unknown, method: string, params?: unknown): Json =>
  params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params }

test('single request round trip', async () => {
  assert.deepEqual(await call(req(1, 'add', [2, 3])), { jsonrpc: '2.0', id: 1, result: 5 })
  assert.deepEqual(await call(req('a', 'echo')), { jsonrpc: '2.0', id: 'a', result: [] })
})

test('the wire shape has members in order jsonrpc, id, result', async () => {
  const out = await handleRpcPayload(JSON.stringify(req(7, 'echo', ['x'])), methods, base)
  assert.equal(out, '{"jsonrpc":"2.0","id":7,"result":["x"]}')
})

test('parse error has id null and code -32700', async () => {
  const out = await handleRpcPayload('{"jsonrpc":"2.0",', methods, base)
  assert.equal(out, '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}')
  assert.deepEqual(await call(''), { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } })
})

test('invalid request variants answer -32600', async () => {
  const cases: [unknown, unknown][] = [
    [{ jsonrpc: '1.0', id: 1, method: 'echo' }, 1],
    [{ id: 2, method: 'echo' }, 2],
    [{ jsonrpc: '2.0', id: 3, method: 5 }, 3],
    [{ jsonrpc: '2.0', id: 4 }, 4],
    [{ jsonrpc: '2.0', id: { a: 1 }, method: 'echo' }, null],
    [{ jsonrpc: '2.0', id: [1], method: 'echo' }, null],
    [{ jsonrpc: '2.0', id: true, method: 'echo' }, null],
    [42, null],
    ['"hello"', null],
    [null, null],
  ]
  for (const [body, id] of cases) {
    const res = (await call(body)) as Json
    assert.equal(res.id, id, JSON.stringify(body))
    assert.equal((res.error as Json).code, -32600, JSON.stringify(body))
  }
})

test('a malformed request without id is still answered (it is not a valid notification)', async () => {
  const res = (await call({ jsonrpc: '2.0', method: 7 })) as Json
  assert.deepEqual(res.error, { code: -32600, message: 'invalid request' })
})

test('method name length limit', async () => {
  const m = table({ ['m'.repeat(10)]: echo })
  assert.deepEqual(await call(req(1, 'm'.repeat(10)), { limits: { maxMethodNameLength: 10 } }, m), {
    jsonrpc: '2.0',
    id: 1,
    result: [],
  })
  const res = (await call(req(1, 'm'.repeat(11)), { limits: { maxMethodNameLength: 10 } }, m)) as Json
  assert.equal((res.error as Json).code, -32600)
})

test('object params are -32602 non-array args; null params mean none', async () => {
  assert.deepEqual(await call(req(1, 'echo', { a: 1 })), {
    jsonrpc: '2.0',
    id: 1,
    error: { code: -32602, message: 'non-array args' },
  })
  assert.deepEqual(await call(req(1, 'echo', 'x')), {
    jsonrpc: '2.0',
    id: 1,
    error: { code: -32602, message: 'non-array args' },
  })
  assert.deepEqual(await call(req(1, 'echo', null)), { jsonrpc: '2.0', id: 1, result: [] })
})

test('unknown method uses geth wording', async () => {
  assert.deepEqual(await call(req(9, 'eth_nope', [])), {
    jsonrpc: '2.0',
    id: 9,
    error: { code: -32601, message: 'the method eth_nope does not exist/is not available' },
  })
})

test('methods are looked up in the Map only, never on the prototype', async () => {
  const res = (await call(req(1, 'toString', []))) as Json
  assert.equal((res.error as Json).code, -32601)
})

test('notifications get no response, id null does', async () => {
  let ran = 0
  const m = table({ tick: async () => ++ran })
  assert.equal(await call({ jsonrpc: '2.0', method: 'tick', params: [] }, {}, m), null)
  assert.equal(ran, 1)
  assert.equal(await call({ jsonrpc: '2.0', method: 'nope' }, {}, m), null)
  assert.equal(await call({ jsonrpc: '2.0', method: 'tick', params: { a: 1 } }, {}, m), null)
  assert.deepEqual(await call(req(null, 'tick'), {}, m), { jsonrpc: '2.0', id: null, result: 2 })
})

test('a batch of notifications only answers nothing', async () => {
  const out = await call([
    { jsonrpc: '2.0', method: 'echo' },
    { jsonrpc: '2.0', method: 'echo', params: [1] },
  ])
  assert.equal(out, null)
})

test('batch responses come in request order even when items finish out of order', async () => {
  const n = 20
  const m = table({
    slow: async (p) => {
      const ticks = (n - (p[0] as number)) * 3
      for (let i = 0; i < ticks; i++) await Promise.resolve()
      return p[0]
    },
  })
  const batch = Array.from({ length: n }, (_, i) => req(i, 'slow', [i]))
  batch.splice(5, 0, { jsonrpc: '2.0', method: 'slow', params: [99] }) // a notification in the middle
  const out = (await call(batch, { limits: { batchConcurrency: n } }, m)) as Json[]
  assert.equal(out.length, n)
  assert.deepEqual(
    out.map((r) => r.id),
    Array.from({ length: n }, (_, i) => i),
  )
  assert.deepEqual(
    out.map((r) => r.result),
    Array.from({ length: n }, (_, i) => i),
  )
})

test('batch concurrency is bounded', async () => {
  let active = 0
  let peak = 0
  const m = table({
    work: async () => {
      active++
      peak = Math.max(peak, active)
      for (let i = 0; i < 5; i++) await Promise.resolve()
      active--
      return null
    },
  })
  const batch = Array.from({ length: 30 }, (_, i) => req(i, 'work'))
  const out = (await call(batch, { limits: { batchConcurrency: 3 } }, m)) as Json[]
  assert.equal(out.length, 30)
  assert.equal(peak, 3)
})

test('batch items mix results and errors', async () => {
  const out = (await call([req(1, 'echo', [1]), 5, req(2, 'missing'), req(3, 'add', [1, 1])])) as Json[]
  assert.deepEqual(out, [
    { jsonrpc: '2.0', id: 1, result: [1] },
    { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid request' } },
    { jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'the method missing does not exist/is not available' } },
    { jsonrpc: '2.0', id: 3, result: 2 },
  ])
})

test('empty batch is one error', async () => {
  assert.deepEqual(await call([]), { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'empty batch' } })
})

test('batch too large is an array of one error with the first request id (as geth) and runs nothing', async () => {
  let ran = 0
  const m = table({ run: async () => ++ran })
  const batch = [{ jsonrpc: '2.0', method: 'run' }, ...Array.from({ length: 3 }, (_, i) => req(i + 10, 'run'))]
  assert.deepEqual(await call(batch, { limits: { maxBatchItems: 3 } }, m), [{
    jsonrpc: '2.0',
    id: 10,
    error: { code: -32600, message: 'batch too large' },
  }])
  assert.equal(ran, 0)
  const ok = (await call(batch.slice(1), { limits: { maxBatchItems: 3 } }, m)) as Json[]
  assert.equal(ok.length, 3)
})

test('batch response cap: the crossing item is kept, later requests get -32003', async () => {
  const big = 'a'.repeat(50)
  let started = 0
  const m = table({ big: async () => (started++, big) })
  const one = `{"jsonrpc":"2.0","id":0,"result":"${big}"}`
  const cap = 1 + one.length + 1 + 10 // the first item fits, the second passes the cap
  const batch = [req(0, 'big'), req(1, 'big'), req(2, 'big'), { jsonrpc: '2.0', method: 'big' }, req(3, 'big')]
  const out = (await call(batch, { limits: { maxBatchResponseBytes: cap, batchConcurrency: 1 } }, m)) as Json[]
  assert.deepEqual(
    out.map((r) => [r.id, r.result ?? (r.error as Json).code]),
    [
      [0, big],
      [1, big],
      [2, -32003],
      [3, -32003],
    ],
  )
  assert.deepEqual(out[2]!.error, { code: -32003, message: 'response too large' })
  assert.equal(started, 2, 'items after the cut do not run')
})

test('depth limit is enforced before parsing', async () => {
  const deep = JSON.stringify(req(1, 'echo', [JSON.parse('['.repeat(20) + ']'.repeat(20))]))
  const res = (await call(deep, { limits: { maxDepth: 10 } })) as Json
  assert.equal(res.id, null)
  assert.equal((res.error as Json).code, -32600)
  const ok = (await call(deep, { limits: { maxDepth: 30 } })) as Json
  assert.ok(Array.isArray(ok.result))
  const hostile = '['.repeat(100_000)
  assert.equal((((await call(hostile)) as Json).error as Json).code, -32600)
})

test('FlashnodeError maps kind, message and data; own code overrides', async () => {
  const m = table({
    revert: async () => {
      throw new FlashnodeError('executionReverted', 'execution reverted', { data: '0x1234' })
    },
    custom: async () => {
      throw new FlashnodeError('limitExceeded', 'too many calls', { code: -38026 })
    },
  })
  assert.deepEqual(await call(req(1, 'revert'), {}, m), {
    jsonrpc: '2.0',
    id: 1,
    error: { code: -32000, message: 'execution reverted', data: '0x1234' },
  })
  assert.deepEqual(((await call(req(1, 'revert'), { revertCode: 3 }, m)) as Json).error, {
    code: 3,
    message: 'execution reverted',
    data: '0x1234',
  })
  assert.deepEqual(((await call(req(1, 'custom'), {}, m)) as Json).error, { code: -38026, message: 'too many calls' })
})

test('an unexpected throw is -32603 internal error without stack or message', async () => {
  const m = table({
    boom: async () => {
      throw new Error('secret database path /var/db')
    },
    syncBoom: (() => {
      throw new TypeError('sync secret')
    }) as MethodHandler,
  })
  logged.length = 0
  for (const method of ['boom', 'syncBoom']) {
    const out = await handleRpcPayload(JSON.stringify(req(1, method)), m, base)
    assert.equal(out, '{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"internal error"}}')
  }
  assert.equal(logged.length, 2, 'the real error is logged')
  const debug = (await call(req(1, 'boom'), { debug: true }, m)) as Json
  assert.match((debug.error as Json).message as string, /secret database path/)
  assert.match(String((debug.error as Json).data), /Error: secret/)
})

test('a bigint result becomes -32603 for that item only', async () => {
  const m = table({ big: async () => ({ value: 1n }), ok: async () => '0x1' })
  logged.length = 0
  const out = (await call([req(1, 'big'), req(2, 'ok')], {}, m)) as Json[]
  assert.deepEqual(out, [
    { jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'result of big could not be serialized' } },
    { jsonrpc: '2.0', id: 2, result: '0x1' },
  ])
  assert.equal(logged.length, 1)
})

test('a RawJson result is spliced in verbatim, alone or in a batch', async () => {
  const m = table({ raw: async () => new RawJson('[{"b":"0x1","a":null}]'), ok: async () => '0x1' })
  assert.equal(await handleRpcPayload(JSON.stringify(req(7, 'raw')), m, base), '{"jsonrpc":"2.0","id":7,"result":[{"b":"0x1","a":null}]}')
  assert.equal(
    await handleRpcPayload(JSON.stringify([req(1, 'ok'), req(2, 'raw')]), m, base),
    '[{"jsonrpc":"2.0","id":1,"result":"0x1"},{"jsonrpc":"2.0","id":2,"result":[{"b":"0x1","a":null}]}]',
  )
})

test('a RawJson nested in another result is -32603 for that item, not raw text quoted as a string', async () => {
  const m = table({ nested: async () => ({ inner: new RawJson('"0x1"') }) })
  logged.length = 0
  assert.deepEqual(await call(req(1, 'nested'), {}, m), {
    jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'result of nested could not be serialized' },
  })
})

test('batch response cap counts RawJson results like any other', async () => {
  const big = `"${'a'.repeat(50)}"`
  const m = table({ raw: async () => new RawJson(big) })
  const one = `{"jsonrpc":"2.0","id":0,"result":${big}}`
  const cap = 1 + one.length + 1 + 10 // the first item fits, the second passes the cap
  const out = (await call([req(0, 'raw'), req(1, 'raw'), req(2, 'raw')], { limits: { maxBatchResponseBytes: cap, batchConcurrency: 1 } }, m)) as Json[]
  assert.deepEqual(out.map((r) => r.result ?? (r.error as Json).code), [JSON.parse(big), JSON.parse(big), -32003])
})

test('undefined result is null', async () => {
  const m = table({ nothing: async () => undefined })
  assert.deepEqual(await call(req(1, 'nothing'), {}, m), { jsonrpc: '2.0', id: 1, result: null })
})

test('deadline: a handler waiting on the signal sees it abort and the client gets -32002', async () => {
  let sawAbort = false
  const m = table({
    wait: (_p, ctx) =>
      new Promise((_resolve, reject) => {
        ctx.signal.addEventListener('abort', () => {
          sawAbort = true
          reject(new Error('aborted'))
        })
      }),
  })
  assert.deepEqual(await call(req(1, 'wait'), { limits: { requestTimeoutMs: 20 } }, m), {
    jsonrpc: '2.0',
    id: 1,
    error: { code: -32002, message: 'request timed out' },
  })
  assert.equal(sawAbort, true)
})

test('deadline: a handler that ignores the signal still yields -32002; later batch items do not run', async () => {
  let ran = 0
  const m = table({
    hang: () => new Promise(() => {}),
    count: async () => ++ran,
  })
  const out = (await call([req(1, 'hang'), req(2, 'count'), req(3, 'count')], {
    limits: { requestTimeoutMs: 20, batchConcurrency: 1 },
  }, m)) as Json[]
  assert.deepEqual(
    out.map((r) => [r.id, (r.error as Json).code]),
    [
      [1, -32002],
      [2, -32002],
      [3, -32002],
    ],
  )
  assert.equal(ran, 0)
})

test('an aborted parent signal stops the work', async () => {
  const controller = new AbortController()
  let seen: AbortSignal | undefined
  const m = table({
    wait: (_p, ctx) => {
      seen = ctx.signal
      controller.abort()
      return new Promise(() => {})
    },
  })
  const res = (await call(req(1, 'wait'), { signal: controller.signal }, m)) as Json
  assert.equal(seen?.aborted, true)
  assert.equal((res.error as Json).code, -32603)
})

test('the handler receives endpoint and connection in its context', async () => {
  const connection = { id: 'c1', send: () => {}, onClose: () => {} }
  const m = table({ who: async (_p, ctx) => [ctx.endpoint, ctx.connection?.id ?? null] })
  assert.deepEqual(((await call(req(1, 'who'), { endpoint: 'public', connection }, m)) as Json).result, ['public', 'c1'])
  assert.deepEqual(((await call(req(1, 'who'), {}, m)) as Json).result, ['test', null])
})

test('ids are echoed verbatim', async () => {
  for (const id of [0, -1, 1.5, '', 'x'.repeat(100), null]) {
    assert.equal(((await call(req(id, 'echo'))) as Json).id, id)
  }
})
