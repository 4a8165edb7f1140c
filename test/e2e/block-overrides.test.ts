/**
 * Block overrides of time across the whole uint64 range geth accepts, through the JSON-RPC server: eth_call
 * and eth_simulateV1 run with the overridden TIMESTAMP, including values above 2^53 (which used to answer
 * -32603 with a library message); a value wider than 64 bits is geth's -32602.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { testGenesis } from '../support/dev-chain.ts'
import { startNode } from '../support/server.ts'
import { tempDir } from '../support/temp-dir.ts'
import { DEFAULT_SEQUENCER } from '../../src/node/create-node.ts'
import { ManualScheduler } from '../../src/sequencer/scheduler.ts'
import type { GethGenesis } from '../../src/execution/chain-config.ts'

/** Returns TIMESTAMP as one word. */
const CLOCK = '0x00000000000000000000000000000000000c10c4'

interface Answer {
  result?: unknown
  error?: { code: number; message: string }
}

test('a block override of time runs with that time for any uint64, and is -32602 beyond', async (t) => {
  const genesis = testGenesis() as unknown as { alloc: Record<string, unknown> }
  genesis.alloc[CLOCK] = { balance: '0x0', code: '0x425f5260205ff3' }
  const running = await startNode(t, tempDir(t), genesis as unknown as GethGenesis, {
    sequencer: { ...DEFAULT_SEQUENCER, mode: 'manual', scheduler: new ManualScheduler() },
  })
  await running.node.start()
  const rpc = async (method: string, params: unknown[]): Promise<Answer> => {
    const res = await fetch(running.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
    return (await res.json()) as Answer
  }
  for (const time of [2n ** 53n - 1n, 2n ** 53n + 1n, 2n ** 63n + 3n, 2n ** 64n - 1n]) {
    const hex = `0x${time.toString(16)}`
    const call = await rpc('eth_call', [{ to: CLOCK }, 'latest', null, { time: hex }])
    assert.equal(call.error, undefined, `eth_call at time ${hex}: ${JSON.stringify(call.error)}`)
    assert.equal(BigInt(call.result as string), time)
    const sim = await rpc('eth_simulateV1', [{ blockStateCalls: [{ blockOverrides: { time: hex }, calls: [{ to: CLOCK }] }] }, 'latest'])
    assert.equal(sim.error, undefined, `eth_simulateV1 at time ${hex}: ${JSON.stringify(sim.error)}`)
    const [block] = sim.result as { timestamp: string; calls: { returnData: string }[] }[]
    assert.equal(BigInt(block!.timestamp), time)
    assert.equal(BigInt(block!.calls[0]!.returnData), time)
  }
  const tooWide = await rpc('eth_call', [{ to: CLOCK }, 'latest', null, { time: '0x10000000000000000' }])
  assert.deepEqual(tooWide.error, { code: -32602, message: 'invalid argument 3: time: hex number > 64 bits' })
})
