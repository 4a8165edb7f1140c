/**
 * eth_simulateV1 as a new user meets it, through raw JSON-RPC on a real server (manual sealing): the block
 * time given as the contract's `timestamp` is honoured like geth's `time`, a conflict or an unknown block
 * override is refused instead of ignored, `data` and `input` follow eth_call's rule, a mistyped block tag
 * is told the valid tags, and a blob call without `to` is the caller's mistake (-32602), not an internal
 * error.
 */

import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { DEFAULT_SEQUENCER } from '../../src/node/create-node.ts'
import { testGenesis } from '../support/dev-chain.ts'
import { startNode } from '../support/server.ts'
import { tempDir } from '../support/temp-dir.ts'

type Json = Record<string, unknown>
const TO = '0x00000000000000000000000000000000000000aa'

async function simulator(t: TestContext): Promise<(params: unknown[]) => Promise<Json>> {
  const running = await startNode(t, tempDir(t), testGenesis(), { sequencer: { ...DEFAULT_SEQUENCER, mode: 'manual' } })
  let id = 0
  return async (params) => {
    const res = await fetch(running.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'eth_simulateV1', params }),
    })
    assert.equal(res.status, 200)
    return (await res.json()) as Json
  }
}

const oneBlock = (blockOverrides: Json, calls: Json[] = [{ to: TO }]): Json => ({ blockStateCalls: [{ blockOverrides, calls }] })

test('blockOverrides.timestamp sets the block time as time does; both only when equal; unknown fields refused', async (t) => {
  const simulate = await simulator(t)
  const base = ((await simulate([oneBlock({}), 'latest'])).result as Json[])[0]!
  const later = `0x${(BigInt(base.timestamp as string) + 1000n).toString(16)}`
  for (const overrides of [{ time: later }, { timestamp: later }, { time: later, timestamp: later }]) {
    const out = await simulate([oneBlock(overrides), 'latest'])
    assert.equal(((out.result as Json[])[0]!).timestamp, later, JSON.stringify(overrides))
  }
  const conflict = await simulate([oneBlock({ time: later, timestamp: base.timestamp }), 'latest'])
  assert.equal((conflict.error as Json).code, -32602)
  assert.match((conflict.error as Json).message as string, /blockOverrides: both "time" and "timestamp" are set and not equal/)
  const unknown = await simulate([oneBlock({ baseFee: '0x1' }), 'latest'])
  assert.deepEqual(unknown.error, { code: -32602, message: 'invalid argument 0: blockStateCalls.0.blockOverrides: json: unknown field "baseFee"' })
})

test('data and input that differ are refused as eth_call refuses them; equal ones run', async (t) => {
  const simulate = await simulator(t)
  const differ = await simulate([oneBlock({}, [{ to: TO, data: '0x01', input: '0x02' }]), 'latest'])
  assert.equal((differ.error as Json).code, -32602)
  assert.match((differ.error as Json).message as string, /calls.0: both "data" and "input" are set and not equal/)
  const same = await simulate([oneBlock({}, [{ to: TO, data: '0x01', input: '0x01' }]), 'latest'])
  assert.equal((((same.result as Json[])[0]!.calls as Json[])[0]!).status, '0x1')
})

test('a mistyped block tag is told the valid tags, with geth\'s code', async (t) => {
  const simulate = await simulator(t)
  for (const tag of ['Pending', 'head']) {
    const out = await simulate([oneBlock({}), tag])
    const error = out.error as Json
    assert.equal(error.code, -32602)
    assert.match(error.message as string, /^invalid argument 1: hex string without 0x prefix \(/)
    for (const valid of ['latest', 'pending', 'safe', 'finalized', 'earliest']) assert.ok((error.message as string).includes(valid), valid)
  }
})

test('a blob call without to is the caller\'s mistake: -32602 with geth\'s message', async (t) => {
  const simulate = await simulator(t)
  const hash = `0x01${'00'.repeat(31)}`
  const out = await simulate([oneBlock({}, [{ blobVersionedHashes: [hash], gas: '0x5208' }]), 'latest'])
  assert.deepEqual(out.error, { code: -32602, message: 'err: blob transaction of type create (supplied gas 21000)' })
})
