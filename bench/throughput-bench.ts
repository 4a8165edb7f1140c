/**
 * Scenarios "throughput" and "throughput-1g" (issue 42): a pool kept full from many senders, sealed by the
 * node at its default cadence (200 ms flashblocks, a block every 10), for at least 60 s a row; what it seals
 * per second, what the cadence does under it, how late a pre-confirmation comes, what a transaction costs in
 * CPU. Anvil beside it with `--block-time 2` (its blocks as long as Flashnode's) under the same load.
 *
 * Rows: ETH transfers, ERC-20 transfers, swaps (swapExactTokensForTokens through the swap fixture's router and
 * pair, swap-txs.ts), and mixed (each sender one of the three kinds, a third each). "throughput" runs them at
 * Flashnode's default block gas limit, 30M (what `flashnode start --gas-limit` makes): there the chain, not
 * the node, caps the rate (~714 ETH transfers/s), and the question is whether the cadence holds with every
 * block full. "throughput-1g" runs them at 1,000M gas a block (500 Mgas/s at 2 s blocks): above the goals'
 * ~400-420 Mgas/s (20,000 ETH transfers/s, 8,000 ERC-20 transfers/s), so the node, not the chain, sets the rate.
 * Both on a 1,088-account genesis with the swap fixture; every peer start is a fresh chain (mutatesState), and
 * between rows the pool is let drain and each sender's nonce read again.
 *
 * Load (throughput-sender.ts): open loop, from SENDER_PROCESSES processes apart from the node and from this
 * one, each with CONNECTIONS keep-alive sockets; 1,024 senders (each connection owns 64 of them, so a
 * sender's nonces arrive in order); JSON-RPC batches of BATCH eth_sendRawTransaction, one transaction per
 * sender in a batch (a sequencer's intake is batched by RPC proxies too; the per-request cost of a single
 * send is the `send` scenario's). Every transaction is signed before the window (in the sender processes,
 * ~15,000/s each: a full ETH row signs ~1.3M, ~45 s on two cores while the node idles), sent once.
 *   - Offered rate: the issue's goal for the kind (ETH 20,000/s, ERC-20 8,000/s, swaps 4,000/s ≈ 340 Mgas/s,
 *     mixed 8,000/s), capped at 1.5× what the chain can seal (gas limit / 2 s / the kind's gas), times
 *     BENCH_THROUGHPUT_OFFER (default 1). At the goal rate the latency and overrun figures are the goal's
 *     ("at that load"); a node slower than the offer shows it as the pool guard holding the load back.
 *   - Pool guard: the senders read txpool_status every 25 ms and hold back while pending + queued ≥ 4,096,
 *     below the pool's 5,120 executable slots (src/txpool/config.ts: globalSlots; 16 per sender before
 *     eviction may touch it: at 1,024 senders the guard leaves ~4 each), so the pool stays full without a
 *     refusal or an eviction. "pool guard held back (%)" > 0: the node (or the chain) set the rate.
 *   - The senders' CPU in the window is in the notes ("sender CPU"); their refusals are the row's errors.
 * Window: the run's warm-up (at least 5 s here: the pool fills first) then `--duration` (at least 60 s unless
 * --quick), the load going on 3 s more (the latency probe's last sends meet the same load). One repetition.
 *
 * Figures per row (rate = sealed tx/s; p50/p99 = pre-confirmation latency):
 *   - sealed tx/s and Mgas/s: the blocks sealed in the window (after the head at its start, through the head
 *     at its end), read after it with eth_getBlockByNumber: their transactions and gasUsed over the chain time
 *     they span (their timestamps: seconds). One block's receipts are checked (every status 1: no swap failed):
 *     all of them on Flashnode (eth_getBlockReceipts), 16 spread over it on Anvil (eth_getTransactionReceipt:
 *     Anvil's eth_getBlockReceipts of a block of thousands did not answer within 60 s and kept it busy after).
 *   - pre-confirmation p50/p99 (Flashnode): ~25 transactions/s of the row's kind from 64 senders of their own,
 *     Poisson, each its own eth_sendRawTransaction, timed by the visibility probe (visibility-probe.ts, its own
 *     process) from the send's answer to the newFlashblockTransactions notification of a subscriber that
 *     hears every transaction of the load (what such a subscriber costs the node is in the figures). When the
 *     pool is held full, this is the queue's wait: pool size / sealing rate. The node's own admission →
 *     publication times (GET /status latency.recent: the 200 latest at each 3 s poll) are in the notes.
 *   - build p50/p99 (Flashnode): GET /status buildMs (asking the pool → announcement, journal included) of
 *     every flashblock with transactions published in the window (polled every 3 s; /status keeps 60).
 *   - overruns (Flashnode): flashnode_flashblock_ticks_skipped_total (GET /metrics) over the window: a tick
 *     that found the previous flashblock (or its block's seal) still running is skipped, never queued; the
 *     notes add the flashblocks published, how many the window's ticks would give, the builds over 200 ms and
 *     the seal times. A node started with --no-metrics has no counter: the cell is then empty.
 *   - sent tx/s: eth_sendRawTransaction accepted (answered with the hash) in the window, every sender.
 *   - CPU µs/tx: the node's CPU in the window (process and threads) / (window × sealed tx/s).
 * Anvil: sealed tx/s, Mgas/s, sent tx/s, CPU µs/tx; n/a for the flashblock figures (it has no flashblocks).
 *   Its pool has no 5,120-slot bound: the guard's reads lag its slower intake, so its pool peaks above 4,096.
 * Profile: BENCH_FLASHNODE_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR" (bench/README.md), then
 * `npx tsx bench/cpuprofile-top.ts DIR/*.cpuprofile`.
 */

