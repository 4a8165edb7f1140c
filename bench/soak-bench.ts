/**
 * Scenario "soak": a mixed load at a FIXED rate for a fixed time, each peer sequencing as it normally does
 * (Flashnode at 200 ms flashblocks, Anvil with 2 s blocks), reporting errors (must be zero), latency p50 /
 * p99, and the server's memory at the start and the end of the window.
 *
 * The load is an open loop driven from this process: request i is due at i / RATE seconds, whatever
 * happened before, and its latency is measured from when it was DUE (so a server that stalls is charged for
 * the requests that queued behind the stall; no coordinated omission). Requests go out on a pool of raw
 * keep-alive connections (raw-http.ts) that grows when every connection is busy, up to MAX_CONNECTIONS; a
 * request that finds none is an error. The mix, per 20 requests: 12 state reads at `latest` and `pending`
 * (balance, storage slot, code, nonce, block number, latest block), 5 eth_call balanceOf, 3
 * eth_sendRawTransaction of an ETH transfer (fresh nonces over 64 senders, signed before the window).
 * Errors: any transport failure, non-200 status or JSON-RPC error, quoted in the notes.
 *
 * Memory: /proc VmRSS and RssAnon of the server process, sampled every second. RSS includes the resident
 * pages of Flashnode's memory-mapped database (file-backed, growing with the chain by design), so RssAnon
 * (heap, stacks: what a leak grows) is the figure to watch; its least-squares slope over the second half
 * of the window is reported in MB/min. The window is the run's --duration but at least 60 s (3 s with
 * --quick): `npm run bench -- --only soak --reps 1 --duration 600000` soaks for ten minutes.
 */

import { readFileSync } from 'node:fs'
import { encodeFunctionData, type Hex } from 'viem'
import { balanceSlot, ERC20_ABI } from '../test/fixtures/erc20/index.ts'
import { LatencyHistogram } from './histogram.ts'
import { buildRequest, RawConnection } from './raw-http.ts'
import { rpcBody } from './rpc.ts'
import type { BenchCase, CaseRun, Measured, Scenario, ScenarioContext } from './scenario.ts'
import { TxFactory } from './txs.ts'

const RATE = 200
const SENDERS = 64
const MAX_CONNECTIONS = 256
const MIN_WINDOW_MS = 60_000
const QUICK_WINDOW_MS = 3_000
const SAMPLE_MS = 1_000
const IDLE_RETIRE_MS = 4_000
const MB = 1024 * 1024

interface Memory {
  rss: number
  anon: number
}

/** VmRSS and RssAnon of `pid`, in bytes; undefined once the process is gone. */
function memoryOf(pid: number): Memory | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const kb = (name: string): number => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN) * 1024
    return { rss: kb('VmRSS'), anon: kb('RssAnon') }
  } catch {
    return undefined
  }
}

/** Least-squares slope of (t ms, bytes) points, in MB per minute. */
function slopeMbPerMin(points: readonly [number, number][]): number {
  if (points.length < 2) return Number.NaN
  const n = points.length
  const mx = points.reduce((s, p) => s + p[0], 0) / n
  const my = points.reduce((s, p) => s + p[1], 0) / n
  let num = 0
  let den = 0
  for (const [x, y] of points) {
    num += (x - mx) * (y - my)
    den += (x - mx) ** 2
  }
  return den === 0 ? Number.NaN : ((num / den) * 60_000) / MB
}

/** The cyclic mix of read and call bodies (transactions are added per window, once each). */
function readMix(ctx: ScenarioContext): { reads: string[]; calls: string[] } {
  const holders = ctx.chain.accounts.slice(0, SENDERS).map((a) => a.address)
  const token = ctx.chain.token
  const reads: string[] = []
  const calls: string[] = []
  holders.forEach((h, i) => {
    const tag = i % 2 === 0 ? 'latest' : 'pending'
    reads.push(
      rpcBody(1, 'eth_getBalance', [h, tag]),
      rpcBody(1, 'eth_getStorageAt', [token, balanceSlot(h), tag]),
      rpcBody(1, 'eth_getCode', [token, tag]),
      rpcBody(1, 'eth_getTransactionCount', [h, 'pending']),
      rpcBody(1, 'eth_blockNumber', []),
      rpcBody(1, 'eth_getBlockByNumber', ['latest', false]),
    )
    calls.push(rpcBody(1, 'eth_call', [{ to: token, data: encodeFunctionData({ abi: ERC20_ABI, functionName: 'balanceOf', args: [h as Hex] }) }, tag]))
  })
  return { reads, calls }
}

/**
 * Keep-alive connections, most recently used first. A connection idle for IDLE_RETIRE_MS is closed rather
 * than reused: servers close idle keep-alive sockets (Flashnode after 5 s, advertised as `Keep-Alive:
 * timeout=5`), and a request written just as that happens fails with ECONNRESET, a client bug, not a
 * server error. Well-behaved clients (undici) retire connections before the advertised timeout too.
 */
class ConnectionPool {
  private readonly idle: { conn: RawConnection; since: number }[] = []
  private opened = 0
  private live = 0
  constructor(private readonly url: URL) {}

  take(): RawConnection | undefined {
    const now = performance.now()
    for (let entry = this.idle.pop(); entry !== undefined; entry = this.idle.pop()) {
      if (now - entry.since < IDLE_RETIRE_MS) return entry.conn
      entry.conn.close()
      this.live--
    }
    if (this.live >= MAX_CONNECTIONS) return undefined // every live connection is busy
    this.opened++
    this.live++
    return new RawConnection(this.url.hostname, Number(this.url.port), 30_000)
  }

