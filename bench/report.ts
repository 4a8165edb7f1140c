/**
 * Presentation of a benchmark run: the machine it ran on, one table per scenario with both peers side by
 * side and the Flashnode/Anvil ratio, notes (unavailable peers, wrong answers, errors, generator CPU), and
 * the full record as JSON in bench/results/ (gitignored). Figures are never printed without the command
 * that produced them.
 */

import { execSync, type ExecSyncOptionsWithStringEncoding } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus, platform, release, totalmem } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { anvilVersion, FLASHNODE_CHECKOUT, type PeerName } from './nodes.ts'
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
    // The commit of the Flashnode being measured (another checkout's with BENCH_FLASHNODE_CHECKOUT).
    const git: ExecSyncOptionsWithStringEncoding = { cwd: FLASHNODE_CHECKOUT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }
    const head = execSync('git rev-parse --short HEAD', git).trim()
    const dirty = execSync('git status --porcelain', git).trim()
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

const PEER_LABEL: Record<PeerName, string> = { anvil: 'Anvil', flashnode: 'Flashnode', 'flashnode-no-metrics': 'Flashnode --no-metrics', 'flashnode-group': 'Flashnode group (R=3)' }
const int = (x: number): string => Math.round(x).toLocaleString('en-US')
const ms = (x: number): string =>
  !Number.isFinite(x) ? '—' : x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2)

function cells(cr: CaseResult | undefined, available: boolean, applies: boolean, extraColumns: string[]): string[] {
  const blank = (first: string): string[] => [first, '', '', ...extraColumns.map(() => ''), '']
  if (!applies) return blank('n/a')
  if (!available) return blank('unavailable')
  if (cr?.invalid !== undefined) return blank(cr.invalid.startsWith('wrong') ? 'WRONG ANSWER' : 'FAILED')
  if (cr?.median === undefined) return blank('—')
  const m = cr.median
  const extra = extraColumns.map((k) => (m.extras?.[k] === undefined ? '' : extraText(k, m.extras[k]!)))
  return [Number.isFinite(m.rps) ? int(m.rps) : '—', ms(m.p50Ms), ms(m.p99Ms), ...extra, `${Math.round(m.serverCpuPct)}%`]
}

/**
 * Flashnode against Anvil, > 1 when Flashnode does better: rate ratio, Anvil p50 / Flashnode p50, or (less is
 * better, e.g. memory) Anvil's figure / Flashnode's.
 */
function ratioCell(r: ScenarioResult, name: string): string {
  const a = r.peers.anvil?.cases[name]?.median
  const f = r.peers.flashnode?.cases[name]?.median
  if (a === undefined || f === undefined) return '—'
  const compare = r.cases[name]?.compare
  if (compare === 'p50') return f.p50Ms > 0 && a.p50Ms > 0 ? `${(a.p50Ms / f.p50Ms).toFixed(2)}× (p50)` : '—'
  const rates = Number.isFinite(a.rps) && Number.isFinite(f.rps) && a.rps > 0 && f.rps > 0
  if (compare === 'lower') return rates ? `${(a.rps / f.rps).toFixed(2)}× (lower)` : '—'
  return rates ? `${(f.rps / a.rps).toFixed(2)}×` : '—'
}

/** Extras print as ms, or as integers when their name ends in "(count)" or "(MB)". */
const extraText = (k: string, v: number): string => (/\((count|MB)\)$/.test(k) ? int(v) : ms(v))
/** An extra column's title: its name, with "ms" unless the name ends in its own unit, e.g. "sent (tx/s)". */
const columnTitle = (k: string): string => (/\([^)]+\)$/.test(k) ? k : `${k} ms`)

/** Flashnode with metrics over Flashnode without (rate ratio; < 1 when recording metrics costs throughput). */
function metricsCell(r: ScenarioResult, name: string): string {
  const on = r.peers.flashnode?.cases[name]?.median
  const off = r.peers['flashnode-no-metrics']?.cases[name]?.median
  if (on === undefined || off === undefined || !Number.isFinite(on.rps) || !Number.isFinite(off.rps) || off.rps <= 0) return '—'
  return `${(on.rps / off.rps).toFixed(3)}×`
}

/**
 * What the group's replication adds: its p50 and p99 minus the single sequencer's, in ms; with `extras`
 * (e.g. ['announce p50', 'announce p99']), the same of those two extra figures.
 */
function groupCell(r: ScenarioResult, name: string, extras?: readonly [string, string]): string {
  const single = r.peers.flashnode?.cases[name]?.median
  const group = r.peers['flashnode-group']?.cases[name]?.median
  if (single === undefined || group === undefined) return '—'
  const signed = (x: number): string => `${x >= 0 ? '+' : '−'}${ms(Math.abs(x))}`
  if (extras === undefined) return `${signed(group.p50Ms - single.p50Ms)} / ${signed(group.p99Ms - single.p99Ms)} ms`
  const [a, b] = extras.map((k) => [single.extras?.[k], group.extras?.[k]] as const)
  if (a![0] === undefined || a![1] === undefined || b![0] === undefined || b![1] === undefined) return '—'
  return `${signed(a![1] - a![0])} / ${signed(b![1] - b![0])} ms`
}

