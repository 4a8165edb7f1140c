/**
 * Scenario "soak": steady load at a FIXED rate for a long window (30 minutes by default: `--soak-duration
 * MS` shortens it, `--quick` makes it 3 s), each peer sequencing as it normally does (Flashnode at 200 ms
 * flashblocks, Anvil with 2 s blocks). It answers two questions: does the server's memory stay flat under
 * steady load, and does a keep-alive client ever see its connection cut (ECONNRESET and the like)?
 *
 * Load: an open loop driven from this process: request i is due at i / (READS + SENDS) seconds whatever
 * happened before, and its latency is measured from when it was DUE (a stall is charged for the requests
 * that queued behind it). READS_PER_S reads of the service contract's six read methods (eth_call,
 * eth_simulateV1, eth_getBlockReceipts, eth_getStorageAt, eth_getTransactionCount, eth_getCode), at
 * `latest` and `pending` in turn, with inputs that differ request to request (random holders, slots and
 * addresses, so every cache keyed by input keeps meeting new keys), and SENDS_PER_S eth_sendRawTransaction
 * (ETH and ERC-20 transfers, fresh nonces over 64 senders, signed as they are due).
 *
 * Client: node:http with a keep-alive Agent as applications use it (`keepAlive: true`, up to MAX_SOCKETS
 * sockets, no client-side idle timeout: the Agent then reuses an idle socket however old it is, and relies
 * on the server never to close one that a request is being written to). Every failure counts as an error:
 * a transport error (no HTTP answer: ECONNRESET, socket hang up, EPIPE…), a non-200 status, a JSON-RPC
 * error; the transport errors are also counted on their own.
 *
 * Memory: /proc VmRSS, RssAnon and RssFile of the server process every SAMPLE_MS. RssAnon is the process's
 * own memory (JS heaps of every thread, buffers, native allocations: what a leak grows); RssFile is mostly
 * the resident pages of Flashnode's memory-mapped database (the LMDB file, which grows with the chain, and
 * whose pages the kernel may drop at will). Least-squares slopes in MB/min over the whole window and over
 * its last half, each with ± twice its standard error (samples are not independent, so read it as a
 * rough noise band), for RSS and RssAnon. Beside them, from the inside (soak-memory.ts: `flashnode_memory`),
 * every thread's V8 heap and every bounded structure against its bound, printed at the end with their
 * slopes over the last half (the last hour of a window of two hours or more).
 */

import { readFileSync } from 'node:fs'
import { randomBytes } from 'node:crypto'
import { Agent, request } from 'node:http'
import { encodeFunctionData, type Address, type Hex } from 'viem'
import { balanceSlot, ERC20_ABI } from '../test/fixtures/erc20/index.ts'
import { LatencyHistogram } from './histogram.ts'
import { rpcBody } from './rpc.ts'
import type { BenchCase, CaseRun, Measured, Scenario, ScenarioContext } from './scenario.ts'
import { TxFactory, type TxKind } from './txs.ts'
import { InsideSampler } from './soak-memory.ts'
import { followerReady, startFollower } from './follower-node.ts'
import type { RunningNode } from './nodes.ts'

const READS_PER_S = 200
const SENDS_PER_S = 50
const SENDERS = 64
const MAX_SOCKETS = 64
/** The default window: 30 minutes. */
export const SOAK_DEFAULT_MS = 30 * 60_000
const QUICK_WINDOW_MS = 3_000
const SAMPLE_MS = 5_000
const REQUEST_TIMEOUT_MS = 60_000
const MB = 1024 * 1024

interface Memory {
  rss: number
  anon: number
  file: number
}

/** VmRSS, RssAnon and RssFile of `pid`, in bytes; undefined once the process is gone. */
function memoryOf(pid: number): Memory | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const kb = (name: string): number => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN) * 1024
    return { rss: kb('VmRSS'), anon: kb('RssAnon'), file: kb('RssFile') }
  } catch {
    return undefined
  }
}