import type { Address } from 'viem'
import { startProbe, type ProbeRun } from './probe-process.ts'
import type { RunningNode } from './nodes.ts'
import { named, rpcBody, rpcCall } from './rpc.ts'
import type { BenchCase, CaseRun, Measured, Scenario, ScenarioContext } from './scenario.ts'
import { watchStatus, type StatusRecord } from './status-watch.ts'
import { loadSigner, type LoadKind, type SenderConfig, type SenderResult } from './throughput-sender.ts'
import { quantile } from './txs.ts'
import { runProbe, schedule } from './visibility-bench.ts'
import type { VisibilityResult } from './visibility-probe.ts'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseExposition } from '../test/support/prometheus-text.ts'

const SENDER = join(dirname(fileURLToPath(import.meta.url)), 'throughput-sender.ts')
const SENDERS = 1024
const PROBE_SENDERS = 64
const SENDER_PROCESSES = 2
const CONNECTIONS = 8
const BATCH = 64
const POOL_HIGH = 4096
const POLL_MS = 25
const MIN_WARMUP_MS = 5_000
const MIN_WINDOW_MS = 60_000
const TAIL_MS = 3_000
const PROBE_GAP_MS = 40
const PROBE_DRAIN_MS = 10_000
const FLASHBLOCK_MS = 200
const BLOCK_S = 2
/** Gas one transaction of each kind uses, roughly (for the chain's capacity only). */
const GAS_USED: Record<LoadKind, number> = { eth: 21_000, erc20: 35_000, swap: 85_000 }

type Row = 'eth' | 'erc20' | 'swap' | 'mixed'
const ROWS: Record<Row, { name: string; kinds: LoadKind[]; goal: number }> = {
  eth: { name: 'ETH transfers', kinds: ['eth'], goal: 20_000 },
  erc20: { name: 'ERC-20 transfers', kinds: ['erc20'], goal: 8_000 },
  swap: { name: 'swaps (router + pair)', kinds: ['swap'], goal: 4_000 },
  mixed: { name: 'mixed (⅓ ETH, ⅓ ERC-20, ⅓ swaps)', kinds: ['eth', 'erc20', 'swap'], goal: 8_000 },
}

/** BENCH_THROUGHPUT_OFFER: a factor on every row's offered rate (default 1). */
function offerFactor(): number {
  const f = Number(process.env['BENCH_THROUGHPUT_OFFER'] ?? '1')
  if (!Number.isFinite(f) || f <= 0) throw new Error(`BENCH_THROUGHPUT_OFFER must be a positive number, not ${process.env['BENCH_THROUGHPUT_OFFER']}`)
  return f
}

/** The offered rate: the goal, at most 1.5× what blocks of `gasLimit` hold every BLOCK_S. */
export function offeredRate(row: Row, gasLimit: bigint): number {
  const kinds = ROWS[row].kinds
  const gas = kinds.reduce((sum, k) => sum + GAS_USED[k], 0) / kinds.length
  const capacity = Number(gasLimit) / BLOCK_S / gas
  return Math.round(Math.min(ROWS[row].goal, 1.5 * capacity) * offerFactor())
}

