/**
 * Benchmark entry point: `npm run bench [-- options]` (= `tsx bench/run.ts`). Benchmarks measure; they are
 * not tests and assert nothing beyond each peer answering correctly.
 *
 * Options: USAGE below (`npm run bench -- --help` prints it).
 * Prints the command and the machine, then one table per scenario; writes bench/results/<time>.json.
 * A new scenario is a file exporting a Scenario (see bench/scenario.ts), added to SCENARIOS below.
 */

import { parseArgs } from 'node:util'
import { formatMachine, formatScenario, machineInfo, writeResults } from './report.ts'
import { flashblockBuildBench } from './flashblock-build-bench.ts'
import { distinctReadsBench } from './distinct-reads-bench.ts'
import { memoryBench } from './memory-bench.ts'
import { pendingReadsBench } from './pending-reads-bench.ts'
import { readBench } from './read-bench.ts'
import { receiptsBench } from './receipts-bench.ts'
import { sendBench } from './send-bench.ts'
import { simulateBench } from './simulate-bench.ts'
import { SOAK_DEFAULT_MS, soakBench, soakFollowerBench } from './soak-bench.ts'
import { visibilityBench } from './visibility-bench.ts'
import { streamBench } from './stream-bench.ts'
import { followerBench } from './follower-bench.ts'
import { evmBench } from './evm-bench.ts'
import { contractsBench } from './contracts-bench.ts'
import { traceBench } from './trace-bench.ts'
import { replicationBench } from './replication-bench.ts'
import { throughput1gBench, throughputBench } from './throughput-bench.ts'
import { runScenario } from './runner.ts'
import { PEERS, type PeerName } from './nodes.ts'
import type { RunSettings, Scenario, ScenarioResult } from './scenario.ts'

export const SCENARIOS: readonly Scenario[] = [
  readBench,
  pendingReadsBench,
  sendBench,
  visibilityBench,
  flashblockBuildBench,
  receiptsBench,
  simulateBench,
  distinctReadsBench,
  memoryBench,
  streamBench,
  followerBench,
  evmBench,
  contractsBench,
  traceBench,
  replicationBench,
  throughputBench,
  throughput1gBench,
  soakBench,
  soakFollowerBench,
]

/** Named sets of scenarios for --scenarios (a scenario's own name works there too). */
export const GROUPS: Readonly<Record<string, readonly string[]>> = {
  issue3: ['send', 'visibility', 'flashblock-build', 'receipts'],
  issue6: ['read', 'pending-reads', 'send', 'visibility', 'receipts', 'simulate', 'flashblock-build'],
  issue19: ['read', 'pending-reads', 'simulate', 'distinct', 'memory'],
  issue20: ['evm', 'contracts', 'simulate', 'distinct', 'flashblock-build'],
  issue39: ['trace', 'read'],
  issue40: ['replication'],
  issue42: ['throughput', 'throughput-1g'],
  all: SCENARIOS.map((s) => s.name),
}

function commandLine(): string {
  const args = process.argv.slice(2).join(' ')
  if (process.env['npm_lifecycle_event'] === 'bench') return `npm run bench${args === '' ? '' : ` -- ${args}`}`
  return `tsx bench/run.ts${args === '' ? '' : ` ${args}`}`
}

const USAGE = `usage: npm run bench [-- options]
  --quick               smoke run: 1 repetition of 1 s (+0.3 s warm-up)
  --only a,b            scenarios by name (default: all)
  --scenarios g,…       the same, also accepting groups: issue3 (send, visibility, flashblock-build, receipts),
                        issue6 (every figure of issue 6, simulate included; not soak),
                        issue19 (read, pending-reads, simulate, distinct, memory),
                        issue20 (evm, contracts, simulate, distinct, flashblock-build),
                        issue39 (trace, read: tracing and eth_getProof), issue40 (replication),
                        issue42 (throughput, throughput-1g: sealed tx/s with the pool kept full, ≥ 60 s a row), all
  --peers anvil,flashnode   (also flashnode-no-metrics: Flashnode with --no-metrics, beside it in one run;
                        flashnode-group: Flashnode leading a sequencer group on a three-server JetStream
                        cluster; default: anvil,flashnode, or a scenario's own, e.g. replication's)
  --reps N  --duration MS  --warmup MS
  --concurrency N       override every case's concurrency
  --processes N         load generator processes (default 1)
  --client raw|http|fetch
  --wait-quiet S        before each peer start, wait up to S seconds for the machine to be idle
  --soak-duration MS    the soak scenario's window (default 1800000: 30 minutes; --quick: 3 s); it runs once
  --help                this text`

