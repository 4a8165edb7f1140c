/**
 * Limits over the wire, on a real node: every transport limit is a per-endpoint setting and its refusal
 * names the limit (body, WebSocket message, batch items, batch response, nesting depth before parsing,
 * method-name length), and the parameter and pool limits hold for a client too (quantities over 256 bits,
 * storage keys over 32 bytes, addresses of the wrong size, transactions over 128 KiB).
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { once } from 'node:events'
import { WebSocket } from 'ws'
import { bytesToHex } from '../../src/primitives/hex.ts'
import { signedTx } from '../support/dev-chain.ts'
import { call, endpoint, post, rawRequest, startEndpoints } from '../support/endpoints.ts'

type Json = Record<string, unknown>

const TIGHT = {
  maxBodyBytes: 2048,
  maxWsMessageBytes: 1024,
  maxBatchItems: 3,
  maxBatchResponseBytes: 400,
  maxDepth: 8,
  maxMethodNameLength: 22, // eth_getBlockByNumber passes, eth_getTransactionCount does not
}

const ADDRESS = `0x${'11'.repeat(20)}`

test('each transport limit is an endpoint setting and its refusal names the limit', async (t) => {
  const { endpoints } = await startEndpoints(t, [endpoint('tight', { limits: TIGHT }), endpoint('roomy')])
  const tight = endpoints.get('tight')!
  const roomy = endpoints.get('roomy')!

  const big = JSON.stringify(call(1, 'eth_chainId', ['x'.repeat(3000)]))
  const tooBig = await rawRequest(tight.url, { body: big })
  assert.equal(tooBig.status, 413)
  assert.deepEqual(tooBig.json(), { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'request body too large (limit 2048 bytes)' } })
  assert.equal((await rawRequest(roomy.url, { body: big })).status, 200, 'the other endpoint keeps the default')

  const batch = await post(tight.url, [1, 2, 3, 4].map((id) => call(id, 'eth_chainId')))
  assert.deepEqual(batch.json(), [{ jsonrpc: '2.0', id: 1, error: { code: -32600, message: 'batch too large' } }], 'as geth: an array of one error')

  const heavy = await post(tight.url, [call(1, 'eth_getBlockByNumber', ['0x0', true]), call(2, 'eth_chainId'), call(3, 'eth_chainId')])
  const items = heavy.json() as Json[]
  assert.equal(items.length, 3)
  assert.equal((items[0]!.result as Json).number, '0x0', 'the item that passes the cap is kept')
  for (const [i, item] of items.slice(1).entries()) {
    assert.deepEqual(item, { jsonrpc: '2.0', id: i + 2, error: { code: -32003, message: 'response too large' } })
  }

  const deep = `{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":${'['.repeat(8)}${']'.repeat(8)}}`
  assert.deepEqual((await rawRequest(tight.url, { body: deep })).json(), {
    jsonrpc: '2.0',
    id: null,
    error: { code: -32600, message: 'invalid request: nesting too deep (max depth 8)' },
  })
  const bracketsInAString = JSON.stringify(call(1, 'eth_chainId', ['['.repeat(100)]))
  assert.match((await rawRequest(tight.url, { body: bracketsInAString })).text, /too many arguments|"result"|invalid/, 'brackets in strings are not nesting')
  assert.doesNotMatch((await rawRequest(tight.url, { body: bracketsInAString })).text, /nesting too deep/)

  assert.deepEqual((await post(tight.url, call(1, 'eth_getTransactionCount', [ADDRESS, 'latest']))).json(), {
    jsonrpc: '2.0',
    id: 1,
    error: { code: -32600, message: 'invalid request: method name too long' },
  })
  assert.equal(((await post(roomy.url, call(1, 'eth_getTransactionCount', [ADDRESS, 'latest']))).json() as Json).result, '0x0')

  const ws = new WebSocket(tight.wsUrl!)
  await once(ws, 'open')
  ws.send(JSON.stringify(call(1, 'eth_chainId', ['x'.repeat(2000)])))
  const [code] = (await once(ws, 'close')) as [number]
  assert.equal(code, 1009, 'a WebSocket message over the limit closes with 1009 (message too big)')
})

async function rpcError(url: string, method: string, params: unknown[]): Promise<{ code: number; message: string }> {
  const body = (await post(url, call(1, method, params))).json() as { error?: { code: number; message: string } }
  assert.ok(body.error !== undefined, `${method} should fail`)
  return body.error
}

test('hex sizes are refused by the parameter parsers: quantities over 256 bits, storage keys over 32 bytes, wrong-size addresses', async (t) => {
  const { endpoints } = await startEndpoints(t, [endpoint('public', { profile: 'public' })])
  const url = endpoints.get('public')!.url
  assert.deepEqual(await rpcError(url, 'eth_call', [{ to: ADDRESS, value: `0x1${'0'.repeat(64)}` }, 'latest']), {
    code: -32602,
    message: 'invalid argument 0: value: hex number > 256 bits',
  })
  const max = (await post(url, call(1, 'eth_call', [{ to: ADDRESS, value: `0x${'f'.repeat(64)}` }, 'latest']))).json() as { error?: { message: string } }
  assert.doesNotMatch(max.error?.message ?? '', /256 bits/, 'a 256-bit value parses (whatever the call then answers)')
  const key33 = `0x${'01'.repeat(33)}`
  assert.deepEqual(await rpcError(url, 'eth_getStorageAt', [ADDRESS, key33, 'latest']), {
    code: -32602,
    message: `storage key too long (want at most 32 bytes): "${key33}"`,
  })
  assert.equal(((await post(url, call(1, 'eth_getStorageAt', [ADDRESS, `0x${'01'.repeat(32)}`, 'latest']))).json() as Json).result, `0x${'00'.repeat(32)}`)
  assert.deepEqual(await rpcError(url, 'eth_getBalance', [`0x${'11'.repeat(21)}`, 'latest']), {
    code: -32602,
    message: 'invalid argument 0: hex string has length 42, want 40 for common.Address',
  })
  assert.deepEqual(await rpcError(url, 'eth_getBlockByNumber', [`0x1${'0'.repeat(16)}`, false]), {
    code: -32602,
    message: 'invalid argument 0: hex number > 64 bits',
  })
})

test('a transaction over 128 KiB is refused by the pool, with its size and the limit', async (t) => {
  const { node, endpoints } = await startEndpoints(t, [endpoint('public', { profile: 'public' })])
  const url = endpoints.get('public')!.url
  const data = `0x${'ab'.repeat(128 * 1024)}`
  const raw = signedTx(node, 0, 0n, { to: ADDRESS, data, gasLimit: 25_000_000n }).serialize()
  assert.ok(raw.length > 131072)
  assert.deepEqual(await rpcError(url, 'eth_sendRawTransaction', [bytesToHex(raw)]), {
    code: -32000,
    message: `oversized data: transaction size ${raw.length}, limit 131072`,
  })
  const fits = signedTx(node, 0, 0n, { to: ADDRESS, data: `0x${'ab'.repeat(100 * 1024)}`, gasLimit: 25_000_000n }).serialize()
  const ok = (await post(url, call(1, 'eth_sendRawTransaction', [bytesToHex(fits)]))).json() as Json
  assert.match(String(ok.result), /^0x[0-9a-f]{64}$/, 'a large transaction under the limit is accepted')
})
