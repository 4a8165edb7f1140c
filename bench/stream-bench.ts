/**
 * Scenario "stream": the flashblock stream (`/flashblocks`) with 100 subscribers on loopback while the
 * chain is busy (~250 ERC-20 transfers/s, ~50 per 200 ms flashblock). Flashnode only: Anvil has no stream.
 *
 * The probe (stream-probe.ts, its own process) holds the 100 subscribers (90 JSON, 10 Brotli) and one
 * eth_subscribe("newFlashblockTransactions") connection. A message's delay is its receive time at a
 * subscriber minus the receive time of the node's announcement of its first transaction: what the stream
 * adds over the node's own publication of the flashblock (goal: ≤ 5 ms). Sizes are those of the
 * messages that carry transactions: JSON text and the Brotli binary form. Transactions are sent from this
 * process in batches every 40 ms, pre-signed before the run.
 *
 * A second row, under the same load, is the machine's floor: the same probe, with 100 JSON subscribers, on
 * a bare WebSocket relay (stream-relay.ts) that announces and forwards the node's messages and does nothing
 * else. One probe process receives every subscriber's copy on a 2-core machine shared with the node, so
 * part of every figure is the probe's and the machine's; the floor row shows how much.
 */

import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { BenchCase, CaseRun, Measured, Scenario, ScenarioContext } from './scenario.ts'
import { NonceBook, quantile, sendAll, TxFactory } from './txs.ts'
import type { StreamProbeConfig, StreamProbeResult } from './stream-probe.ts'
import type { StreamRelayConfig } from './stream-relay.ts'
import { startProbe } from './probe-process.ts'

const HERE = dirname(fileURLToPath(import.meta.url))
const PROBE = join(HERE, 'stream-probe.ts')
const RELAY = join(HERE, 'stream-relay.ts')
const SENDERS = 256
const SUBSCRIBERS = 100
const BROTLI_SUBSCRIBERS = 10
const TX_PER_S = 250
const BATCH_EVERY_MS = 40
/** At least this long a stream (~100 messages with transactions). */
const STREAM_MS = 20_000
const DRAIN_MS = 1_500

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, Math.max(0, ms)))

/** Sends the load to the node while `probe` listens to `url` (the node itself, or the relay in front of it). */
async function measureStream(node: CaseRun['node'], url: string, brotli: number, runMs: number, factory: TxFactory, nonces: NonceBook): Promise<Measured> {
  const perBatch = Math.round((TX_PER_S * BATCH_EVERY_MS) / 1000)
  const txs = factory.batch('erc20', perBatch * Math.ceil(runMs / BATCH_EVERY_MS), nonces, node)
  const config: StreamProbeConfig = { url, subscribers: SUBSCRIBERS, brotli, runMs, drainMs: DRAIN_MS }
  const probe = startProbe<StreamProbeResult>(PROBE, config, runMs + DRAIN_MS + 60_000)
  await probe.ready
  const started = performance.now()
  for (let i = 0; i * perBatch < txs.length; i++) {
    await sleep(started + i * BATCH_EVERY_MS - performance.now())
    await sendAll(node.url, txs.slice(i * perBatch, (i + 1) * perBatch), perBatch, 1)
  }
  const r = await probe.result
  const median = (xs: number[]) => quantile(xs, 0.5)
  const extras: Record<string, number> = {
    'first→last subscriber p99': quantile(r.spreadsMs, 0.99),
    'JSON bytes/message (p50)': median(r.jsonBytes),
    'JSON bytes/message (max)': Math.max(...r.jsonBytes),
    'transactions/message (p50)': median(r.transactions),
    'messages with transactions (count)': r.transactions.length,
  }
  if (brotli > 0) {
    Object.assign(extras, {
      'Brotli p50': quantile(r.brotliDelaysMs, 0.5),
      'Brotli p99': quantile(r.brotliDelaysMs, 0.99),
      'Brotli bytes/message (p50)': median(r.brotliBytes),
      'Brotli bytes/message (max)': Math.max(...r.brotliBytes),
    })
  }
  return {
    p50Ms: quantile(r.jsonDelaysMs, 0.5),
    p99Ms: quantile(r.jsonDelaysMs, 0.99),
    count: r.jsonDelaysMs.length,
    errors: r.errors,
    errorSamples: r.errorSamples,
    extras,
    generatorCpuSeconds: r.cpuMs / 1000,
  }
}

function cases({ chain }: ScenarioContext): BenchCase[] {
  const factory = new TxFactory(chain.chainId, chain.token, SENDERS)
  const nonces = new NonceBook()
  return [
    {
      name: `stream → ${SUBSCRIBERS} subscribers, delay over the pre-confirmation announcement (JSON)`,
      peers: ['flashnode'],
      unit: '',
      compare: 'p50',
      measure: ({ node, durationMs }: CaseRun) => measureStream(node, node.url, BROTLI_SUBSCRIBERS, Math.max(STREAM_MS, durationMs), factory, nonces),
    },
    {
      name: `floor: a bare WebSocket relay of the same messages → ${SUBSCRIBERS} JSON subscribers, same probe and load`,
      peers: ['flashnode'],
      unit: '',
      compare: 'p50',
      measure: async ({ node, durationMs }: CaseRun): Promise<Measured> => {
        const runMs = Math.max(STREAM_MS, durationMs)
        const dir = mkdtempSync(join(tmpdir(), 'flashnode-relay-'))
        const portFile = join(dir, 'port')
        const config: StreamRelayConfig = { upstream: node.url, portFile, lifetimeMs: runMs + DRAIN_MS + 30_000 }
        const relay = startProbe<Record<string, never>>(RELAY, config, config.lifetimeMs + 30_000)
        await relay.ready
        try {
          return await measureStream(node, `http://127.0.0.1:${readFileSync(portFile, 'utf8')}`, 0, runMs, factory, nonces)
        } finally {
          relay.kill()
          rmSync(dir, { recursive: true, force: true })
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
    'delay = a subscriber receiving a stream message − the probe receiving the eth_subscribe("newFlashblockTransactions") announcement of the message\'s first transaction (both on loopback, one probe process): what the stream adds over the node\'s own publication; goal ≤ 5 ms',
    'floor row: the same probe on a bare WebSocket relay (bench/stream-relay.ts, its own process) that announces each message\'s first transaction and forwards the node\'s bytes unchanged to its 100 subscribers, under the same transaction load: what a server that does nothing else reaches on this machine with one probe process receiving all 100 copies',
    'p50/p99 over every subscriber × every message with transactions; Brotli columns: the 10 subscribers with ?compression=brotli (time to arrival, before decompression)',
    'sizes: the messages with transactions, as sent (JSON text; Brotli quality 4 binary); Anvil n/a: it has no flashblock stream',
  ],
  cases,
}
