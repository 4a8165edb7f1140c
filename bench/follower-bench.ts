/**
 * Scenario "follower": a follower process (`flashnode start --follow URL`) beside the sequencer the runner
 * started, on loopback. Flashnode only (Anvil has no followers).
 *   - visibility, twice: the follower reading the sequencer's WebSocket stream, and reading it through NATS
 *     JetStream (Debian's nats-server, started by the scenario; the sequencer publishes there with --stream).
 *     ~250 ERC-20 transfers/s into the sequencer; the probe (follower-probe.ts, its own process)
 *     times, per transaction, the follower's newFlashblockTransactions announcement minus the sequencer's:
 *     what following adds to a pre-confirmation's visibility (goal ≤ 15 ms). The load's first `WARMUP_MS`
 *     are not counted: a follower's first seals and applies after its start run cold (the first two blocks'
 *     seals took 50–90 ms and their first flashblocks waited behind them, instrumented 28 Nov), which is its
 *     start, not the visibility it serves. The follower's peak RSS and CPU are in the notes.
 *   - catch-up: 4,000 transfers sealed into the sequencer's chain, then a follower started empty; from its
 *     `listening` line until its head is the sequencer's: sealed blocks/s (transactions/s in the notes).
 *     Catch-up fetches blocks over JSON-RPC and re-executes them (every root checked).
 *   - reads: eth_getStorageAt of 64 holders' token balance slots at `pending` (no result cache), on the
 *     follower and, in the same run, on the sequencer (in the notes), neither under transaction load.
 */

import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { balanceSlot } from '../test/fixtures/erc20/index.ts'
import { until } from '../test/support/follower-kit.ts'
import { runLoad } from './load.ts'
import { followerReady, startFollower } from './follower-node.ts'
import { startProbe } from './probe-process.ts'
import { rpcBody, rpcCall } from './rpc.ts'
import type { BenchCase, CaseRun, Measured, Scenario, ScenarioContext } from './scenario.ts'
import type { FollowerProbeConfig, FollowerProbeResult } from './follower-probe.ts'
import { NonceBook, quantile, sendAll, TxFactory } from './txs.ts'
import { startBroker, type Broker } from './nats.ts'
import { streamName } from '../src/stream/jetstream-layout.ts'

const PROBE = join(dirname(fileURLToPath(import.meta.url)), 'follower-probe.ts')
const SENDERS = 256
const TX_PER_S = 250
const BATCH_EVERY_MS = 40
const STREAM_MS = 20_000
/** Load sent, not counted, before the visibility rows measure (see the top comment). */
const WARMUP_MS = 3_000
const DRAIN_MS = 1_500
const CATCH_UP_TXS = 4_000
const HOLDERS = 64

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, Math.max(0, ms)))

const blockNumber = async (url: string): Promise<number> => Number(await rpcCall<string>(url, 'eth_blockNumber', []))

/** The broker the scenario started (undefined: nats-server is not installed). */
let broker: Broker | undefined

