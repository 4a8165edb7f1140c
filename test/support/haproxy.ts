/**
 * A real load balancer (Debian's haproxy) in front of node processes, for tests: one frontend on a free
 * loopback port, one backend whose servers haproxy health-checks with `GET <check>` (200 = up), each answer
 * carrying the name of the server that gave it (`X-Served-By`); its own view of the servers through its
 * stats socket. Stopped by the test. Whether haproxy is installed is the caller's question (needsTool).
 */

import type { TestContext } from 'node:test'
import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import { join } from 'node:path'
import { freePort } from './debian-tool.ts'
import { tempDir } from './temp-dir.ts'
import { until } from './follower-kit.ts'

export interface Haproxy {
  readonly url: string
  /** haproxy's status of each server of the backend (UP, DOWN, …). */
  status(): Promise<Record<string, string>>
}

export interface HaproxyBackend {
  readonly name: string
  /** The health check's path (GET): /readyz for readers, /leader for the writes of a sequencer group. */
  readonly check: string
  /** Server name → its loopback port. */
  readonly servers: Readonly<Record<string, number>>
  /** Failed checks before a server is taken out, passed ones before it is back (default 2 and 2). */
  readonly fall?: number
  readonly rise?: number
}

function serverStatus(socketPath: string, backend: string): Promise<Record<string, string>> {
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
        if (record['pxname'] === backend && record['svname'] !== 'BACKEND') out[record['svname']!] = record['status']!
      }
      resolve(out)
    })
  })
}

export async function startHaproxy(t: TestContext, backend: HaproxyBackend): Promise<Haproxy> {
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
    `  default_backend ${backend.name}`,
    `backend ${backend.name}`,
    '  balance roundrobin',
    `  option httpchk GET ${backend.check}`,
    '  http-check expect status 200',
    '  http-response set-header X-Served-By %s',
    ...Object.entries(backend.servers).map(([name, p]) => `  server ${name} 127.0.0.1:${p} check inter 200ms fall ${backend.fall ?? 2} rise ${backend.rise ?? 2}`),
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
  const status = () => serverStatus(stats, backend.name)
  await until(`haproxy to serve (${err})`, async () => ((await status().catch(() => undefined)) !== undefined ? true : undefined))
  return { url: `http://127.0.0.1:${port}`, status }
}