const sleepUntil = (t: number) => new Promise<void>((r) => setTimeout(r, Math.max(0, t - performance.now())))
const hex = (n: number): string => `0x${n.toString(16)}`

/** One batch of calls, results in order; throws on any error. */
async function batchCall<T>(url: string, calls: [string, unknown[]][], timeoutMs = 60_000): Promise<T[]> {
  let items: { id: number; result?: T; error?: unknown }[]
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `[${calls.map(([m, p], i) => rpcBody(i, m, p)).join(',')}]`,
      signal: AbortSignal.timeout(timeoutMs),
    })
    items = (await res.json()) as typeof items
  } catch (e) {
    throw named(e, `a batch of ${calls.length} ${calls[0]?.[0]}`, timeoutMs)
  }
  const out: T[] = []
  for (const it of items) {
    if (it.error !== undefined) throw new Error(`${calls[it.id]?.[0]}: ${JSON.stringify(it.error)}`)
    out[it.id] = it.result as T
  }
  return out
}

/** Waits until the peer's pool is empty (the previous row's leftovers sealed), then every account's next nonce. */
async function settledNonces(node: RunningNode, addresses: readonly Address[]): Promise<number[]> {
  const deadline = Date.now() + 180_000
  for (;;) {
    const s = await rpcCall<{ pending: string; queued: string }>(node.url, 'txpool_status', [], 30_000) // Anvil answers late while it mines a block of thousands
    if (Number(s.pending) + Number(s.queued) === 0) break
    if (Date.now() > deadline) throw new Error(`the pool still holds ${Number(s.pending)} pending and ${Number(s.queued)} queued after 180 s`)
    await new Promise((r) => setTimeout(r, 250))
  }
  const counts: number[] = []
  for (let i = 0; i < addresses.length; i += 500) { // Flashnode takes batches of up to 1,000 calls
    const some = await batchCall<string>(node.url, addresses.slice(i, i + 500).map((a) => ['eth_getTransactionCount', [a, 'pending']]))
    counts.push(...some.map(Number))
  }
  return counts
}

/** Flashnode's counters at GET /metrics (undefined where it records none: --no-metrics). */
async function counters(node: RunningNode): Promise<{ skipped: number; flashblocks: number } | undefined> {
  const res = await fetch(new URL('/metrics', node.url), { signal: AbortSignal.timeout(5_000) }).catch(() => undefined)
  if (res?.status !== 200) return undefined
  const families = parseExposition(await res.text())
  const read = (name: string): number => families.get(name)?.samples[0]?.value ?? Number.NaN
  return { skipped: read('flashnode_flashblock_ticks_skipped_total'), flashblocks: read('flashnode_flashblocks_total') }
}

/** Receipts Anvil is asked for one by one, spread over the block (its eth_getBlockReceipts is not usable here). */
const ANVIL_RECEIPTS = 16

/**
 * Checks that the block's transactions succeeded (no swap reverted); returns how many receipts it read.
 * Flashnode: eth_getBlockReceipts, the whole block. Anvil (1.7.1): eth_getBlockReceipts of a block of
 * thousands of transactions did not answer within 60 s, and Anvil stayed busy with it afterwards (its next
 * txpool_status unanswered for 10 s: every later row failed too): its work per block grows faster than the
 * block. So Anvil is asked for ANVIL_RECEIPTS receipts with eth_getTransactionReceipt, the block's first, its
 * last and evenly between: a sample, which the notes say.
 */
async function checkReceipts(node: RunningNode, block: Block): Promise<number> {
  const at = Number(block.number)
  let receipts: { status: string }[]
  if (node.peer !== 'anvil') {
    receipts = await rpcCall<{ status: string }[]>(node.url, 'eth_getBlockReceipts', [block.number], 60_000)
  } else {
    const n = block.transactions.length
    const picks = [...new Set(Array.from({ length: Math.min(n, ANVIL_RECEIPTS) }, (_, i) => Math.round((i * (n - 1)) / Math.max(1, Math.min(n, ANVIL_RECEIPTS) - 1))))]
    receipts = []
    for (const i of picks) receipts.push(await rpcCall<{ status: string }>(node.url, 'eth_getTransactionReceipt', [block.transactions[i]], 30_000))
  }
  const failed = receipts.filter((x) => x.status !== '0x1').length
  if (failed > 0) throw new Error(`${failed} of the ${receipts.length} receipts read of block ${at} (${block.transactions.length} transactions) failed`)
  return receipts.length
}