function cases({ chain }: ScenarioContext): BenchCase[] {
  const factory = new TxFactory(chain.chainId, chain.token, SENDERS)
  const nonces = new NonceBook()
  const holders = chain.accounts.slice(0, HOLDERS).map((a) => a.address)
  const visibility = (source: string, followerArgs: () => string[]): BenchCase => {
    return {
      name: `follower: a pre-confirmation visible through its pending, delay over the sequencer's own (${source})`,
      peers: ['flashnode'],
      unit: '',
      compare: 'p50',
      measure: async ({ node, durationMs }: CaseRun): Promise<Measured> => {
        const runMs = Math.max(STREAM_MS, durationMs)
        const args = followerArgs()
        const follower = await startFollower(chain, node, args)
        try {
          await followerReady(follower.node.url)
          const perBatch = Math.round((TX_PER_S * BATCH_EVERY_MS) / 1000)
          const loadMs = WARMUP_MS + runMs
          const txs = factory.batch('erc20', perBatch * Math.ceil(loadMs / BATCH_EVERY_MS), nonces, node)
          const config: FollowerProbeConfig = { sequencer: node.url, followers: [follower.node.url], warmupMs: WARMUP_MS, runMs, drainMs: DRAIN_MS }
          const probe = startProbe<FollowerProbeResult>(PROBE, config, loadMs + DRAIN_MS + 60_000)
          await probe.ready
          const cpu0 = follower.node.cpuSeconds()
          const started = performance.now()
          for (let i = 0; i * perBatch < txs.length; i++) {
            await sleep(started + i * BATCH_EVERY_MS - performance.now())
            await sendAll(node.url, txs.slice(i * perBatch, (i + 1) * perBatch), perBatch, 1)
          }
          const r = await probe.result
          const delays = r.delaysMs[0]!
          return {
            p50Ms: quantile(delays, 0.5),
            p99Ms: quantile(delays, 0.99),
            count: delays.length,
            errors: r.missing[0]!,
            errorSamples: r.missing[0]! > 0 ? [`${r.missing[0]} of ${r.announced} pre-confirmations never announced by the follower`] : [],
            extras: {
              'follower peak RSS (MB)': (follower.node.peakRssBytes() ?? 0) / 1e6,
              'follower CPU (% of a core)': ((follower.node.cpuSeconds() - cpu0) * 100_000) / (performance.now() - started),
              'pre-confirmations (count)': r.announced,
            },
            generatorCpuSeconds: r.cpuMs / 1000,
          }
        } finally {
          await follower.cleanup()
          // The next repetition's sequencer starts a new chain: it must not find this one's history on the broker.
          if (args.includes('--stream')) await broker?.deleteStream(streamName(BigInt(chain.chainId)))
        }
      },
    }
  }
  return [
    visibility('direct stream', () => []),
    visibility('through JetStream', () => {
      if (broker === undefined) throw new Error('nats-server is not installed (Debian package nats-server): no broker to measure')
      return ['--stream', broker.url]
    }),
    {
      name: `follower catch-up: started empty on ${CATCH_UP_TXS.toLocaleString('en')} sealed ERC-20 transfers, sealed blocks/s`,
      peers: ['flashnode'],
      unit: 'blocks/s',
      measure: async ({ node }: CaseRun): Promise<Measured> => {
        const txs = factory.batch('erc20', CATCH_UP_TXS, nonces, node)
        await sendAll(node.url, txs, 200, 2)
        const last = txs.at(-1)!
        await until('the transfers sealed', async () => ((await rpcCall<{ blockNumber: string } | null>(node.url, 'eth_getTransactionReceipt', [last.hash])) === null ? undefined : true), 300_000)
        const head = await blockNumber(node.url)
        let transactions = 0
        for (let n = 1; n <= head; n++) transactions += Number(await rpcCall<string>(node.url, 'eth_getBlockTransactionCountByNumber', [`0x${n.toString(16)}`]))
        const follower = await startFollower(chain, node)
        try {
          const started = performance.now()
          await until('the follower to catch up', async () => ((await blockNumber(follower.node.url)) >= head ? true : undefined), 600_000)
          const seconds = (performance.now() - started) / 1000
          return {
            rate: head / seconds,
            p50Ms: (seconds * 1000) / head,
            p99Ms: (seconds * 1000) / head,
            count: head,
            errors: 0,
            errorSamples: [],
            extras: { 'catch-up transactions/s': transactions / seconds, 'blocks (count)': head, 'transactions (count)': transactions, 'catch-up seconds': seconds },
          }
        } finally {
          await follower.cleanup()
        }
      },
    },
    {
      name: `reads on a follower: eth_getStorageAt of ${HOLDERS} holders' balance slots at pending, repeated (warm state caches; the sequencer's in the notes)`,
      peers: ['flashnode'],
      concurrency: 32,
      measure: async ({ node, durationMs, warmupMs }: CaseRun): Promise<Measured> => {
        const bodies = holders.map((h, i) => rpcBody(i + 1, 'eth_getStorageAt', [chain.token, balanceSlot(h), 'pending']))
        const follower = await startFollower(chain, node)
        try {
          await followerReady(follower.node.url)
          const load = (url: string) => runLoad({ url, bodies, concurrency: 32, durationMs, warmupMs, once: false, client: 'raw' })
          const onFollower = await load(follower.node.url)
          const onSequencer = await load(node.url)
          return {
            rate: onFollower.rps,
            p50Ms: onFollower.p50Ms,
            p99Ms: onFollower.p99Ms,
            count: onFollower.requests,
            errors: onFollower.errors + onSequencer.errors,
            errorSamples: [...onFollower.errorSamples, ...onSequencer.errorSamples],
            extras: { 'sequencer req/s': onSequencer.rps, 'sequencer p50': onSequencer.p50Ms, 'sequencer p99': onSequencer.p99Ms },
            generatorCpuPct: onFollower.generatorCpuPct,
          }
        } finally {
          await follower.cleanup()
        }
      },
    },
  ]
}

export const followerBench: Scenario = {
  name: 'follower',
  title: 'a follower beside its sequencer on loopback: visibility of pre-confirmations, catch-up, reads',
  genesis: { accounts: SENDERS, gasLimit: 200_000_000n },
  mutatesState: true,
  setup: async () => {
    broker = await startBroker()
    return {
      flashnodeArgs: broker === undefined ? [] : ['--stream', broker.url],
      teardown: async () => {
        await broker?.stop()
        broker = undefined
      },
    }
  },
  notes: () => [
    `visibility: delay = the follower's eth_subscribe("newFlashblockTransactions") announcement − the sequencer's, for the same transaction, both received by one probe process on loopback, after ${WARMUP_MS / 1000} s of load not counted (the follower's cold start); goal p99 ≤ 15 ms`,
    'catch-up: from the follower\'s listening line until its head is the sequencer\'s; blocks fetched with debug_getRawBlock in batches and re-executed, every root checked',
    'reads: the same bodies on the follower, then on the sequencer, no transaction load; rate in req/s',
  ],
  cases,
}
