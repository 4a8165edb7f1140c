/**
 * Expensive execution never starves the server: while clients run gas-cap loops through eth_call (which
 * run on execution workers and are stopped at the time limit), eth_getCode at `pending` keeps answering
 * promptly on the main thread. The point is that cheap reads are not queued behind the loops: inline, a read
 * waits for whole loops (each runs the full time limit) and hardly any read completes. So the bounds are set
 * by the loops, not by a machine's speed: reads keep completing, and 99% of them take less than half a
 * loop. (A fixed 250 ms failed on the shared 2-core machine under others' load, p99 277-814 ms, before any
 * change here; with execution inline the test still fails.)
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { testGenesis } from '../support/dev-chain.ts'
import { startNode } from '../support/server.ts'
import { tempDir } from '../support/temp-dir.ts'
import type { GethGenesis } from '../../src/execution/chain-config.ts'
import { DEFAULT_SEQUENCER } from '../../src/node/create-node.ts'
import { ManualScheduler } from '../../src/sequencer/scheduler.ts'

const LOOP = '0x0000000000000000000000000000000000001000'
const LOOP_CLIENTS = 4
const TIME_LIMIT_MS = 1_500
/** Half a loop: a read queued behind one takes at least a whole one. */
const CHEAP_READ_BOUND_MS = TIME_LIMIT_MS / 2

async function post(url: string, method: string, params: unknown[]): Promise<{ ms: number; body: { result?: unknown; error?: { code: number; message: string } } }> {
  const started = performance.now()
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
  const body = (await res.json()) as { result?: unknown; error?: { code: number; message: string } }
  return { ms: performance.now() - started, body }
}

test('cheap reads stay prompt while gas-cap loops run in eth_call', { timeout: 60_000 }, async (t) => {
  const genesis = testGenesis() as unknown as { alloc: Record<string, unknown> }
  // JUMPDEST PUSH1 0 JUMP: an endless loop that touches no state.
  genesis.alloc[LOOP] = { balance: '0x0', code: '0x5b600056' }
  const running = await startNode(t, tempDir(t), genesis as unknown as GethGenesis, {
    executionWorkers: 1,
    evmTimeoutMs: TIME_LIMIT_MS,
    sequencer: { ...DEFAULT_SEQUENCER, mode: 'manual', scheduler: new ManualScheduler() },
  })
  await running.node.start()

  const loops = Array.from({ length: LOOP_CLIENTS }, () => post(running.url, 'eth_call', [{ to: LOOP, gas: '0x2faf080' }, 'latest']))
  const reads: number[] = []
  const until = performance.now() + TIME_LIMIT_MS
  while (performance.now() < until) {
    const r = await post(running.url, 'eth_getCode', [LOOP, 'pending'])
    assert.equal(r.body.result, '0x5b600056')
    reads.push(r.ms)
  }
  const answers = await Promise.all(loops)
  for (const a of answers) {
    assert.ok(a.body.error !== undefined, 'a loop call ends in an error')
    assert.match(a.body.error.message, /out of gas|execution aborted \(timeout/)
  }
  reads.sort((a, b) => a - b)
  const p99 = reads[Math.floor(reads.length * 0.99)]!
  console.log(`eth_getCode@pending during ${LOOP_CLIENTS} looping eth_calls: ${reads.length} reads, p50 ${reads[reads.length >> 1]!.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${reads.at(-1)!.toFixed(1)} ms`)
  assert.ok(reads.length >= 10, `reads kept flowing (${reads.length})`)
  assert.ok(p99 < CHEAP_READ_BOUND_MS, `p99 ${p99.toFixed(1)} ms < ${CHEAP_READ_BOUND_MS} ms`)
})
