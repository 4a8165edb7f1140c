/**
 * Scenario "replication": what "replicated before announced" (issue 40) costs a pre-confirmation, side by side
 * in one run: Flashnode as a single sequencer (`flashnode`) and Flashnode leading a sequencer group on a
 * three-server JetStream cluster on loopback (`flashnode-group`, bench/nodes.ts: each flashblock acknowledged
 * by the cluster, R=3, before anything of it is announced). Both are the production build at the default
 * cadence (200 ms flashblocks, auto sealing), started fresh per repetition, alternating.
 *
 * Each row is a stream of transfers with Poisson gaps (seeded, so arrivals are independent of the tick's
 * phase), sent one request each by the visibility probe (visibility-probe.ts, its own process), which times
 * every transaction from its eth_sendRawTransaction answer to its newFlashblockTransactions notification:
 * the pre-confirmation latency a client sees (p50, p99). Both sides wait for the same tick, so the difference
 * of their percentiles is what the replication adds (the last column), within the noise of a uniform
 * 0-200 ms wait. Meanwhile GET /status is polled for the node's own build-to-announce time of every
 * flashblock that carried transactions (from asking the pool to the announcement: execution, journal and, in
 * the group, the message built and acknowledged by the cluster): the same cost without the wait, in the
 * extra columns.
 */

import type { BenchCase, CaseRun, Measured, Scenario } from './scenario.ts'
import { NonceBook, quantile, TxFactory, type TxKind } from './txs.ts'
import { probeFigures, runProbe, schedule } from './visibility-bench.ts'
import { watchStatus } from './status-watch.ts'

const SENDERS = 256
/** Each stream lasts at least this long (see visibility-bench.ts on the p50's standard error). */
const STREAM_MS = 20_000
const DRAIN_MS = 2_500

function cases(ctx: Parameters<Scenario['cases']>[0]): BenchCase[] {
  const factory = new TxFactory(ctx.chain.chainId, ctx.chain.token, SENDERS)
  const nonces = new NonceBook()
  const row = (kind: TxKind, perSecond: number, seed: number): BenchCase => ({
    name: `${perSecond} ${kind === 'eth' ? 'ETH' : 'ERC-20'} transfers/s: send answer → newFlashblockTransactions`,
    unit: '',
    compare: 'p50',
    peers: ['flashnode', 'flashnode-group'],
    measure: async ({ node, durationMs }: CaseRun): Promise<Measured> => {
      const sendAtMs = schedule(Math.max(STREAM_MS, durationMs), seed, 1000 / perSecond)
      const txs = factory.batch(kind, sendAtMs.length, nonces, node).map((t) => ({ raw: t.raw, hash: t.hash }))
      let probing = true
      const status = watchStatus(node.url, () => probing)
      const r = await runProbe({ url: node.url, detector: 'ws', txs, sendAtMs, pollMs: 10, drainMs: DRAIN_MS }, durationMs + DRAIN_MS + 30_000).finally(() => (probing = false))
      const announce = (await status).flashblocks.filter((f) => f.transactions > 0).map((f) => f.buildMs!)
      const latencies = r.latenciesMs.map((x) => Math.max(0, x))
      return probeFigures(r, latencies, {
        'announce p50': quantile(announce, 0.5),
        'announce p99': quantile(announce, 0.99),
        'flashblocks timed (count)': announce.length,
        'samples (count)': latencies.length,
      })
    },
  })
  return [row('eth', 25, 11), row('erc20', 250, 12)]
}

export const replicationBench: Scenario = {
  name: 'replication',
  title: 'pre-confirmation latency, single sequencer beside a group leader whose flashblocks a three-server JetStream cluster acknowledges first (R=3, loopback)',
  genesis: { accounts: SENDERS, gasLimit: 200_000_000n },
  mutatesState: true,
  peers: ['flashnode', 'flashnode-group'],
  extraColumns: ['announce p50', 'announce p99'],
  notes: () => [
    'p50/p99: send answer → newFlashblockTransactions notification, over every transaction of the stream (one start; medians over starts)',
    'announce p50/p99: the node\'s own build-to-announce time of each flashblock with transactions (GET /status buildMs): pool, execution, journal and, for the group, the message acknowledged by the cluster',
    'group − single: the group\'s p50 and p99 minus the single sequencer\'s (goal of issue 40: ≤ 3 ms at p50, ≤ 10 ms at p99); the group\'s CPU column counts its three nats-servers too. The client-side difference carries the noise of the uniform 0-200 ms wait for the tick (a p50 from n samples: ± ~73/√n ms, ~3 ms at 500); "announce: group − single" is the same cost without that wait (each flashblock\'s own build-to-announce time, the part of the latency replication changes)',
  ],
  cases,
}