interface Block {
  number: string
  timestamp: string
  gasUsed: string
  transactions: string[]
}

interface Prepared {
  senders: ProbeRun<SenderResult>[]
  probeNonces: number[]
  offered: number
  runMs: number
  windowMs: number
  warmupMs: number
}

/** The rows to run: BENCH_THROUGHPUT_ROWS (comma-separated: eth, erc20, swap, mixed), all by default. */
function rowsChosen(): Row[] {
  const chosen = (process.env['BENCH_THROUGHPUT_ROWS'] ?? 'eth,erc20,swap,mixed').split(',').filter((r) => r !== '')
  const unknown = chosen.filter((r) => !(r in ROWS))
  if (unknown.length > 0) throw new Error(`BENCH_THROUGHPUT_ROWS: no row ${unknown.join(', ')} (rows: ${Object.keys(ROWS).join(', ')})`)
  return chosen as Row[]
}

function cases(gasLimit: bigint) {
  return ({ chain, quick }: ScenarioContext): BenchCase[] => {
    const addresses = chain.accounts.map((a) => a.address)
    const swap = chain.swap === undefined ? undefined : { tokenA: chain.swap.tokenA, tokenB: chain.swap.tokenB, pair: chain.swap.pair, router: chain.swap.router, multicall: chain.swap.multicall }
    const sign = loadSigner(chain.chainId, chain.token, chain.swap, SENDERS + PROBE_SENDERS)
    const prepared = new WeakMap<RunningNode, Prepared>()
    const warmupOf = (run: CaseRun): number => (quick ? run.warmupMs : Math.max(MIN_WARMUP_MS, run.warmupMs))

    const row = (r: Row): BenchCase => ({
      name: `${ROWS[r].name}, offered ${offeredRate(r, gasLimit).toLocaleString('en-US')}/s`,
      unit: 'tx/s',
      prepare: async (run: CaseRun) => {
        const nonces = await settledNonces(run.node, addresses)
        const warmupMs = warmupOf(run)
        const runMs = warmupMs + run.durationMs + TAIL_MS
        const offered = offeredRate(r, gasLimit)
        const per = Math.ceil(SENDERS / SENDER_PROCESSES)
        const senders = Array.from({ length: SENDER_PROCESSES }, (_, p) => {
          const mine = Array.from({ length: per }, (_, i) => p * per + i).filter((s) => s < SENDERS)
          const rate = offered / SENDER_PROCESSES
          const cfg: SenderConfig = {
            url: run.node.url,
            chainId: chain.chainId,
            token: chain.token,
            ...(swap === undefined ? {} : { swap }),
            kinds: ROWS[r].kinds,
            senders: mine,
            nonces: mine.map((s) => nonces[s]!),
            count: Math.ceil((rate * runMs) / 1000) + BATCH * CONNECTIONS,
            ratePerSecond: rate,
            batchSize: BATCH,
            connections: CONNECTIONS,
            runMs,
            warmupMs,
            windowMs: run.durationMs,
            poolHigh: POOL_HIGH,
            pollMs: POLL_MS,
          }
          return startProbe<SenderResult>(SENDER, cfg, 900_000 + runMs)
        })
        prepared.set(run.node, { senders, probeNonces: nonces.slice(SENDERS), offered, runMs, windowMs: run.durationMs, warmupMs })
        await Promise.all(senders.map((s) => s.ready))
      },
      measure: async ({ node }: CaseRun): Promise<Measured> => {
        const p = prepared.get(node)
        if (p === undefined) throw new Error('not prepared')
        prepared.delete(node)
        const flashnode = node.peer !== 'anvil'
        try {
          const t0 = performance.now()
          for (const s of p.senders) s.go()
          let probe: Promise<VisibilityResult> | undefined
          if (flashnode) {
            const sendAtMs = schedule(p.windowMs, 42, PROBE_GAP_MS).map((t) => t + p.warmupMs)
            const txs = sendAtMs.map((_, i) => {
              const s = i % PROBE_SENDERS
              const t = sign(ROWS[r].kinds[(SENDERS + s) % ROWS[r].kinds.length]!, SENDERS + s, p.probeNonces[s]! + Math.floor(i / PROBE_SENDERS))
              return { raw: t.raw, hash: t.hash }
            })
            probe = runProbe({ url: node.url, detector: 'ws', txs, sendAtMs, pollMs: 10, drainMs: PROBE_DRAIN_MS }, p.runMs + PROBE_DRAIN_MS + 60_000)
          }

          await sleepUntil(t0 + p.warmupMs)
          const h0 = Number(await rpcCall<string>(node.url, 'eth_blockNumber', [], 30_000))
          const m0 = flashnode ? await counters(node) : undefined
          const cpu0 = node.cpuSeconds()
          const w0 = performance.now()
          let watching = true
          const status: Promise<StatusRecord> | undefined = flashnode ? watchStatus(node.url, () => watching) : undefined
          const statusFrom = Date.now()

          await sleepUntil(t0 + p.warmupMs + p.windowMs)
          const h1 = Number(await rpcCall<string>(node.url, 'eth_blockNumber', [], 30_000))
          const m1 = flashnode ? await counters(node) : undefined
          const cpu1 = node.cpuSeconds()
          const windowS = (performance.now() - w0) / 1000
          const statusTo = Date.now()
          watching = false

          const results = await Promise.all(p.senders.map((s) => s.result))
          const seen = await probe
          const st = await status

          // The blocks sealed in the window, read after it.
          const blocks: Block[] = []
          for (let n = h0; n <= h1; n++) blocks.push(await rpcCall<Block>(node.url, 'eth_getBlockByNumber', [hex(n), false], 60_000))
          const sealed = blocks.slice(1)
          const txs = sealed.reduce((sum, b) => sum + b.transactions.length, 0)
          const gas = sealed.reduce((sum, b) => sum + Number(b.gasUsed), 0)
          const span = blocks.length > 1 ? Number(blocks.at(-1)!.timestamp) - Number(blocks[0]!.timestamp) : 0
          const spanS = span > 0 ? span : windowS
          const rate = txs / spanS
          const withTxs = sealed.filter((b) => b.transactions.length > 0).at(-1)
          const receiptsChecked = withTxs === undefined ? 0 : await checkReceipts(node, withTxs)

          const sum = (f: (x: SenderResult) => number): number => results.reduce((a, x) => a + f(x), 0)
          const nodeCpuS = cpu1 - cpu0
          const extras: Record<string, number> = {
            'sealed (Mgas/s)': gas / spanS / 1e6,
            'sent (tx/s)': sum((x) => x.acceptedInWindow) / windowS,
            'CPU (µs/tx)': rate > 0 ? ((nodeCpuS / windowS) / rate) * 1e6 : Number.NaN,
            'offered (tx/s)': p.offered,
            'node CPU in the window (%)': (nodeCpuS / windowS) * 100,
            'blocks sealed in the window (count)': sealed.length,
            'pool guard held back (%)': (Math.max(...results.map((x) => x.pausedMs)) / (p.windowMs || 1)) * 100,
            'pool peak (count)': Math.max(...results.map((x) => x.poolPeak)),
            'send batch p50': quantile(results.map((x) => x.batchP50Ms), 0.5),
            'send batch p99': Math.max(...results.map((x) => x.batchP99Ms)),
            'sender CPU in the window (%)': (sum((x) => x.cpuWindowMs) / 1000 / windowS) * 100,
            'signed (count)': sum((x) => x.signed),
            'signing (s)': Math.max(...results.map((x) => x.signMs)) / 1000,
            'never sent, the intake slower than the offer (count)': sum((x) => x.backlog),
            'senders out of signed transactions (count)': results.filter((x) => x.ranOut).length,
            'receipts checked, every status 1 (count)': receiptsChecked,
          }
          if (st !== undefined) {
            const inWindow = st.flashblocks.filter((f) => f.at >= statusFrom && f.at <= statusTo)
            const builds = inWindow.filter((f) => f.transactions > 0).map((f) => f.buildMs!)
            const seals = st.sealed.filter((s) => s.at >= statusFrom && s.at <= statusTo).map((s) => s.sealMs)
            Object.assign(extras, {
              'build p50': quantile(builds, 0.5),
              'build p99': quantile(builds, 0.99),
              'flashblocks with transactions timed (count)': builds.length,
              'flashblocks built over 200 ms (count)': builds.filter((b) => b > FLASHBLOCK_MS).length,
              'seal p50': quantile(seals, 0.5),
              'seal p99': quantile(seals, 0.99),
              'admission → flashblock p50 (node)': quantile(st.latenciesMs, 0.5),
              'admission → flashblock p99 (node)': quantile(st.latenciesMs, 0.99),
            })
          }
          if (m0 !== undefined && m1 !== undefined) {
            Object.assign(extras, {
              'overruns (count)': m1.skipped - m0.skipped,
              'flashblocks published (count)': m1.flashblocks - m0.flashblocks,
              // Each tick publishes a flashblock, and each seal the next block's opening (index 0) too.
              'flashblocks the ticks would give (count)': ((windowS * 1000) / FLASHBLOCK_MS) * 1.1,
            })
          }
          const latencies = (seen?.latenciesMs ?? []).map((x) => Math.max(0, x))
          if (seen !== undefined) extras['pre-confirmation samples (count)'] = latencies.length
          return {
            rate,
            p50Ms: quantile(latencies, 0.5),
            p99Ms: quantile(latencies, 0.99),
            count: latencies.length,
            errors: sum((x) => x.refused) + (seen?.errors ?? 0),
            errorSamples: [...results.flatMap((x) => x.errorSamples), ...(seen?.errorSamples ?? [])].slice(0, 3),
            extras,
            generatorCpuPct: (sum((x) => x.cpuWindowMs) / 1000 / windowS) * 100,
            generatorCpuSeconds: (sum((x) => x.cpuMs) + (seen?.cpuMs ?? 0)) / 1000,
          }
        } finally {
          for (const s of p.senders) s.kill()
        }
      },
    })
    return rowsChosen().map(row)
  }
}

