/**
 * Scenario "visibility": the time from the eth_sendRawTransaction answer until the transaction is visible
 * through `pending` (p50, p99), at Flashnode's default 200 ms flashblock interval; Anvil with 2 s blocks.
 *
 * Each row is one detector (visibility-probe.ts, run as a separate process), on its own stream of ETH
 * transfers: ~25 per second with Poisson gaps (drawn here, seeded, so arrivals are independent of the
 * peer's tick phase), each sender used once per 256 sends, for the run's duration (at least 20 s: STREAM_MS); then up
 * to 2.5 s (Flashnode) or 5 s (Anvil) for the last to show.
 *   - WS newFlashblockTransactions: Flashnode only (how a sending client learns of its pre-confirmation).
 *   - polling eth_getTransactionReceipt every 10 ms: both (Flashnode answers pre-confirmed receipts;
 *     Anvil has a receipt once the tx is mined, so up to a 2 s block).
 *   - polling eth_getBlockByNumber("pending") every 10 ms: both (Anvil's pending block is its pool,
 *     executed on request, so it shows a tx as soon as it is pooled; Flashnode's is the newest flashblock).
 *     The batch also asks for "latest": a tx pre-confirmed in a block's last flashblock is sealed in the same
 *     tick, and may never be seen in a pending block (the notes count those first seen in latest).
 * A tx whose notification arrives before its own HTTP answer (a tick between pool admission and the answer
 * reaching the client) counts as 0 ms and is counted in the notes.
 * The floor: a tx answered at a uniformly random moment waits for the next tick (on average half the
 * interval, at p99 0.99 of it), then for the build and the notification. The build+delivery time is
 * estimated from the smallest positive latency seen (a tx answered just before a tick): the minimum of n
 * uniform waits exceeds 0 by interval/(n+1) on average, so that is subtracted. The table prints floor p50 =
 * interval/2 + estimate and floor p99 = 0.99 × interval + estimate beside the measured figures. Anvil's interval is its 2 s block time for receipts, 0 for its pending
 * block.
 */

import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { PeerName } from './nodes.ts'
import type { BenchCase, CaseRun, Measured, Scenario, ScenarioContext } from './scenario.ts'
import { NonceBook, quantile, TxFactory } from './txs.ts'
import type { Detector, VisibilityConfig, VisibilityResult } from './visibility-probe.ts'
import { startProbe } from './probe-process.ts'

const PROBE = join(dirname(fileURLToPath(import.meta.url)), 'visibility-probe.ts')
const SENDERS = 256
/**
 * Each stream lasts at least this long (~500 transactions at 25/s). The p50 of a uniform 0-200 ms wait
 * estimated from n samples has a standard error of about 73/sqrt(n) ms: ~6.5 ms from the ~125 of a 5 s
 * stream, too coarse next to a goal 8 ms above the floor; ~3.3 ms from 500.
 */
const STREAM_MS = 20_000
const MEAN_GAP_MS = 40
const POLL_MS = 10
const FLASHBLOCK_MS = 200
const ANVIL_BLOCK_S = 2

/** Poisson arrival times over `windowMs`, `meanGapMs` apart on average (a small LCG: the same schedule every run). */
export function schedule(windowMs: number, seed: number, meanGapMs = MEAN_GAP_MS): number[] {
  let x = seed >>> 0
  const rand = (): number => ((x = (Math.imul(x, 1664525) + 1013904223) >>> 0) + 0.5) / 2 ** 32
  const at: number[] = []
  for (let t = -Math.log(rand()) * meanGapMs; t < windowMs; t += -Math.log(rand()) * meanGapMs) at.push(t)
  return at
}

export function runProbe(cfg: VisibilityConfig, timeoutMs: number): Promise<VisibilityResult> {
  return startProbe<VisibilityResult>(PROBE, cfg, timeoutMs).result
}

