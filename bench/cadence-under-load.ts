/**
 * The flashblock cadence of a sequencing node while long eth_calls keep its execution workers busy: does the
 * extra worker for long executions (src/node/execution/spare-core-gate.ts) take the main thread's core from
 * the sequencer? Two starts of Flashnode on its dev chain (200 ms flashblocks), one after the other: its
 * default pool, and `--execution-workers 1` (no extra worker). Each: a client on the flashblock stream records
 * when each message arrives, for 3 s idle and then under a load of the EVM benchmark's counter loop (~2.6 Mgas
 * per eth_call, a distinct calldata word every request, concurrency 2). Prints the gaps between messages
 * (p50, p99, max) idle and under load, the eth_call rate, and the node's CPU. Not a scenario (Anvil has no
 * stream); it measures a trade-off inside Flashnode.
 *
 *   npx tsx bench/cadence-under-load.ts [--duration MS]
 */

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import WebSocket from 'ws'
import { PROGRAMS, programInput } from './evm-programs.ts'
import { runLoad } from './load.ts'
import { freePort, startFlashnode } from './nodes.ts'
import { rpcBody } from './rpc.ts'

const { values } = parseArgs({ options: { duration: { type: 'string', default: '10000' } } })
const DURATION_MS = Number(values.duration)
const IDLE_MS = 3_000
const TARGET = '0x00000000000000000000000000000000000e7a11'
const counter = PROGRAMS[0]!
const bodies = Array.from({ length: 20_000 }, (_, i) =>
  rpcBody(i + 1, 'eth_call', [{ to: TARGET, data: programInput(counter.count, i + 1), gas: '0x2dc6c0' }, 'latest', { [TARGET]: { code: counter.code } }]),
)

const quantile = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN
}
const gapsOf = (times: number[]): number[] => times.slice(1).map((t, i) => t - times[i]!)
const describe = (gaps: number[]): string => `p50 ${quantile(gaps, 0.5).toFixed(0)} ms, p99 ${quantile(gaps, 0.99).toFixed(0)} ms, max ${Math.max(...gaps).toFixed(0)} ms (${gaps.length} gaps)`

async function measure(label: string, extraArgs: string[]): Promise<string> {
  const datadir = mkdtempSync(join(tmpdir(), 'flashnode-cadence-'))
  const node = await startFlashnode({ datadir, port: await freePort(), extraArgs: ['--log-level', 'warn', ...extraArgs] })
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
    const load = await runLoad({ url: node.url, bodies, concurrency: 2, durationMs: DURATION_MS, warmupMs: 1_000, client: 'raw' }, () => {
      from = arrivals.length
    })
    const cpu = (100 * (node.cpuSeconds() - cpuBefore)) / ((performance.now() - startedAt) / 1000)
    const loaded = gapsOf(arrivals.slice(from))
    ws.close()
    return [
      `${label}:`,
      `  idle:      flashblock gaps ${describe(idle)}`,
      `  under load: flashblock gaps ${describe(loaded)}; eth_call ${load.rps.toFixed(0)} calls/s (p50 ${load.p50Ms.toFixed(1)} ms), ${load.errors} errors; node CPU ${cpu.toFixed(0)}%`,
    ].join('\n')
  } finally {
    await node.stop()
    rmSync(datadir, { recursive: true, force: true })
  }
}

const out = [
  `$ npx tsx bench/cadence-under-load.ts --duration ${DURATION_MS}`,
  await measure('default pool (one worker, and the extra one for long executions)', []),
  await measure('--execution-workers 1 (no extra worker)', ['--execution-workers', '1']),
]
console.log(out.join('\n'))
