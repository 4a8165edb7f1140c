/**
 * Presentation of a benchmark run: the machine it ran on, one table per scenario with both peers side by
 * side and the Flashnode/Anvil ratio, notes (unavailable peers, wrong answers, errors, generator CPU), and
 * the full record as JSON in bench/results/ (gitignored). Figures are never printed without the command
 * that produced them.
 */

import { execSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus, platform, release, totalmem } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { anvilVersion, type PeerName } from './nodes.ts'
import { median, type CaseResult, type RunSettings, type ScenarioResult } from './scenario.ts'

export interface Machine {
  cpus: number
  cpuModel: string
  node: string
  anvil: string
  os: string
  memoryGiB: number
  gitCommit: string
}

export function machineInfo(): Machine {
  let gitCommit = 'unknown'
  try {
    const head = execSync('git rev-parse --short HEAD', { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
    const dirty = execSync('git status --porcelain', { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
    gitCommit = dirty === '' ? head : `${head}+uncommitted`
  } catch {
    /* not a checkout */
  }
  return {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
    node: process.version,
    anvil: anvilVersion(),
    os: `${platform()} ${release()}`,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    gitCommit,
  }
}

const PEER_LABEL: Record<PeerName, string> = { anvil: 'Anvil', flashnode: 'Flashnode' }
const int = (x: number): string => Math.round(x).toLocaleString('en-US')
const ms = (x: number): string =>
  !Number.isFinite(x) ? '—' : x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2)

function cells(cr: CaseResult | undefined, available: boolean): string[] {
  if (!available) return ['unavailable', '', '', '']
  if (cr?.invalid !== undefined) return [cr.invalid.startsWith('wrong') ? 'WRONG ANSWER' : 'FAILED', '', '', '']
  if (cr?.median === undefined) return ['—', '', '', '']
  const m = cr.median
  return [int(m.rps), ms(m.p50Ms), ms(m.p99Ms), `${Math.round(m.serverCpuPct)}%`]
}

function table(rows: string[][], rightAligned: (col: number) => boolean): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)))
  return rows
    .map((r) => r.map((c, i) => (rightAligned(i) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ').trimEnd())
    .join('\n')
}

export function formatScenario(r: ScenarioResult, settings: RunSettings): string {
  const peers = settings.peers
  const header = ['case', 'conc.']
  for (const p of peers) header.push(`${PEER_LABEL[p]} req/s`, 'p50 ms', 'p99 ms', 'CPU')
  const ratio = peers.includes('anvil') && peers.includes('flashnode')
  if (ratio) header.push('Flashnode/Anvil')
  const rows: string[][] = [header]
  for (const name of r.caseNames) {
    const row = [name, String(r.concurrency[name] ?? '')]
    for (const p of peers) row.push(...cells(r.peers[p]?.cases[name], r.peers[p]?.available ?? false))
    if (ratio) {
      const a = r.peers.anvil?.cases[name]?.median?.rps
      const f = r.peers.flashnode?.cases[name]?.median?.rps
      row.push(a !== undefined && f !== undefined && a > 0 ? `${(f / a).toFixed(2)}×` : '—')
    }
    rows.push(row)
  }
  const rss = ['peak RSS (median of starts)', '']
  for (const p of peers) {
    const xs = r.peers[p]?.peakRssBytes ?? []
    rss.push(xs.length > 0 ? `${Math.round(median(xs) / 2 ** 20)} MB` : '—', '', '', '')
  }
  rows.push(rss)

  const notes: string[] = []
  for (const p of peers) {
    const pr = r.peers[p]
    if (pr === undefined) continue
    if (!pr.available) notes.push(`${PEER_LABEL[p]} unavailable: ${(pr.reason ?? '').split('\n').slice(0, 6).join('\n    ')}`)
    for (const [name, cr] of Object.entries(pr.cases)) {
      if (cr.invalid !== undefined) notes.push(`${PEER_LABEL[p]}, ${name}: ${cr.invalid}`)
      if (cr.errors > 0) notes.push(`${PEER_LABEL[p]}, ${name}: ${cr.errors} errors, e.g. ${cr.samples.flatMap((s) => s.errorSamples)[0] ?? ''}`)
    }
  }
  const samples = Object.values(r.peers).flatMap((pr) => Object.values(pr.cases).flatMap((c) => c.samples))
  const others = samples.map((s) => s.otherCpuPct)
  if (others.length > 0) {
    notes.push(
      `other processes on the machine during the load: median ${Math.round(median(others))}%, ` +
        `max ${Math.round(Math.max(...others))}% of one core` +
        (Math.max(...others) > 25 ? ' (NOISY: something else ran meanwhile; see the JSON per repetition)' : ''),
    )
  }
  const cpu = Object.values(r.peers).flatMap((pr) => Object.values(pr.cases).flatMap((c) => c.samples.map((s) => s.generatorCpuPct)))
  if (cpu.length > 0) {
    notes.push(
      `load generator CPU: median ${Math.round(median(cpu))}%, max ${Math.round(Math.max(...cpu))}% of one core ` +
        `(${settings.generatorProcesses} process${settings.generatorProcesses > 1 ? 'es' : ''}, ${settings.client} client)` +
        (Math.max(...cpu) > 85 * settings.generatorProcesses ? '; near saturation, the client may cap these figures: try --processes 2' : ''),
    )
  }
  const title =
    `scenario ${r.name}: ${r.title}; ${settings.repetitions} × ${settings.durationMs / 1000} s ` +
    `(+${settings.warmupMs / 1000} s warm-up) per peer, medians`
  const legend = 'CPU = the peer\'s CPU during the load, in % of one core (server process and its children)'
  return [title, '', table(rows, (i) => i >= 1), '', ...[legend, ...notes].map((n) => `  - ${n}`)].join('\n')
}

export function formatMachine(m: Machine): string {
  return (
    `machine: ${m.cpus} CPUs (${m.cpuModel}), ${m.memoryGiB} GiB, ${m.os}; node ${m.node}; anvil ${m.anvil}; ` +
    `flashnode at ${m.gitCommit}`
  )
}

export function writeResults(record: {
  command: string
  startedAt: string
  machine: Machine
  settings: RunSettings
  scenarios: ScenarioResult[]
}): string {
  const dir = join(dirname(fileURLToPath(import.meta.url)), 'results')
  mkdirSync(dir, { recursive: true })
  const file = join(dir, `${record.startedAt.replace(/[:.]/g, '-')}.json`)
  writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`)
  return file
}
