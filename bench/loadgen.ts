/**
 * Load generator: one OS process that drives keep-alive JSON-RPC POSTs at a server and prints ONE JSON
 * line (a LoadResult) on stdout. Run it apart from the server so the two never share an event loop:
 *   node --import tsx bench/loadgen.ts '<LoadConfig JSON>'     or     ... bench/loadgen.ts @config.json
 * (use @file for large configs: one argv string is capped at 128 KiB by Linux).
 *
 * `concurrency` workers each keep one request in flight (closed loop), taking bodies in turn from a shared
 * cursor: cycled, or sent once each when `once` is set (e.g. signed transactions). Requests completing
 * during `warmupMs` are not recorded; then the window of `durationMs` is measured (requests completing in
 * it), then no new request starts and in-flight ones get `drainMs`, after which the process exits anyway.
 * An error is a transport failure, an HTTP status other than 200, or a JSON-RPC `error` member; req/s counts
 * successful replies only (latencies include all). After a transport failure a worker pauses 10 ms.
 * With `waitForGo` it prints {"ready":true} on stderr and starts when a line arrives on stdin, so that a
 * parent can start several generators on the same clock.
 *
 * Clients: 'raw' (default; raw-http.ts, one keep-alive socket per worker), 'http' (node:http with a
 * keep-alive Agent), 'fetch' (Node's built-in undici fetch). Against Anvil on 2 cores, raw drove ~20,000
 * req/s at ~50% of a core, node:http ~9,000-10,000 at ~95% (the client was the bottleneck), fetch ~2,500
 * at >100% (figures in bench/README.md).
 */

import http from 'node:http'
import { readFileSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { pathToFileURL } from 'node:url'
import { LatencyHistogram, type SparseHistogram } from './histogram.ts'
import { buildRequest, RawConnection } from './raw-http.ts'

export type ClientKind = 'raw' | 'http' | 'fetch'

export interface LoadConfig {
  url: string
  /** JSON-RPC request bodies, already serialized. */
  bodies: string[]
  concurrency: number
  durationMs: number
  warmupMs: number
  /** Send each body at most once and stop when they run out (default: cycle). */
  once?: boolean
  client?: ClientKind
  /** Per-request timeout (default 10 s). */
  timeoutMs?: number
  /** Grace for in-flight requests after the window (default 2 s). */
  drainMs?: number
  waitForGo?: boolean
}

export interface LoadResult {
  client: ClientKind
  concurrency: number
  /** Replies received in the window, errors included. */
  requests: number
  errors: number
  errorSamples: string[]
  windowMs: number
  /** Successful replies per second (errors excluded). */
  rps: number
  p50Ms: number
  p99Ms: number
  meanMs: number
  maxMs: number
  /** CPU time of this generator during the window, as % of one core. */
  cpuPct: number
  /** CPU time of this generator since it was released (warm-up, window and drain), in ms. */
  cpuSinceGoMs: number
  hist: SparseHistogram
  sumUs: number
  maxUs: number
}

interface Reply {
  status: number
  text: string
}

/** Sends body number i; one Post per worker (a worker keeps one request in flight). */
type Post = (i: number) => Promise<Reply>
type PosterFactory = () => Post

function rawPosters(url: URL, bodies: Buffer[], timeoutMs: number): PosterFactory {
  const requests = bodies.map((b) => buildRequest(url, b))
  const port = Number(url.port || 80)
  return () => {
    const conn = new RawConnection(url.hostname, port, timeoutMs)
    return (i) => conn.post(requests[i]!)
  }
}

function httpPosters(url: URL, bodies: Buffer[], concurrency: number, timeoutMs: number): PosterFactory {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency, maxFreeSockets: concurrency })
  const base = { host: url.hostname, port: url.port, path: url.pathname || '/', method: 'POST', agent }
  const post: Post = (i) =>
    new Promise((resolve, reject) => {
      const body = bodies[i]!
      const req = http.request(
        { ...base, headers: { 'content-type': 'application/json', 'content-length': body.length } },
        (res) => {
          const chunks: Buffer[] = []
          res.on('data', (c: Buffer) => chunks.push(c))
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }))
          res.on('error', reject)
        },
      )
      req.on('error', reject)
      req.setTimeout(timeoutMs, () => req.destroy(new Error(`timeout after ${timeoutMs} ms`)))
      req.end(body)
    })
  return () => post
}

function fetchPosters(url: URL, bodies: string[], timeoutMs: number): PosterFactory {
  const href = url.href
  const post: Post = async (i) => {
    const res = await fetch(href, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: bodies[i]!,
      signal: AbortSignal.timeout(timeoutMs),
    })
    return { status: res.status, text: await res.text() }
  }
  return () => post
}