/** Least-squares slope of (t ms, bytes) points in MB per minute, and twice its standard error. */
export function slopeMbPerMin(points: readonly (readonly [number, number])[]): { slope: number; twoSe: number } {
  const n = points.length
  if (n < 3) return { slope: Number.NaN, twoSe: Number.NaN }
  const mx = points.reduce((s, p) => s + p[0], 0) / n
  const my = points.reduce((s, p) => s + p[1], 0) / n
  let sxy = 0
  let sxx = 0
  for (const [x, y] of points) {
    sxy += (x - mx) * (y - my)
    sxx += (x - mx) ** 2
  }
  if (sxx === 0) return { slope: Number.NaN, twoSe: Number.NaN }
  const b = sxy / sxx
  let sse = 0
  for (const [x, y] of points) sse += (y - my - b * (x - mx)) ** 2
  const se = Math.sqrt(sse / (n - 2) / sxx)
  const perMin = 60_000 / MB
  return { slope: b * perMin, twoSe: 2 * se * perMin }
}

const randomAddress = (): Address => `0x${randomBytes(20).toString('hex')}`
const randomWord = (): Hex => `0x${randomBytes(32).toString('hex')}`

/** The read requests, in a fixed cycle of 20 (per method: 5 calls, 4 slots, 3 codes, 4 nonces, 2 receipts, 2 simulations). */
function readBody(i: number, ctx: ScenarioContext): string {
  const tag = i % 2 === 0 ? 'latest' : 'pending'
  const holders = ctx.chain.accounts
  const token = ctx.chain.token
  // A quarter of the inputs name things that exist (holders, the token), the rest are new every time.
  const known = (i >> 1) % 4 === 0
  const holder = known ? holders[i % holders.length]!.address : randomAddress()
  const balanceOf = encodeFunctionData({ abi: ERC20_ABI, functionName: 'balanceOf', args: [holder] })
  switch (i % 20) {
    case 0:
    case 1:
    case 2:
    case 3:
    case 4:
      return rpcBody(i, 'eth_call', [{ to: token, data: balanceOf }, tag])
    case 5:
    case 6:
    case 7:
    case 8:
      return rpcBody(i, 'eth_getStorageAt', [token, known ? balanceSlot(holder) : randomWord(), tag])
    case 9:
    case 10:
    case 11:
      return rpcBody(i, 'eth_getCode', [known ? token : holder, tag])
    case 12:
    case 13:
    case 14:
    case 15:
      return rpcBody(i, 'eth_getTransactionCount', [holder, tag])
    case 16:
    case 17:
      return rpcBody(i, 'eth_getBlockReceipts', [tag])
    default:
      return rpcBody(i, 'eth_simulateV1', [{ blockStateCalls: [{ calls: [{ from: randomAddress(), to: token, data: balanceOf }] }] }, tag])
  }
}

interface Reply {
  readonly status: number
  readonly text: string
}

/** One POST through the keep-alive agent; rejects with the transport error when no HTTP answer came. */
function post(agent: Agent, url: URL, body: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        path: '/',
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        timeout: REQUEST_TIMEOUT_MS,
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }))
        res.on('error', reject)
      },
    )
    req.on('timeout', () => req.destroy(Object.assign(new Error('request timed out'), { code: 'ETIMEDOUT' })))
    req.on('error', reject)
    req.end(body)
  })
}

/** The memory figures of one watched process (names prefixed with its `prefix`); prints its inside summary. */
async function memoryFigures(w: Watched, now: number, windowMs: number): Promise<Record<string, number>> {
  await w.inside.sample(now)
  const insideSummary = w.inside.summary(windowMs, slopeMbPerMin)
  if (w.prefix !== '') console.log(`${w.prefix.trim()}:`)
  console.log(insideSummary.lines.join('\n') + (insideSummary.file === undefined ? '' : `\n  samples: ${insideSummary.file}`))
  const memory = w.memory
  const series = (pick: (m: Memory) => number, from: number): [number, number][] =>
    memory.filter(([t]) => t >= from).map(([t, m]) => [t, pick(m)])
  const first = memory[0]?.[1]
  const last = memory.at(-1)?.[1]
  const rssWhole = slopeMbPerMin(series((m) => m.rss, 0))
  const rssHalf = slopeMbPerMin(series((m) => m.rss, windowMs / 2))
  const anonWhole = slopeMbPerMin(series((m) => m.anon, 0))
  const anonHalf = slopeMbPerMin(series((m) => m.anon, windowMs / 2))
  const anonHour = windowMs >= 2 * 3_600_000 ? slopeMbPerMin(series((m) => m.anon, windowMs - 3_600_000)) : undefined
  const anonPeak = Math.max(...memory.map(([, m]) => m.anon))
  const mb = (x: number | undefined): number => (x ?? Number.NaN) / MB
  const figures: Record<string, number> = {
    'rss start MB': mb(first?.rss),
    'rss end MB': mb(last?.rss),
    'rss slope MB/min (whole)': rssWhole.slope,
    'rss slope ±2SE (whole)': rssWhole.twoSe,
    'rss slope MB/min (last half)': rssHalf.slope,
    'rss slope ±2SE (last half)': rssHalf.twoSe,
    'anon start MB': mb(first?.anon),
    'anon end MB': mb(last?.anon),
    'anon slope MB/min (whole)': anonWhole.slope,
    'anon slope MB/min (last half)': anonHalf.slope,
    'anon slope ±2SE (last half)': anonHalf.twoSe,
    ...(anonHour === undefined ? {} : { 'anon slope MB/min (last hour)': anonHour.slope, 'anon slope ±2SE (last hour)': anonHour.twoSe }),
    'anon peak MB': mb(anonPeak),
    'file (mapped db) end MB': mb(last?.file),
    'file slope MB/min (last half)': slopeMbPerMin(series((m) => m.file, windowMs / 2)).slope,
    ...insideSummary.extras,
  }
  return Object.fromEntries(Object.entries(figures).map(([k, v]) => [`${w.prefix}${k}`, v]))
}

