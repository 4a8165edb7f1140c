/**
 * Follower probe: one OS process holding an eth_subscribe("newFlashblockTransactions") subscription on the
 * sequencer and one on each follower. Each node announces a transaction hash when the transaction becomes
 * readable through its `pending`; the probe records when each announcement arrives, per node, and reports
 * for every transaction the follower's arrival minus the sequencer's: what following adds to a
 * pre-confirmation's visibility (the stream, the follower's apply, its announcement). Prints `ready` once
 * every subscription is confirmed, then, after `warmupMs + runMs + drainMs`, one JSON line. Transactions the
 * sequencer announces during the first `warmupMs` are not counted (a follower just started runs its first
 * seals and applies cold: those are its start, not its steady state; the rows say how long).
 *   node --import tsx bench/follower-probe.ts @config.json
 */

import { runAsProbe } from './probe-process.ts'
import WebSocket from 'ws'

export interface FollowerProbeConfig {
  sequencer: string
  followers: string[]
  /** Announcements by the sequencer before ready + warmupMs are left out. */
  warmupMs: number
  runMs: number
  drainMs: number
}

export interface FollowerProbeResult {
  /** Per follower: follower arrival − sequencer arrival (ms), for each transaction both announced. */
  delaysMs: number[][]
  /** Transactions the sequencer announced after the warm-up. */
  announced: number
  /** Per follower: transactions the sequencer announced that it never did. */
  missing: number[]
  cpuMs: number
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

async function subscribe(url: string, seen: Map<string, number>): Promise<WebSocket> {
  const ws = new WebSocket(url.replace(/^http/, 'ws'), { perMessageDeflate: false })
  let confirmed: () => void = () => undefined
  const subscribed = new Promise<void>((r) => (confirmed = r))
  ws.on('message', (data: Buffer) => {
    const at = performance.now()
    const m = JSON.parse(data.toString('utf8')) as { id?: number; params?: { result: string } }
    if (m.id === 1) return confirmed()
    const hash = m.params?.result
    if (hash !== undefined && !seen.has(hash)) seen.set(hash, at)
  })
  await new Promise<void>((resolve, reject) => ws.once('open', () => resolve()).once('error', reject))
  ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newFlashblockTransactions'] }))
  await subscribed
  return ws
}

export async function probe(cfg: FollowerProbeConfig): Promise<FollowerProbeResult> {
  const cpu0 = process.cpuUsage()
  const atSequencer = new Map<string, number>()
  const atFollowers = cfg.followers.map(() => new Map<string, number>())
  const sockets = [await subscribe(cfg.sequencer, atSequencer), ...(await Promise.all(cfg.followers.map((u, i) => subscribe(u, atFollowers[i]!))))]
  process.stdout.write('ready\n')
  const measuredFrom = performance.now() + cfg.warmupMs
  await sleep(cfg.warmupMs + cfg.runMs + cfg.drainMs)
  for (const ws of sockets) ws.terminate()
  const cpu = process.cpuUsage(cpu0)
  const measured = [...atSequencer].filter(([, t]) => t >= measuredFrom)
  const delaysMs = atFollowers.map((seen) => measured.flatMap(([hash, t]) => (seen.has(hash) ? [seen.get(hash)! - t] : [])))
  return {
    delaysMs,
    announced: measured.length,
    missing: atFollowers.map((seen) => measured.filter(([h]) => !seen.has(h)).length),
    cpuMs: (cpu.user + cpu.system) / 1000,
  }
}

runAsProbe(import.meta.url, probe)