/** Why a reply is an error, or undefined. JSON is parsed only when an error member may be present. */
export function replyError(r: Reply): string | undefined {
  if (r.status !== 200) return `HTTP ${r.status}: ${r.text.slice(0, 200)}`
  if (!r.text.includes('"error"')) return undefined
  try {
    const parsed = JSON.parse(r.text) as unknown
    const items = Array.isArray(parsed) ? parsed : [parsed]
    for (const item of items) {
      const e = (item as { error?: unknown } | null)?.error
      if (e !== undefined && e !== null) return `JSON-RPC error: ${JSON.stringify(e).slice(0, 200)}`
    }
    return undefined
  } catch {
    return `unparseable reply: ${r.text.slice(0, 200)}`
  }
}

export async function runLoad(cfg: LoadConfig): Promise<LoadResult> {
  const client = cfg.client ?? 'raw'
  const timeoutMs = cfg.timeoutMs ?? 10_000
  const url = new URL(cfg.url)
  const bodies = cfg.bodies.map((b) => Buffer.from(b, 'utf8'))
  if (bodies.length === 0) throw new Error('no request bodies')
  const posters =
    client === 'raw'
      ? rawPosters(url, bodies, timeoutMs)
      : client === 'http'
        ? httpPosters(url, bodies, cfg.concurrency, timeoutMs)
        : fetchPosters(url, cfg.bodies, timeoutMs)

  const hist = new LatencyHistogram()
  const errorSamples: string[] = []
  let errors = 0
  let cursor = 0
  const t0 = performance.now()
  const cpuAtGo = process.cpuUsage()
  const windowStart = t0 + cfg.warmupMs
  const windowEnd = windowStart + cfg.durationMs
  let cpuAtStart: NodeJS.CpuUsage | undefined
  const startTimer = setTimeout(() => (cpuAtStart = process.cpuUsage()), cfg.warmupMs)
  let cpuInWindow: NodeJS.CpuUsage | undefined
  const endTimer = setTimeout(() => (cpuInWindow = process.cpuUsage(cpuAtStart)), cfg.warmupMs + cfg.durationMs)

  const worker = async (): Promise<void> => {
    const post = posters()
    for (;;) {
      const started = performance.now()
      if (started >= windowEnd) return
      if (cfg.once === true && cursor >= bodies.length) return
      const i = cursor++ % bodies.length
      let problem: string | undefined
      try {
        problem = replyError(await post(i))
      } catch (e) {
        problem = `transport: ${(e as Error).message}`
      }
      const done = performance.now()
      if (problem?.startsWith('transport') === true) await new Promise((r) => setTimeout(r, 10)) // no hot loop
      if (done < windowStart || done > windowEnd) continue
      hist.record((done - started) * 1000)
      if (problem !== undefined) {
        errors++
        if (errorSamples.length < 3) errorSamples.push(problem)
      }
    }
  }
  const workers = Promise.all(Array.from({ length: cfg.concurrency }, worker))
  const drainLimit = new Promise<void>((resolve) =>
    setTimeout(resolve, cfg.warmupMs + cfg.durationMs + (cfg.drainMs ?? 2000)).unref(),
  )
  await Promise.race([workers, drainLimit])
  clearTimeout(startTimer)
  clearTimeout(endTimer)
  const windowMs = Math.min(performance.now(), windowEnd) - windowStart
  const cpu = cpuInWindow ?? process.cpuUsage(cpuAtStart)
  return {
    client,
    concurrency: cfg.concurrency,
    requests: hist.total,
    errors,
    errorSamples,
    windowMs,
    rps: windowMs > 0 ? ((hist.total - errors) * 1000) / windowMs : 0,
    p50Ms: hist.quantileMs(0.5),
    p99Ms: hist.quantileMs(0.99),
    meanMs: hist.meanMs(),
    maxMs: hist.maxUs / 1000,
    cpuPct: windowMs > 0 ? ((cpu.user + cpu.system) / 1000 / windowMs) * 100 : 0,
    cpuSinceGoMs: ((c) => (c.user + c.system) / 1000)(process.cpuUsage(cpuAtGo)),
    hist: hist.toSparse(),
    sumUs: hist.sumUs,
    maxUs: hist.maxUs,
  }
}

async function waitForGo(): Promise<void> {
  process.stderr.write('{"ready":true}\n')
  const rl = createInterface({ input: process.stdin })
  await new Promise<void>((resolve) => rl.once('line', () => resolve()))
  rl.close()
}

async function main(): Promise<void> {
  const arg = process.argv[2]
  if (arg === undefined) throw new Error('usage: loadgen.ts <LoadConfig JSON | @file>')
  const cfg = JSON.parse(arg.startsWith('@') ? readFileSync(arg.slice(1), 'utf8') : arg) as LoadConfig
  if (cfg.waitForGo === true) await waitForGo()
  const result = await runLoad(cfg)
  process.stdout.write(`${JSON.stringify(result)}\n`)
  process.exit(0) // do not wait for idle keep-alive sockets
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((e: unknown) => {
    process.stderr.write(`loadgen: ${(e as Error).stack ?? String(e)}\n`)
    process.exit(2)
  })
}