  give(conn: RawConnection): void {
    this.idle.push({ conn, since: performance.now() })
  }

  /** Connections opened over the run (a stall makes the open loop open more). */
  size(): number {
    return this.opened
  }

  close(): void {
    for (const { conn } of this.idle) conn.close()
  }
}

async function soak(run: CaseRun, ctx: ScenarioContext, factory: TxFactory): Promise<Measured> {
  const windowMs = Math.max(run.durationMs, run.quick ? QUICK_WINDOW_MS : MIN_WINDOW_MS)
  const totalMs = run.warmupMs + windowMs
  const { reads, calls } = readMix(ctx)
  const sends = Math.ceil(((totalMs / 1000) * RATE * 3) / 20) + 1
  const txs = factory.batch('eth', sends, undefined, undefined).map((t) => rpcBody(1, 'eth_sendRawTransaction', [t.raw]))
  const url = new URL(run.node.url)
  const pool = new ConnectionPool(url)
  const histogram = new LatencyHistogram()
  const errorSamples: string[] = []
  let errors = 0
  let counted = 0
  const memory: [number, Memory][] = []
  const counts = { read: 0, call: 0, send: 0 }

  const nextBody = (i: number): string => {
    const slot = i % 20
    if (slot < 12) return reads[counts.read++ % reads.length]!
    if (slot < 17) return calls[counts.call++ % calls.length]!
    return txs[counts.send++] ?? rpcBody(1, 'eth_blockNumber', [])
  }
  const fail = (why: string, measured: boolean): void => {
    if (!measured) return
    errors++
    if (errorSamples.length < 5) errorSamples.push(why.slice(0, 200))
  }

  const started = performance.now()
  const inFlight = new Set<Promise<void>>()
  const sampler = setInterval(() => {
    const m = memoryOf(run.node.serverPid)
    const t = performance.now() - started - run.warmupMs
    if (m !== undefined && t >= 0) memory.push([t, m])
  }, SAMPLE_MS)
  try {
    for (let i = 0; ; i++) {
      const due = (i * 1000) / RATE
      if (due >= totalMs) break
      const wait = due - (performance.now() - started)
      if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait))
      const measured = due >= run.warmupMs
      if (measured && memory.length === 0) {
        const m = memoryOf(run.node.serverPid)
        if (m !== undefined) memory.push([0, m])
      }
      const body = nextBody(i)
      const conn = pool.take()
      if (conn === undefined) {
        fail(`no free connection (${MAX_CONNECTIONS} busy)`, measured)
        continue
      }
      const p = conn
        .post(buildRequest(url, Buffer.from(body)))
        .then((reply) => {
          const ms = performance.now() - started - due
          if (measured) {
            counted++
            histogram.record(ms * 1000)
          }
          if (reply.status !== 200) return fail(`HTTP ${reply.status}: ${reply.text}`, measured)
          const answer = JSON.parse(reply.text) as { error?: { code: number; message: string } }
          if (answer.error !== undefined) fail(`${body.slice(0, 60)}… → ${answer.error.code} ${answer.error.message}`, measured)
        })
        .catch((e: unknown) => fail(`${body.slice(0, 60)}… → ${(e as Error).message}`, measured))
        .finally(() => {
          pool.give(conn)
          inFlight.delete(p)
        })
      inFlight.add(p)
    }
    await Promise.all(inFlight)
  } finally {
    clearInterval(sampler)
    pool.close()
  }
  const end = memoryOf(run.node.serverPid)
  if (end !== undefined) memory.push([windowMs, end])
  const first = memory[0]?.[1]
  const last = memory.at(-1)?.[1]
  const secondHalf = memory.filter(([t]) => t >= windowMs / 2).map(([t, m]): [number, number] => [t, m.anon])
  return {
    rate: counted / (windowMs / 1000),
    p50Ms: histogram.quantileMs(0.5),
    p99Ms: histogram.quantileMs(0.99),
    count: counted,
    errors,
    errorSamples,
    extras: {
      'rss start MB': (first?.rss ?? Number.NaN) / MB,
      'rss end MB': (last?.rss ?? Number.NaN) / MB,
      'anon start MB': (first?.anon ?? Number.NaN) / MB,
      'anon end MB': (last?.anon ?? Number.NaN) / MB,
      'anon slope MB/min (2nd half)': slopeMbPerMin(secondHalf),
      'connections used': pool.size(),
      'window s': windowMs / 1000,
    },
  }
}

function cases(ctx: ScenarioContext): BenchCase[] {
  const factory = new TxFactory(ctx.chain.chainId, ctx.chain.token, SENDERS)
  return [
    {
      name: `mixed reads, calls and sends at ${RATE} req/s (open loop)`,
      unit: 'req/s',
      compare: 'p50',
      warmupMs: 2_000,
      measure: (run) => soak(run, ctx, factory),
    },
  ]
}

export const soakBench: Scenario = {
  name: 'soak',
  title: `Soak: a fixed ${RATE} req/s of mixed reads, eth_call and eth_sendRawTransaction; errors, p99 and memory over the window`,
  genesis: { accounts: SENDERS, gasLimit: 200_000_000n },
  anvilArgs: ['--block-time', '2'],
  mutatesState: true,
  notes: () => [
    `open loop: request i due at i/${RATE} s, latency from when it was due; mix per 20: 12 reads (latest and pending), 5 eth_call, 3 sends`,
    'errors must be 0 (any transport failure, non-200 or JSON-RPC error counts); rate = answers per second of the window',
    'memory (per peer below): VmRSS includes the mapped database (grows with the chain); RssAnon is the leak indicator, its slope taken over the second half',
  ],
  cases,
}