/** One process whose memory the soak samples: /proc from outside, flashnode_memory from inside. */
interface Watched {
  /** '' for the process the load goes to; 'sequencer ' for the sequencer behind a follower. */
  readonly prefix: string
  readonly pid: number
  readonly inside: InsideSampler
  readonly memory: [number, Memory][]
}

const watch = (prefix: string, node: RunningNode): Watched => ({ prefix, pid: node.serverPid, inside: new InsideSampler(node.url), memory: [] })

/**
 * The soak on `run.node`, or with `follow`, on a follower of it started here: the whole load (reads, and
 * sends the follower forwards) goes to the follower, and both processes' memory is sampled.
 */
async function soak(run: CaseRun, ctx: ScenarioContext, factory: TxFactory, follow: boolean): Promise<Measured> {
  const follower = follow ? await startFollower(ctx.chain, run.node) : undefined
  try {
    if (follower !== undefined) await followerReady(follower.node.url)
    const target = follower?.node ?? run.node
    const watched = [watch('', target), ...(follower === undefined ? [] : [watch('sequencer ', run.node)])]
    return await soakOn(run, ctx, factory, target, watched)
  } finally {
    await follower?.cleanup()
  }
}

async function soakOn(run: CaseRun, ctx: ScenarioContext, factory: TxFactory, target: RunningNode, watched: readonly Watched[]): Promise<Measured> {
  const windowMs = run.quick ? QUICK_WINDOW_MS : run.durationMs
  const totalMs = run.warmupMs + windowMs
  const perSecond = READS_PER_S + SENDS_PER_S
  const sendEvery = perSecond / SENDS_PER_S // every 5th request is a send
  const url = new URL(target.url)
  const agent = new Agent({ keepAlive: true, maxSockets: MAX_SOCKETS })
  const sockets = new Set<unknown>()
  agent.on('free', (socket) => sockets.add(socket))
  const histogram = new LatencyHistogram()
  const errorSamples: string[] = []
  const failures = { transport: 0, http: 0, rpc: 0 }
  let counted = 0
  let reads = 0
  const nonces = new Array<number>(factory.senders).fill(0)
  let sends = 0

  const nextBody = (i: number): string => {
    if (i % sendEvery === sendEvery - 1) {
      const sender = sends % factory.senders
      const kind: TxKind = sends % 2 === 0 ? 'erc20' : 'eth'
      sends++
      return rpcBody(i, 'eth_sendRawTransaction', [factory.tx(kind, sender, nonces[sender]!++, false).raw])
    }
    return readBody(reads++, ctx)
  }
  const fail = (kind: keyof typeof failures, why: string, measured: boolean): void => {
    if (!measured) return
    failures[kind]++
    if (errorSamples.length < 5) errorSamples.push(`${kind}: ${why.slice(0, 200)}`)
  }

  const started = performance.now()
  const inFlight = new Set<Promise<void>>()
  const sample = (): void => {
    const t = performance.now() - started - run.warmupMs
    if (t < 0) return
    for (const w of watched) {
      const m = memoryOf(w.pid)
      if (m !== undefined) w.memory.push([t, m])
      void w.inside.sample(t)
    }
  }
  let sampler: NodeJS.Timeout | undefined
  try {
    for (let i = 0; ; i++) {
      const due = (i * 1000) / perSecond
      if (due >= totalMs) break
      const wait = due - (performance.now() - started)
      if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait))
      const measured = due >= run.warmupMs
      if (measured && sampler === undefined) {
        sample()
        sampler = setInterval(sample, SAMPLE_MS)
      }
      const body = nextBody(i)
      const p = post(agent, url, body)
        .then((reply) => {
          if (measured) {
            counted++
            histogram.record((performance.now() - started - due) * 1000)
          }
          if (reply.status !== 200) return fail('http', `HTTP ${reply.status}: ${reply.text}`, measured)
          const answer = JSON.parse(reply.text) as { error?: { code: number; message: string } }
          if (answer.error !== undefined) fail('rpc', `${body.slice(0, 80)}… → ${answer.error.code} ${answer.error.message}`, measured)
        })
        .catch((e: NodeJS.ErrnoException) => fail('transport', `${body.slice(0, 60)}… → ${e.code ?? ''} ${e.message}`, measured))
        .finally(() => inFlight.delete(p))
      inFlight.add(p)
    }
    await Promise.all(inFlight)
  } finally {
    clearInterval(sampler)
    agent.destroy()
  }
  sample()
  const figures: Record<string, number> = {}
  for (const w of watched) Object.assign(figures, await memoryFigures(w, performance.now() - started - run.warmupMs, windowMs))
  return {
    rate: counted / (windowMs / 1000),
    p50Ms: histogram.quantileMs(0.5),
    p99Ms: histogram.quantileMs(0.99),
    count: counted,
    errors: failures.transport + failures.http + failures.rpc,
    errorSamples,
    extras: {
      'transport errors (count)': failures.transport,
      'HTTP and JSON-RPC errors (count)': failures.http + failures.rpc,
      ...figures,
      'sockets used (count)': sockets.size,
      'window s': windowMs / 1000,
    },
  }
}

