/**
 * Scenario "stream": the flashblock stream (`/flashblocks`) with 100 subscribers on loopback while the
 * chain is busy (~250 ERC-20 transfers/s, ~50 per 200 ms flashblock). Flashnode only: Anvil has no stream.
 *
 * The probe (stream-probe.ts, its own process) holds the 100 subscribers (90 JSON, 10 Brotli) and one
 * eth_subscribe("newFlashblockTransactions") connection. A message's delay is its receive time at a
 * subscriber minus the receive time of the node's announcement of its first transaction: what the stream
 * adds over the node's own publication of the flashblock (goal: p99 ≤ 5 ms). Sizes are those of the
 * messages that carry transactions: JSON text and the Brotli binary form. Transactions are sent from this
 * process in batches every 40 ms, pre-signed before the run.
 */

import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { BenchCase, CaseRun, Measured, Scenario, ScenarioContext } from './scenario.ts'
import { NonceBook, quantile, sendAll, TxFactory } from './txs.ts'
import type { StreamProbeConfig, StreamProbeResult } from './stream-probe.ts'
import { startProbe } from './probe-process.ts'

const PROBE = join(dirname(fileURLToPath(import.meta.url)), 'stream-probe.ts')
const SENDERS = 256
const SUBSCRIBERS = 100
const BROTLI_SUBSCRIBERS = 10
const TX_PER_S = 250
const BATCH_EVERY_MS = 40
/** At least this long a stream (~100 messages with transactions). */
const STREAM_MS = 20_000
const DRAIN_MS = 1_500

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, Math.max(0, ms)))

function cases({ chain }: ScenarioContext): BenchCase[] {
  const factory = new TxFactory(chain.chainId, chain.token, SENDERS)
  const nonces = new NonceBook()
  return [
    {
      name: `stream → ${SUBSCRIBERS} subscribers, delay over the pre-confirmation announcement (JSON)`,
      peers: ['flashnode'],
      unit: '',
      compare: 'p50',
      measure: async ({ node, durationMs }: CaseRun): Promise<Measured> => {
        const runMs = Math.max(STREAM_MS, durationMs)
        const perBatch = Math.round((TX_PER_S * BATCH_EVERY_MS) / 1000)
        const txs = factory.batch('erc20', perBatch * Math.ceil(runMs / BATCH_EVERY_MS), nonces, node)
        const config: StreamProbeConfig = { url: node.url, subscribers: SUBSCRIBERS, brotli: BROTLI_SUBSCRIBERS, runMs, drainMs: DRAIN_MS }
        const probe = startProbe<StreamProbeResult>(PROBE, config, runMs + DRAIN_MS + 60_000)
        await probe.ready
        const started = performance.now()
        for (let i = 0; i * perBatch < txs.length; i++) {
          await sleep(started + i * BATCH_EVERY_MS - performance.now())
          await sendAll(node.url, txs.slice(i * perBatch, (i + 1) * perBatch), perBatch, 1)
        }
        const r = await probe.result
        const median = (xs: number[]) => quantile(xs, 0.5)
        return {
          p50Ms: quantile(r.jsonDelaysMs, 0.5),
          p99Ms: quantile(r.jsonDelaysMs, 0.99),
          count: r.jsonDelaysMs.length,
          errors: r.errors,
          errorSamples: r.errorSamples,
          extras: {
            'Brotli p50': quantile(r.brotliDelaysMs, 0.5),
            'Brotli p99': quantile(r.brotliDelaysMs, 0.99),
            'first→last subscriber p99': quantile(r.spreadsMs, 0.99),
            'JSON bytes/message (p50)': median(r.jsonBytes),
            'JSON bytes/message (max)': Math.max(...r.jsonBytes),
            'Brotli bytes/message (p50)': median(r.brotliBytes),
            'Brotli bytes/message (max)': Math.max(...r.brotliBytes),
            'transactions/message (p50)': median(r.transactions),
            'messages with transactions (count)': r.transactions.length,
          },
          generatorCpuSeconds: r.cpuMs / 1000,
        }
      },
    },
  ]
}

export const streamBench: Scenario = {
  name: 'stream',
  title: `flashblock stream, ${SUBSCRIBERS} subscribers (${SUBSCRIBERS - BROTLI_SUBSCRIBERS} JSON, ${BROTLI_SUBSCRIBERS} Brotli), ~${TX_PER_S} ERC-20 transfers/s, 200 ms flashblocks`,
  genesis: { accounts: SENDERS, gasLimit: 200_000_000n },
  mutatesState: true,
  extraColumns: ['Brotli p50', 'Brotli p99', 'first→last subscriber p99'],
  notes: () => [
    'delay = a subscriber receiving a stream message − the probe receiving the eth_subscribe("newFlashblockTransactions") announcement of the message\'s first transaction (both on loopback, one probe process): what the stream adds over the node\'s own publication; goal p99 ≤ 5 ms',
    'p50/p99 over every subscriber × every message with transactions; Brotli columns: the 10 subscribers with ?compression=brotli (time to arrival, before decompression)',
    'sizes: the messages with transactions, as sent (JSON text; Brotli quality 4 binary); Anvil n/a: it has no flashblock stream',
  ],
  cases,
}
