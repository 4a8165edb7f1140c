/**
 * Pre-confirmations while long eth_calls keep a sequencing node's execution workers busy: does the extra
 * worker for long executions (src/node/execution/spare-core-gate.ts) take the main thread's core from the
 * sequencer? Two starts of Flashnode (200 ms flashblocks) on the visibility scenario's 256-sender genesis, one
 * after the other: its default pool, and `--execution-workers 1` (no extra worker). Each: a client on the
 * flashblock stream records when each message arrives, for 3 s idle and then under a load of the EVM
 * benchmark's counter loop (~2.6 Mgas per eth_call, a distinct calldata word every request, concurrency 2),
 * while the visibility scenario's probe sends ETH transfers at ~25/s (Poisson) and times each answer until
 * its WS newFlashblockTransactions notification. Prints the gaps between stream messages (p50, p99, max) idle
 * and under load, the transfers' visibility p50/p99, the eth_call rate and the node's CPU. Not a scenario
 * (Anvil has neither stream nor notification); it measures a trade-off inside Flashnode.
 *
 *   npx tsx bench/cadence-under-load.ts [--duration MS]
 */

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import WebSocket from 'ws'
import { PROGRAMS, programInput } from './evm-programs.ts'
import { writeBenchGenesis } from './genesis.ts'
import { runLoad } from './load.ts'
import { freePort, startFlashnode } from './nodes.ts'
import { rpcBody } from './rpc.ts'
import { NonceBook, quantile, TxFactory } from './txs.ts'
import { runProbe, schedule } from './visibility-bench.ts'

const { values } = parseArgs({ options: { duration: { type: 'string', default: '10000' } } })
const DURATION_MS = Number(values.duration)
const IDLE_MS = 3_000
const TARGET = '0x00000000000000000000000000000000000e7a11'
const counter = PROGRAMS[0]!
const bodies = Array.from({ length: 20_000 }, (_, i) =>
  rpcBody(i + 1, 'eth_call', [{ to: TARGET, data: programInput(counter.count, i + 1), gas: '0x2dc6c0' }, 'latest', { [TARGET]: { code: counter.code } }]),
)

const SENDERS = 256
const gapsOf = (times: number[]): number[] => times.slice(1).map((t, i) => t - times[i]!)
const describe = (gaps: number[]): string => `p50 ${quantile(gaps, 0.5).toFixed(0)} ms, p99 ${quantile(gaps, 0.99).toFixed(0)} ms, max ${Math.max(...gaps).toFixed(0)} ms (${gaps.length} gaps)`

async function measure(label: string, extraArgs: string[]): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'flashnode-cadence-'))
  const genesisPath = join(dir, 'genesis.json')
  const chain = writeBenchGenesis(genesisPath, { accounts: SENDERS, gasLimit: 200_000_000n })
  const node = await startFlashnode({ genesisPath, datadir: join(dir, 'data'), port: await freePort(), extraArgs: ['--log-level', 'warn', ...extraArgs] })
  try {
    const arrivals: number[] = []
    const ws = new WebSocket(`${node.url.replace(/^http/, 'ws')}flashblocks`)
    ws.on('message', () => arrivals.push(performance.now()))
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve())
      ws.once('error', reject)
    })
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS))
    const idle = gapsOf(arrivals)
    let from = 0
    const cpuBefore = node.cpuSeconds()
    const startedAt = performance.now()
    const sendAtMs = schedule(DURATION_MS, 1)
    const txs = new TxFactory(chain.chainId, chain.token, SENDERS).batch('eth', sendAtMs.length, new NonceBook(), node).map((t) => ({ raw: t.raw, hash: t.hash }))
    let visible: Promise<Awaited<ReturnType<typeof runProbe>>> | undefined
    const load = await runLoad({ url: node.url, bodies, concurrency: 2, durationMs: DURATION_MS, warmupMs: 1_000, client: 'raw' }, () => {
      from = arrivals.length
      visible = runProbe({ url: node.url, detector: 'ws', txs, sendAtMs, pollMs: 10, drainMs: 2_500 }, DURATION_MS + 40_000)
    })
    const seen = await visible!
    const latencies = seen.latenciesMs.map((x) => Math.max(0, x))
    const cpu = (100 * (node.cpuSeconds() - cpuBefore)) / ((performance.now() - startedAt) / 1000)
    const loaded = gapsOf(arrivals.slice(from))
    ws.close()
    return [
      `${label}:`,
      `  idle:      flashblock gaps ${describe(idle)}`,
      `  under load: flashblock gaps ${describe(loaded)}; eth_call ${load.rps.toFixed(0)} calls/s (p50 ${load.p50Ms.toFixed(1)} ms), ${load.errors} errors; node CPU ${cpu.toFixed(0)}%`,
      `              transfers answer -> WS newFlashblockTransactions p50 ${quantile(latencies, 0.5).toFixed(0)} ms, p99 ${quantile(latencies, 0.99).toFixed(0)} ms (${latencies.length} of ${seen.sent} seen, ${seen.errors} errors)`,
    ].join('\n')
  } finally {
    await node.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

const out = [
  `$ npx tsx bench/cadence-under-load.ts --duration ${DURATION_MS}`,
  await measure('default pool (one worker, and the extra one for long executions)', []),
  await measure('--execution-workers 1 (no extra worker)', ['--execution-workers', '1']),
]
console.log(out.join('\n'))