function cases(ctx: ScenarioContext, follow: boolean): BenchCase[] {
  const factory = new TxFactory(ctx.chain.chainId, ctx.chain.token, SENDERS)
  return [
    {
      name: `${READS_PER_S} reads/s (6 methods, latest and pending) + ${SENDS_PER_S} tx/s, keep-alive node:http${follow ? ', all to a follower' : ''}`,
      unit: 'req/s',
      compare: 'p50',
      warmupMs: 2_000,
      measure: (run) => soak(run, ctx, factory, follow),
    },
  ]
}

const soakNotes = [
  `open loop: request i due at i/${READS_PER_S + SENDS_PER_S} s, latency from when it was due; reads of eth_call, eth_simulateV1, eth_getBlockReceipts, eth_getStorageAt, eth_getTransactionCount, eth_getCode alternate latest/pending with new inputs each time; every 5th request is a send`,
  'errors must be 0 (transport failure, non-200 or JSON-RPC error); transport errors are node:http keep-alive Agent failures (ECONNRESET, socket hang up…)',
  'memory: slopes are least squares over the window and over its last half (± 2 standard errors); RssAnon is the leak indicator, RssFile the mapped database',
]

export const soakBench: Scenario = {
  name: 'soak',
  title: `Soak: a fixed ${READS_PER_S} reads/s and ${SENDS_PER_S} tx/s for 30 minutes (--soak-duration); memory slope and transport errors`,
  genesis: { accounts: SENDERS, gasLimit: 200_000_000n },
  anvilArgs: ['--block-time', '2'],
  mutatesState: true,
  repetitions: 1,
  durationMs: (settings) => settings.soakDurationMs,
  notes: () => soakNotes,
  cases: (ctx) => cases(ctx, false),
}

/**
 * The same soak through a follower (`--follow`) of the sequencer the runner started: every request goes to
 * the follower (its sends forwarded to the sequencer); the figures without a prefix are the follower's, those
 * prefixed `sequencer` its sequencer's. Flashnode only.
 */
export const soakFollowerBench: Scenario = {
  ...soakBench,
  name: 'soak-follower',
  title: `Soak through a follower: a fixed ${READS_PER_S} reads/s and ${SENDS_PER_S} tx/s to a follower for 30 minutes (--soak-duration); both processes' memory`,
  peers: ['flashnode'],
  notes: () => [...soakNotes, 'unprefixed figures: the follower (all load goes to it); `sequencer …`: the sequencer it follows'],
  cases: (ctx) => cases(ctx, true),
}
