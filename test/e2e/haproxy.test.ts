/**
 * Followers behind a real load balancer (Debian's haproxy), as a deployment runs them: a sequencer sealing on
 * its own clock, two followers, haproxy in front of both with `option httpchk GET /readyz` (config written
 * here; each answer carries the name of the follower that served it, `X-Follower`). One follower's link to
 * the sequencer is cut (a TCP relay between them stops): its stream goes silent, its /readyz turns 503 with
 * the reason once its newest flashblock is older than --ready-max-age, haproxy takes it out, and every
 * request keeps succeeding, served by the other follower only. The link restored, it is ready again and
 * back in the rotation. Each step waits for what it needs to see (haproxy's own view through its stats
 * socket), never for a time.
 */

import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import { join } from 'node:path'
import { freePort, needsTool } from '../support/debian-tool.ts'
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
  return { status: res.status, follower: res.headers.get('x-follower'), result: body.result }
}

/** haproxy's status of each server of the backend (UP, DOWN, …), through its stats socket. */
function serverStatus(socketPath: string): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    let text = ''
    const socket = connect(socketPath, () => socket.end('show stat\n'))
    socket.on('data', (d) => (text += String(d)))
    socket.on('error', reject)
    socket.on('end', () => {
      const [header, ...rows] = text.trim().split('\n')
      const columns = header!.replace(/^# /, '').split(',')
      const out: Record<string, string> = {}
      for (const row of rows) {
        const cells = row.split(',')
        const record = Object.fromEntries(columns.map((c, i) => [c, cells[i] ?? '']))
        if (record['pxname'] === 'followers' && record['svname'] !== 'BACKEND') out[record['svname']!] = record['status']!
      }
      resolve(out)
    })
  })
}

async function startHaproxy(t: TestContext, backends: Record<string, number>): Promise<{ url: string; stats: string }> {
  const dir = tempDir(t, 'flashnode-haproxy-')
  const port = await freePort()
  const stats = join(dir, 'stats.sock')
  const config = [
    'global',
    `  stats socket ${stats} mode 600 level admin`,
    'defaults',
    '  mode http',
    '  timeout connect 1s',
    '  timeout client 10s',
    '  timeout server 10s',
    'frontend rpc',
    `  bind 127.0.0.1:${port}`,
    '  default_backend followers',
    'backend followers',
    '  balance roundrobin',
    '  option httpchk GET /readyz',
    '  http-check expect status 200',
    '  http-response set-header X-Follower %s',
    ...Object.entries(backends).map(([name, p]) => `  server ${name} 127.0.0.1:${p} check inter 200ms fall 2 rise 2`),
  ].join('\n')
  const file = join(dir, 'haproxy.cfg')
  writeFileSync(file, `${config}\n`)
  const child = spawn('haproxy', ['-db', '-f', file], { stdio: ['ignore', 'ignore', 'pipe'] })
  let err = ''
  child.stderr!.on('data', (d) => (err += String(d)))
  const exited = new Promise((resolve) => child.once('exit', resolve))
  t.after(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
    await exited
  })
  await until(`haproxy to serve (${err})`, async () => ((await serverStatus(stats)) !== undefined ? true : undefined))
  return { url: `http://127.0.0.1:${port}`, stats }
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
  const lb = await startHaproxy(t, { a: Number(new URL(a.url).port), b: Number(new URL(b.url).port) })
  const both = async () => {
    const statuses = await serverStatus(lb.stats)
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
    return (await serverStatus(lb.stats))['b']?.startsWith('DOWN') ? true : undefined
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