/** A probe's figures: p50/p99 of `latencies` (ms), its errors and CPU, and the case's own extras. */
export function probeFigures(r: VisibilityResult, latencies: readonly number[], extras: Record<string, number>): Measured {
  return {
    p50Ms: quantile(latencies, 0.5),
    p99Ms: quantile(latencies, 0.99),
    count: latencies.length,
    errors: r.errors,
    errorSamples: r.errorSamples,
    extras,
    generatorCpuSeconds: r.cpuMs / 1000,
  }
}

function cases({ chain }: ScenarioContext): BenchCase[] {
  const factory = new TxFactory(chain.chainId, chain.token, SENDERS)
  const nonces = new NonceBook()
  const row = (detector: Detector, name: string, peers: readonly PeerName[] | undefined, seed: number): BenchCase => ({
    name,
    unit: '',
    compare: 'p50',
    ...(peers === undefined ? {} : { peers }),
    measure: async ({ node, durationMs }: CaseRun): Promise<Measured> => {
      const sendAtMs = schedule(Math.max(STREAM_MS, durationMs), seed)
      const txs = factory.batch('eth', sendAtMs.length, nonces, node).map((t) => ({ raw: t.raw, hash: t.hash }))
      const drainMs = node.peer === 'anvil' ? 2500 * ANVIL_BLOCK_S : 2500
      const r = await runProbe({ url: node.url, detector, txs, sendAtMs, pollMs: POLL_MS, drainMs }, durationMs + drainMs + 30_000)
      const interval = node.peer !== 'anvil' ? FLASHBLOCK_MS : detector === 'receipt' ? ANVIL_BLOCK_S * 1000 : 0
      const latencies = r.latenciesMs.map((x) => Math.max(0, x)) // seen before its answer arrived: 0
      const positive = r.latenciesMs.filter((x) => x > 0)
      const min = positive.length === 0 ? Number.NaN : Math.min(...positive)
      const build = Math.max(0, min - interval / (positive.length + 1))
      return probeFigures(r, latencies, {
        'floor p50': interval / 2 + build,
        'floor p99': interval * 0.99 + build,
        'build + delivery (estimate)': build,
        'min latency': min,
        'samples (count)': latencies.length,
        'seen before the answer (count)': latencies.length - positive.length,
        ...(detector === 'pending-block' ? { 'first seen in latest, not pending (count)': r.seenInLatest } : {}),
      })
    },
  })
  return [
    row('ws', 'WS newFlashblockTransactions', ['flashnode'], 1),
    row('receipt', `poll eth_getTransactionReceipt every ${POLL_MS} ms`, undefined, 2),
    row('pending-block', `poll eth_getBlockByNumber(pending) every ${POLL_MS} ms`, undefined, 3),
  ]
}

export const visibilityBench: Scenario = {
  name: 'visibility',
  title: `eth_sendRawTransaction answer → visible through pending, ~${1000 / MEAN_GAP_MS} tx/s, Flashnode 200 ms flashblocks, Anvil ${ANVIL_BLOCK_S} s blocks`,
  genesis: { accounts: SENDERS, gasLimit: 200_000_000n },
  anvilArgs: ['--block-time', String(ANVIL_BLOCK_S)],
  mutatesState: true,
  extraColumns: ['floor p50', 'floor p99'],
  notes: () => [
    'p50/p99 over every transaction of the stream (the percentiles of one start; medians over starts); the ratio column is Anvil p50 / Flashnode p50',
    `floor p50 / p99 columns: interval/2 + b and 0.99 × interval + b, b = build + delivery estimated as the smallest positive latency ` +
      `minus interval/(samples+1) (the expected minimum of the uniform wait for the next tick); ` +
      `interval = ${FLASHBLOCK_MS} ms for Flashnode, ${ANVIL_BLOCK_S} s (its block time) for Anvil's receipts, 0 for Anvil's pending block`,
    'WS n/a for Anvil: it has no pre-confirmation notification (its newPendingTransactions fires on pool entry, which is not pending state)',
  ],
  cases,
}
