/**
 * Fuzz: random, wrong-typed and oversized params for EVERY method in the method table, on a node whose
 * chain holds blocks, transactions, receipts, logs and a pre-confirmed transaction. Most cases go to the
 * dedicated endpoint (everything served), some to the public one (profile refusals, rate limit on a clock
 * advanced per request), the subscription methods also over WebSocket. Every answer must be a documented
 * status with a well-formed JSON-RPC body and no leaked internals; afterwards the node answers normal
 * requests correctly. Seeded: the seed is printed; rerun one with FUZZ_SEED=<seed>.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { once } from 'node:events'
import { WebSocket } from 'ws'
import { createEthMethods } from '../../src/rpc/methods/index.ts'
import { assertNoLeak, assertResponseObject, checkHttpAnswer, newFindings } from './support/check.ts'
import { endpointClients } from './support/client.ts'
import { seedChain, startFuzzNode, FUZZ_ACCOUNTS } from './support/fuzz-node.ts'
import { fuzzSeed, reproduce, Rng } from '../support/rng.ts'
import { randomAtom, randomJson, randomParams, type Json } from './support/values.ts'

const CASES_PER_METHOD = 120
const WS_CASES = 60
const FILE = 'test/fuzz/params.test.ts'

function randomId(rng: Rng): Json | undefined {
  switch (rng.int(12)) {
    case 0: return undefined // a notification
    case 1: return null
    case 2: return randomJson(rng, 0)
    case 3: return `id-${rng.u32()}`
    default: return rng.int(1_000_000)
  }
}

test('random and oversized params for every method: well-formed answers, no leaks, the node keeps serving', { timeout: 60_000 }, async (t) => {
  const seed = fuzzSeed()
  t.diagnostic(`fuzz seed ${seed} (reproduce: ${reproduce(FILE, seed)})`)
  const rng = new Rng(seed)
  const fuzz = await startFuzzNode(t)
  const known = await seedChain(fuzz)
  const methods = [...createEthMethods(fuzz.node.api).keys()].sort()
  const { dedicated, pub } = endpointClients(t, fuzz)
  const findings = newFindings()
  const statuses = new Map<number, number>()
  let cases = 0
  /** Methods that answered at least one result (the generators reach past parameter checks). */
  const succeeded = new Set<string>()
  const started = performance.now()

  for (let round = 0; round < CASES_PER_METHOD; round++) {
    for (const method of methods) {
      const caseRng = rng.fork()
      const id = randomId(caseRng)
      const request: Record<string, Json> = { jsonrpc: '2.0', method, params: randomParams(caseRng, known, method) }
      if (id !== undefined) request.id = id
      if (caseRng.chance(0.03)) delete request.params
      const body = JSON.stringify(request)
      const toPublic = caseRng.chance(0.15)
      if (toPublic) fuzz.advance(5)
      cases++
      try {
        const answer = await (toPublic ? pub : dedicated).send({ body })
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1)
        const msg = checkHttpAnswer(answer, body, findings)
        if (msg !== null && !Array.isArray(msg) && 'result' in msg) succeeded.add(method)
        if (msg !== null && !Array.isArray(msg) && answer.status === 200) {
          const validId = id === null || typeof id === 'string' || typeof id === 'number'
          if (validId) assert.deepEqual(msg.id, JSON.parse(JSON.stringify(id)), 'the response echoes the id (as sent)')
          else if (id === undefined) assert.ok('error' in msg, 'a notification is answered only when it is not a valid request')
          else assert.equal(msg.id, null, 'an invalid id is answered with id null')
        }
      } catch (err) {
        throw new Error(`case ${cases} (${method}, round ${round}) failed: ${(err as Error).message}\nrequest: ${body.slice(0, 500)}\nreproduce: ${reproduce(FILE, seed)}`, { cause: err })
      }
    }
  }

  // The subscription methods live on WebSocket connections.
  const ws = new WebSocket(fuzz.dedicatedWs)
  t.after(() => ws.terminate())
  await once(ws, 'open')
  const received: string[] = []
  ws.on('message', (data: Buffer) => received.push(data.toString()))
  for (let i = 0; i < WS_CASES; i++) {
    const method = rng.pick(['eth_subscribe', 'eth_unsubscribe', 'eth_subscribe'])
    const kinds = ['newHeads', 'logs', 'newFlashblocks', 'pendingLogs', 'newFlashblockTransactions', 'syncing']
    const params = rng.chance(0.6) ? [rng.pick(kinds), ...(rng.chance(0.5) ? [randomAtom(rng, known)] : [])] : randomParams(rng, known)
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: `ws-${i}`, method, params }))
  }
  ws.send(JSON.stringify({ jsonrpc: '2.0', id: 'last', method: 'eth_chainId', params: [] }))
  while (!received.some((m) => m.includes('"id":"last"'))) await once(ws, 'message')
  for (const text of received) {
    assertNoLeak(text, '')
    const msg = JSON.parse(text) as Record<string, unknown>
    if (msg.method === 'eth_subscription') continue
    assertResponseObject(msg, findings, text)
  }
  assert.equal(ws.readyState, WebSocket.OPEN)

  // Afterwards: normal requests answer correctly.
  assert.deepEqual(await dedicated.call('eth_chainId'), { jsonrpc: '2.0', id: 1, result: '0x7a69' })
  const balance = await dedicated.call('eth_getBalance', [FUZZ_ACCOUNTS[5]!.address, 'latest'])
  assert.deepEqual(balance, { jsonrpc: '2.0', id: 1, result: `0x${(10n ** 22n).toString(16)}` })
  assert.equal(typeof (await dedicated.call('eth_blockNumber')).result, 'string')

  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  t.diagnostic(`methods never answering a result: ${methods.filter((m) => !succeeded.has(m)).join(', ') || 'none'}`)
  t.diagnostic(`${cases} HTTP cases over ${methods.length} methods + ${WS_CASES} WebSocket cases in ${seconds} s; statuses ${JSON.stringify(Object.fromEntries(statuses))}`)
  // Bad input deserves a clear error: an internal error means a handler threw something untyped.
  assert.deepEqual(findings.internal, [], `internal errors answered (reproduce: ${reproduce(FILE, seed)})`)
  assert.deepEqual(fuzz.logged.map((l) => l.split('\n')[0]), [], `unexpected errors logged (reproduce: ${reproduce(FILE, seed)})`)
})
