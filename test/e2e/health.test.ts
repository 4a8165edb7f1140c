/**
 * GET /healthz and /readyz of a real server, as a load balancer asks them: /healthz is 200 while the process
 * serves; /readyz is 200 while the newest flashblock is younger than the limit and 503, with the reason,
 * once flashblocks stop (a sequencer whose ticks stopped serves a frozen `pending`); a manually sealed node
 * is ready. The sequencer runs on an injected clock.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { testGenesis } from '../support/dev-chain.ts'
import { startNode } from '../support/server.ts'
import { tempDir } from '../support/temp-dir.ts'
import { servedManualNode } from '../support/sequencing-node.ts'
import { DEFAULT_SEQUENCER } from '../../src/node/create-node.ts'
import { ManualScheduler } from '../../src/sequencer/scheduler.ts'

async function get(url: string): Promise<{ status: number; body: { status: string; reason?: string } }> {
  const res = await fetch(url)
  return { status: res.status, body: (await res.json()) as { status: string; reason?: string } }
}

test('readyz follows the flashblocks: ready while they come, 503 with the reason once they stop; healthz stays 200', async (t) => {
  const clock = new ManualScheduler(Date.now())
  const running = await startNode(t, tempDir(t), testGenesis(), {
    sequencer: { ...DEFAULT_SEQUENCER, mode: 'auto', scheduler: clock, flashblockIntervalMs: 200 },
    readyMaxAgeMs: 1_000,
  })
  assert.equal((await get(`${running.url}/readyz`)).status, 503, 'not ready before the first flashblock')
  await running.node.start()
  for (let i = 0; i < 6; i++) {
    clock.advance(200)
    await running.node.sequencer!.idle()
    const ready = await get(`${running.url}/readyz`)
    assert.equal(ready.status, 200, `tick ${i}: ${ready.body.reason}`)
    assert.equal(ready.body.status, 'ready')
  }
  await running.node.sequencer!.stop() // the ticks stop; the clock goes on
  clock.advance(1_000)
  assert.equal((await get(`${running.url}/readyz`)).status, 200, 'at the limit: still ready')
  clock.advance(1)
  const late = await get(`${running.url}/readyz`)
  assert.equal(late.status, 503)
  assert.equal(late.body.status, 'not ready')
  assert.match(late.body.reason ?? '', /1001 ms old.*limit 1000 ms/, 'the reason names the age and the limit')
  assert.deepEqual(await get(`${running.url}/healthz`), { status: 200, body: { status: 'ok' } }, 'the process still serves')
})

test('a manually sealed node is ready: its flashblocks come when asked', async (t) => {
  const { url } = await servedManualNode(t)
  const ready = await get(`${url}/readyz`)
  assert.equal(ready.status, 200)
  assert.match(ready.body.reason ?? '', /manual/)
})