function throughputScenario(name: string, gasLimit: bigint, why: string): Scenario {
  const mgas = Number(gasLimit / 1_000_000n).toLocaleString('en-US')
  return {
    name,
    title: `sealed throughput with the pool kept full, ${mgas}M gas a block (${why}), Flashnode 200 ms flashblocks × 10, Anvil --block-time ${BLOCK_S}`,
    genesis: { accounts: SENDERS + PROBE_SENDERS, gasLimit, swap: true },
    anvilArgs: ['--block-time', String(BLOCK_S)],
    mutatesState: true,
    repetitions: 1,
    durationMs: (s) => (s.quick ? s.durationMs : Math.max(MIN_WINDOW_MS, s.durationMs)),
    extraColumns: ['sealed (Mgas/s)', 'sent (tx/s)', 'build p50', 'build p99', 'overruns (count)', 'CPU (µs/tx)'],
    notes: () => [
      `rate = transactions sealed per second (blocks sealed in the window, over their timestamps' span); p50/p99 = pre-confirmation latency: send answer → newFlashblockTransactions for ~${1000 / PROBE_GAP_MS} tx/s of the row's kind from ${PROBE_SENDERS} senders of their own (Flashnode; Anvil has no pre-confirmations)`,
      `load: open loop from ${SENDER_PROCESSES} processes × ${CONNECTIONS} connections, ${SENDERS} senders, JSON-RPC batches of ${BATCH} sends, pre-signed; the offered rate in the row's name (the issue's goal, capped at 1.5× the chain's capacity); held back while the pool holds ≥ ${POOL_HIGH.toLocaleString('en-US')} (pool guard: no refusal, no eviction)`,
      `build = GET /status buildMs of the flashblocks with transactions; overruns = flashnode_flashblock_ticks_skipped_total over the window (a tick skipped because the previous flashblock or seal was still running); CPU µs/tx = the peer's CPU in the window / sealed transactions; sent = eth_sendRawTransaction accepted/s`,
      'the CPU column spans the whole row (warm-up and tail too); the notes give the node\'s CPU in the window; one repetition (a 60 s window is long enough to be steady)',
    ],
    cases: cases(gasLimit),
  }
}

export const throughputBench = throughputScenario('throughput', 30_000_000n, "Flashnode's default --gas-limit: the chain caps the rate")
export const throughput1gBench = throughputScenario('throughput-1g', 1_000_000_000n, 'above the goals: the node sets the rate')