/** The extra columns whose group − single difference the table also shows (the node's own announce time). */
const ANNOUNCE: readonly [string, string] = ['announce p50', 'announce p99']

function table(rows: string[][], rightAligned: (col: number) => boolean): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)))
  return rows
    .map((r) => r.map((c, i) => (rightAligned(i) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ').trimEnd())
    .join('\n')
}

export function formatScenario(r: ScenarioResult, settings: RunSettings): string {
  const peers = r.peerOrder
  const header = ['case', 'conc.', 'unit']
  for (const p of peers) header.push(`${PEER_LABEL[p]} rate`, 'p50 ms', 'p99 ms', ...r.extraColumns.map(columnTitle), 'CPU')
  const ratio = peers.includes('anvil') && peers.includes('flashnode')
  if (ratio) header.push('Flashnode vs Anvil')
  const metricsRatio = peers.includes('flashnode') && peers.includes('flashnode-no-metrics')
  if (metricsRatio) header.push('metrics on / off')
  const groupCost = peers.includes('flashnode') && peers.includes('flashnode-group')
  if (groupCost) header.push('group − single p50 / p99')
  const groupAnnounce = groupCost && ANNOUNCE.every((k) => r.extraColumns.includes(k))
  if (groupAnnounce) header.push('announce: group − single')
  const rows: string[][] = [header]
  for (const name of r.caseNames) {
    const info = r.cases[name]
    const row = [name, info?.concurrency === undefined ? '' : String(info.concurrency), info?.unit ?? '']
    for (const p of peers) {
      const applies = info?.peers === undefined || info.peers.includes(p)
      row.push(...cells(r.peers[p]?.cases[name], r.peers[p]?.available ?? false, applies, r.extraColumns))
    }
    if (ratio) row.push(ratioCell(r, name))
    if (metricsRatio) row.push(metricsCell(r, name))
    if (groupCost) row.push(groupCell(r, name))
    if (groupAnnounce) row.push(groupCell(r, name, ANNOUNCE))
    rows.push(row)
  }
  const rss = ['peak RSS (median of starts)', '', '']
  for (const p of peers) {
    const xs = r.peers[p]?.peakRssBytes ?? []
    rss.push(xs.length > 0 ? `${Math.round(median(xs) / 2 ** 20)} MB` : '—', '', '', ...r.extraColumns.map(() => ''), '')
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
      const extras = Object.entries(cr.median?.extras ?? {}).filter(([k]) => !r.extraColumns.includes(k))
      if (extras.length > 0) notes.push(`${PEER_LABEL[p]}, ${name}: ${extras.map(([k, v]) => `${k} ${extraText(k, v)}`).join(', ')}`)
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
    const noisy: string[] = []
    for (const p of peers) {
      for (const [name, cr] of Object.entries(r.peers[p]?.cases ?? {})) {
        const worst = Math.max(...cr.samples.map((x) => x.otherCpuPct))
        if (worst > 25) noisy.push(`${PEER_LABEL[p]} "${name}" (${Math.round(worst)}%)`)
      }
    }
    if (noisy.length > 0) notes.push(`noisy figures (other processes > 25% of a core in some repetition): ${noisy.join('; ')}`)
  }
  const loads = (name: string): boolean => r.cases[name]?.measured !== true
  const cpu = Object.values(r.peers).flatMap((pr) =>
    Object.entries(pr.cases).flatMap(([name, c]) => (loads(name) ? c.samples.map((s) => s.generatorCpuPct) : [])),
  )
  if (cpu.length > 0) {
    notes.push(
      `load generator CPU: median ${Math.round(median(cpu))}%, max ${Math.round(Math.max(...cpu))}% of one core ` +
        `(${settings.generatorProcesses} process${settings.generatorProcesses > 1 ? 'es' : ''}, ${settings.client} client)` +
        (Math.max(...cpu) > 85 * settings.generatorProcesses ? '; near saturation, the client may cap these figures: try --processes 2' : ''),
    )
  }
  const anyLoad = r.caseNames.some((n) => r.cases[n]?.measured !== true)
  const title =
    `scenario ${r.name}: ${r.title}; ${r.repetitions} repetition${r.repetitions > 1 ? 's' : ''} per peer, medians` +
    (anyLoad ? `; loads ${settings.durationMs / 1000} s (+${settings.warmupMs / 1000} s warm-up unless a note says otherwise)` : '')
  const legend = [
    "rate in the row's unit; CPU = the peer's CPU during the measurement, in % of one core (server process and its children)",
  ]
  if (ratio) {
    const lower = r.caseNames.some((n) => r.cases[n]?.compare === 'lower') ? ", or Anvil's figure / Flashnode's where less is better (marked lower)" : ''
    legend.push(`Flashnode vs Anvil: rate ratio, or Anvil p50 / Flashnode p50 where marked (p50)${lower}; > 1 = Flashnode better`)
  }
  const rowsNa = r.caseNames.filter((n) => r.cases[n]?.peers !== undefined)
  if (rowsNa.length > 0) legend.push('n/a: the peer has no such figure (see the notes)')
  return [title, '', table(rows, (i) => i >= 1 && i !== 2), '', ...[...legend, ...r.notes, ...notes].map((n) => `  - ${n}`)].join('\n')
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