function settingsFrom(argv: string[]): { settings: RunSettings; only: string[] | undefined } {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: 'boolean', default: false },
      only: { type: 'string' },
      scenarios: { type: 'string' },
      peers: { type: 'string' },
      reps: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      concurrency: { type: 'string' },
      processes: { type: 'string', default: '1' },
      client: { type: 'string', default: 'raw' },
      'wait-quiet': { type: 'string', default: '0' },
      'soak-duration': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  })
  if (values.help === true) {
    console.log(`${USAGE}\nscenarios: ${SCENARIOS.map((sc) => sc.name).join(', ')}`)
    process.exit(0)
  }
  const quick = values.quick ?? false
  const num = (v: string | undefined, fallback: number): number => {
    if (v === undefined) return fallback
    const n = Number(v)
    if (!Number.isFinite(n) || n < 0) throw new Error(`not a number: ${v}`)
    return n
  }
  const peers = (values.peers ?? 'anvil,flashnode').split(',').filter((p) => p !== '') as PeerName[]
  for (const p of peers) if (!PEERS.includes(p)) throw new Error(`unknown peer ${p} (${PEERS.join(', ')})`)
  const client = values.client
  if (client !== 'raw' && client !== 'http' && client !== 'fetch') throw new Error(`unknown client ${client}`)
  const settings: RunSettings = {
    repetitions: Math.max(1, num(values.reps, quick ? 1 : 3)),
    durationMs: num(values.duration, quick ? 1000 : 5000),
    warmupMs: num(values.warmup, quick ? 300 : 1000),
    generatorProcesses: Math.max(1, num(values.processes, 1)),
    client,
    peers,
    peersGiven: values.peers !== undefined,
    quick,
    waitQuietMs: num(values['wait-quiet'], 0) * 1000,
    soakDurationMs: num(values['soak-duration'], SOAK_DEFAULT_MS),
  }
  if (values.concurrency !== undefined) settings.concurrency = Math.max(1, num(values.concurrency, 1))
  const names = [values.only, values.scenarios].filter((v): v is string => v !== undefined).flatMap((v) => v.split(','))
  const only = names.length === 0 ? undefined : [...new Set(names.flatMap((n) => GROUPS[n] ?? [n]))]
  return { settings, only }
}

async function main(): Promise<void> {
  const { settings, only } = settingsFrom(process.argv.slice(2))
  const chosen = only === undefined ? SCENARIOS : SCENARIOS.filter((s) => only.includes(s.name))
  const unknown = (only ?? []).filter((n) => !SCENARIOS.some((s) => s.name === n))
  if (unknown.length > 0) {
    const known = [...SCENARIOS.map((s) => s.name), ...Object.keys(GROUPS)]
    throw new Error(`unknown scenario ${unknown.join(', ')}; known: ${known.join(', ')}`)
  }

  const command = commandLine()
  const startedAt = new Date().toISOString()
  const machine = machineInfo()
  const results: ScenarioResult[] = []
  for (const s of chosen) results.push(await runScenario(s, settings, (line) => process.stderr.write(`… ${line}\n`)))

  console.log(`$ ${command}`)
  console.log(formatMachine(machine))
  for (const r of results) console.log(`\n${formatScenario(r, settings)}`)
  const file = writeResults({ command, startedAt, machine, settings, scenarios: results })
  console.log(`\nresults: ${file}`)
}

process.on('SIGINT', () => process.exit(130)) // nodes.ts kills the peers on exit
process.on('SIGTERM', () => process.exit(143))
main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e)
  process.exit(1)
})
