/**
 * Followers behind a real load balancer (Debian's haproxy), as a deployment runs them: a sequencer sealing on
 * its own clock, two followers, haproxy in front of both with `option httpchk GET /readyz` (config written
 * here; each answer carries the name of the follower that served it, `X-Served-By`). One follower's link to
 * the sequencer is cut (a TCP relay between them stops): its stream goes silent, its /readyz turns 503 with
 * the reason once its newest flashblock is older than --ready-max-age, haproxy takes it out, and every
 * request keeps succeeding, served by the other follower only. The link restored, it is ready again and
 * back in the rotation. Each step waits for what it needs to see (haproxy's own view through its stats
 * socket), never for a time.
 */

import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { needsTool } from '../support/debian-tool.ts'
import { startHaproxy } from '../support/haproxy.ts'
import { spawnNode } from '../support/node-process.ts'
import { startTcpRelay } from '../support/tcp-relay.ts'
import { tempDir } from '../support/temp-dir.ts'
import { until } from '../support/follower-kit.ts'

/** Freshness limit of the followers' pending state and readiness (ms): above any stall of a 200 ms sequencer here. */
const MAX_AGE_MS = 3_000

/** One JSON-RPC call through the balancer: its result and the follower that answered. */
async function call(url: string, method: string): Promise<{ status: number; follower: string | null; result: unknown }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: [] }) })
  const body = (await res.json()) as { result?: unknown; error?: unknown }
  if (body.error !== undefined) throw new Error(`${method}: ${JSON.stringify(body.error)}`)
  return { status: res.status, follower: res.headers.get('x-served-by'), result: body.result }
}

const readyz = async (url: string): Promise<{ status: number; body: { status: string; reason?: string } }> => {
  const res = await fetch(`${url}/readyz`)
  return { status: res.status, body: (await res.json()) as { status: string; reason?: string } }
}

test('haproxy in front of two followers routes around the one whose stream went silent', { ...needsTool('haproxy', 'haproxy'), timeout: 180_000 }, async (t) => {
  const sequencer = await spawnNode(t, ['--datadir', tempDir(t), '--log-level', 'warn'])
  const sequencerPort = Number(new URL(sequencer.url).port)
  const relay = await startTcpRelay(t, sequencerPort)
  const follower = (upstream: string) => spawnNode(t, ['--datadir', tempDir(t), '--follow', upstream, '--ready-max-age', String(MAX_AGE_MS), '--log-level', 'error'])
  const [a, b] = await Promise.all([follower(sequencer.url), follower(`http://127.0.0.1:${relay.port}`)])
  for (const f of [a, b]) await until(`${f.url} ready`, async () => ((await readyz(f.url)).status === 200 ? true : undefined))
  const lb = await startHaproxy(t, { name: 'followers', check: '/readyz', servers: { a: Number(new URL(a.url).port), b: Number(new URL(b.url).port) } })
  const both = async () => {
    const statuses = await lb.status()
    return statuses['a'] === 'UP' && statuses['b'] === 'UP' ? true : undefined
  }
  await until('both followers up in haproxy', both)

  const served = async (n: number): Promise<Set<string>> => {
    const by = new Set<string>()
    for (let i = 0; i < n; i++) {
      const answer = await call(lb.url, 'eth_blockNumber')
      assert.equal(answer.status, 200)
      assert.match(String(answer.result), /^0x[0-9a-f]+$/)
      by.add(answer.follower ?? 'unnamed')
    }
    return by
  }
  assert.deepEqual([...(await served(20))].sort(), ['a', 'b'], 'both followers serve')

  // b's link to the sequencer is cut: its stream goes silent. Requests keep being sent all along.
  await relay.cut()
  let sent = 0
  await until('haproxy to take b out', async () => {
    sent += (await served(1)).size
    return (await lb.status())['b']?.startsWith('DOWN') ? true : undefined
  })
  assert.ok(sent > 0)
  const reason = await readyz(b.url)
  assert.equal(reason.status, 503)
  assert.match(reason.body.reason ?? '', /flashblock/i, 'the reason names the stale flashblock')
  assert.equal((await readyz(a.url)).status, 200)
  assert.deepEqual([...(await served(30))], ['a'], 'only the ready follower serves')

  // The link back: b catches up, is ready again, and haproxy sends it traffic again.
  await relay.reopen()
  await until('b ready again', async () => ((await readyz(b.url)).status === 200 ? true : undefined))
  await until('both followers up in haproxy again', both)
  assert.deepEqual([...(await served(20))].sort(), ['a', 'b'])
})
