/**
 * Runs one scenario against the peers, the same way for every scenario:
 *   1. writes the scenario's genesis to a temporary directory; initializes Flashnode's datadir from it once;
 *   2. for each repetition, starts each peer in turn (order alternates: A B, B A, A B, …, so slow drift of
 *      the machine is shared), with only ONE peer running at a time, so the peer measured has both cores
 *      apart from the load generator;
 *   3. per peer start and case: check the answer, prepare, then drive load from separate processes;
 *   4. records peak RSS of every start, stops the peer, and finally takes medians per case.
 * Cases marked `chain: 'dev'` run on another start of the peer, on its own dev chain (Anvil's defaults; a
 * new empty Flashnode datadir), after the scenario's genesis start of the same repetition or before it, in
 * the order the cases first name their chain; the peak RSS footer counts the genesis starts only. Cases with
 * `anvilArgs` of their own run on another start of Anvil with those flags added (Flashnode's start is shared).
 * Cases marked `chain: 'op'` (Flashnode only) run on another start of Flashnode on the scenario's genesis made
 * an OP Stack chain (genesis.ts opStackGenesis; a datadir initialized from it per start), the same way.
 * A peer that fails to start is reported unavailable with the reason (no crash); Anvil failing to start is
 * still reported the same way, since the run is then meaningless but the reason must be visible.
 */

import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { opStackGenesis, writeBenchGenesis } from './genesis.ts'
import { runLoad } from './load.ts'
import { machineBusyPct, machineBusySeconds } from './proc.ts'
import { FLASHNODE_PEERS, freePort, initFlashnode, startAnvil, startFlashnode, type PeerName, type RunningNode } from './nodes.ts'
import {
  DEFAULT_CONCURRENCY,
  median,
  sampleOf,
  sampleOfMeasured,
  type CaseInfo,
  type BenchCase,
  type CaseResult,
  type PeerResult,
  type RunSettings,
  type Scenario,
  type Sample,
  type ScenarioResult,
} from './scenario.ts'

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e))

/**
 * A failure with where it happened: its message, then the stack's frames in the bench's own files (a few),
 * then its causes' messages; so a timeout says which call of which step met it.
 */
function failureText(e: unknown): string {
  if (!(e instanceof Error)) return String(e)
  const frames = (e.stack ?? '')
    .split('\n')
    .filter((l) => /^\s+at /.test(l) && !/^\s+at named /.test(l) && /\/bench\/|\/test\/support\//.test(l))
    .slice(0, 6)
    .map((l) => l.trim().replace(/(?:file:\/\/)?\/\S*?\/((?:bench|test\/support)\/)/, '$1'))
  const causes: string[] = []
  for (let c = e.cause, n = 0; c !== undefined && n < 3; c = c instanceof Error ? c.cause : undefined, n++) causes.push(c instanceof Error ? `${c.name}: ${c.message}` : String(c))
  return [e.message, ...frames.map((f) => `  ${f}`), ...causes.map((c) => `  cause: ${c}`)].join('\n    ')
}

type Chain = 'genesis' | 'dev' | 'op'
const chainOf = (c: BenchCase): Chain => c.chain ?? 'genesis'

export type Progress = (line: string) => void

export async function runScenario(s: Scenario, settings: RunSettings, progress: Progress): Promise<ScenarioResult> {
  const dir = mkdtempSync(join(tmpdir(), `flashnode-bench-${s.name}-`))
  const prepared = await s.setup?.()
  try {
    const genesisPath = join(dir, 'genesis.json')
    const chain = writeBenchGenesis(genesisPath, s.genesis)
    const ctx = { chain, quick: settings.quick }
    const cases = s.cases(ctx)
    const opGenesisPath = join(dir, 'genesis-op.json')
    if (cases.some((c) => chainOf(c) === 'op')) writeFileSync(opGenesisPath, `${JSON.stringify(opStackGenesis(chain.genesis), null, 2)}\n`)
    const concurrencyOf = (c: BenchCase): number => settings.concurrency ?? c.concurrency ?? DEFAULT_CONCURRENCY
    const infoOf = (c: BenchCase): CaseInfo => ({
      ...(c.peers === undefined ? {} : { peers: c.peers }),
      unit: c.unit ?? (c.measure === undefined ? 'req/s' : ''),
      compare: c.compare ?? 'rate',
      measured: c.measure !== undefined,
      ...(c.measure === undefined ? { concurrency: concurrencyOf(c) } : c.concurrency === undefined ? {} : { concurrency: c.concurrency }),
    })
    const peers = !settings.peersGiven && s.peers !== undefined ? [...s.peers] : settings.peers
    const result: ScenarioResult = {
      name: s.name,
      title: s.title,
      repetitions: s.repetitions ?? settings.repetitions,
      caseNames: cases.map((c) => c.name),
      cases: Object.fromEntries(cases.map((c) => [c.name, infoOf(c)])),
      notes: s.notes?.(ctx) ?? [],
      extraColumns: [...(s.extraColumns ?? [])],
      peerOrder: peers,
      peers: {},
    }
    for (const p of peers) {
      result.peers[p] = {
        available: true,
        peakRssBytes: [],
        backgroundCpuPct: [],
        cases: Object.fromEntries(cases.map((c): [string, CaseResult] => [c.name, { samples: [], errors: 0 }])),
      }
    }

    const readyTimeoutMs = s.readyTimeoutMs
    const pristine = join(dir, 'flashnode-pristine')
    const flashnodes = FLASHNODE_PEERS.flatMap((p) => (result.peers[p] !== undefined ? [result.peers[p]!] : []))
    if (flashnodes.length > 0) {
      progress(`${s.name}: flashnode init`)
      try {
        initFlashnode(genesisPath, pristine, readyTimeoutMs)
      } catch (e) {
        for (const fr of flashnodes) markUnavailable(fr, errorText(e))
      }
    }

    const timeout = readyTimeoutMs === undefined ? {} : { readyTimeoutMs }
    const start = async (peer: PeerName, rep: number, chain: Chain, caseAnvilArgs: readonly string[], ownStart: string | undefined): Promise<RunningNode> => {
      const port = await freePort()
      const onGenesis = chain === 'genesis' ? { genesisPath } : chain === 'op' ? { genesisPath: opGenesisPath } : {}
      if (peer === 'anvil' && chain === 'op') throw new Error('an OP Stack chain case is for Flashnode only (peers: [\'flashnode\'])')
      if (peer === 'anvil') return startAnvil({ ...onGenesis, port, extraArgs: [...(s.anvilArgs ?? []), ...caseAnvilArgs], ...timeout })
      let datadir = pristine
      if (chain === 'dev') {
        datadir = join(dir, `flashnode-dev-${peer}-${rep}`) // new and empty: `start` creates the dev chain
      } else if (chain === 'op') {
        datadir = join(dir, `flashnode-op-${peer}-${rep}`) // new and empty: startFlashnode initializes it from the OP genesis
      } else if (s.mutatesState === true) {
        datadir = join(dir, `flashnode-${rep}${ownStart === undefined ? '' : `-${ownStart}`}`)
        cpSync(pristine, datadir, { recursive: true })
      }
      const noMetrics = peer === 'flashnode-no-metrics' ? ['--no-metrics'] : []
      const extraArgs = [...(s.flashnodeArgs ?? []), ...(prepared?.flashnodeArgs ?? []), ...noMetrics]
      return startFlashnode({ ...onGenesis, port, datadir, peer, extraArgs, ...timeout })
    }
    /** Which start of `peer` a case runs on: its chain, and for Anvil the case's own flags (a start of their own). */
    const startKey = (c: BenchCase, peer: PeerName): string => `${chainOf(c)}|${c.ownStart ?? ''}|${peer === 'anvil' ? (c.anvilArgs ?? []).join(' ') : ''}`

    const repetitions = result.repetitions
    const caseSettings: RunSettings = s.durationMs === undefined ? settings : { ...settings, durationMs: s.durationMs(settings) }
    for (let rep = 0; rep < repetitions; rep++) {
      const order = rep % 2 === 0 ? peers : [...peers].reverse()
      for (const peer of order) {
        const pr = result.peers[peer]!
        const applies = cases.filter((c) => c.peers === undefined || c.peers.includes(peer))
        for (const key of new Set(applies.map((c) => startKey(c, peer)))) {
          if (!pr.available) break
          const mine = applies.filter((c) => startKey(c, peer) === key)
          const chain = chainOf(mine[0]!)
          const caseAnvilArgs = peer === 'anvil' ? (mine[0]!.anvilArgs ?? []) : []
          const ownStart = mine[0]!.ownStart
          const on = `${chain === 'dev' ? ', its dev chain' : chain === 'op' ? ', the OP Stack chain' : ''}${ownStart === undefined ? '' : `, start "${ownStart}"`}${caseAnvilArgs.length > 0 ? `, with ${caseAnvilArgs.join(' ')}` : ''}`
          progress(`${s.name}: repetition ${rep + 1}/${repetitions}, ${peer}${on}`)
          pr.backgroundCpuPct.push(await backgroundBusy(settings.waitQuietMs, progress))
          let node: RunningNode
          try {
            node = await start(peer, rep, chain, caseAnvilArgs, mine[0]!.ownStart)
          } catch (e) {
            markUnavailable(pr, errorText(e))
            break
          }
          try {
            for (const c of mine) {
              progress(`${s.name}: ${peer}: ${c.name}`)
              await runCase(c, node, rep, pr.cases[c.name]!, concurrencyOf(c), caseSettings)
            }
          } finally {
            const rss = node.peakRssBytes()
            if (rss !== undefined && chain === 'genesis') pr.peakRssBytes.push(rss)
            await node.stop()
          }
        }
      }
    }
    for (const pr of Object.values(result.peers)) {
      for (const cr of Object.values(pr.cases)) {
        if (cr.invalid !== undefined || cr.samples.length === 0) continue
        const of = (f: (x: Sample) => number): number => median(cr.samples.map(f).filter((v) => !Number.isNaN(v)))
        cr.median = { rps: of((x) => x.rps), p50Ms: of((x) => x.p50Ms), p99Ms: of((x) => x.p99Ms), serverCpuPct: of((x) => x.serverCpuPct) }
        const keys = [...new Set(cr.samples.flatMap((x) => Object.keys(x.extras ?? {})))]
        if (keys.length > 0) cr.median.extras = Object.fromEntries(keys.map((k) => [k, of((x) => x.extras?.[k] ?? Number.NaN)]))
      }
    }
    result.notes.push(...(s.derived?.(result) ?? []))
    return result
  } finally {
    await prepared?.teardown()
    rmSync(dir, { recursive: true, force: true })
  }
}

/** How busy the machine is with nothing of ours running; waits up to `waitMs` for it to fall below 50%. */
async function backgroundBusy(waitMs: number, progress: Progress): Promise<number> {
  const deadline = Date.now() + waitMs
  let busy = await machineBusyPct(500, cpus().length)
  if (busy > 50 && waitMs > 0) progress(`machine busy (${Math.round(busy)}% of a core): waiting up to ${waitMs / 1000} s`)
  while (busy > 50 && Date.now() < deadline) busy = await machineBusyPct(1000, cpus().length)
  return busy
}

function markUnavailable(pr: PeerResult, reason: string): void {
  pr.available = false
  pr.reason = reason
}

async function runCase(
  c: BenchCase,
  node: RunningNode,
  repetition: number,
  cr: CaseResult,
  concurrency: number,
  settings: RunSettings,
): Promise<void> {
  if (cr.invalid !== undefined) return
  const run = { node, repetition, durationMs: settings.durationMs, warmupMs: c.warmupMs ?? settings.warmupMs, quick: settings.quick }
  try {
    await c.check?.(run)
  } catch (e) {
    cr.invalid = `wrong answer: ${errorText(e)}`
    return
  }
  try {
    await c.prepare?.(run)
    if (c.measure !== undefined) {
      const cpu0 = node.cpuSeconds()
      const busy0 = machineBusySeconds()
      const self0 = process.cpuUsage() // a measure case drives the peer from this process (or a probe child)
      const t0 = performance.now()
      const m = await c.measure(run)
      const seconds = (performance.now() - t0) / 1000
      const server = node.cpuSeconds() - cpu0
      const self = ((u) => (u.user + u.system) / 1e6)(process.cpuUsage(self0))
      m.generatorCpuPct ??= (self / seconds) * 100
      const others = Math.max(0, machineBusySeconds() - busy0 - server - self - (m.generatorCpuSeconds ?? 0))
      cr.samples.push(sampleOfMeasured(m, (server / seconds) * 100, (others / seconds) * 100))
      cr.errors += m.errors
      return
    }
    if (c.bodies === undefined) throw new Error(`case ${c.name} has neither bodies nor measure`)
    const bodies = await c.bodies(run)
    let cpu0 = 0
    let busy0 = 0
    let t0 = 0
    const load = await runLoad(
      {
        url: node.url,
        bodies,
        concurrency,
        durationMs: settings.durationMs,
        warmupMs: c.warmupMs ?? settings.warmupMs,
        once: c.once ?? false,
        client: settings.client,
        processes: settings.generatorProcesses,
      },
      () => {
        cpu0 = node.cpuSeconds()
        busy0 = machineBusySeconds()
        t0 = performance.now()
      },
    )
    const seconds = (performance.now() - t0) / 1000
    const server = node.cpuSeconds() - cpu0
    const others = Math.max(0, machineBusySeconds() - busy0 - server - load.generatorCpuSeconds)
    cr.samples.push(sampleOf(load, (server / seconds) * 100, (others / seconds) * 100))
    cr.errors += load.errors
  } catch (e) {
    const said = node.recentOutput().split('\n').filter((l) => !/"level":(30|"info")/.test(l)).slice(-8)
    cr.invalid = `failed: ${failureText(e)}${said.length > 0 ? `\n    the peer's last warnings and errors:\n    ${said.join('\n    ')}` : ''}`
  }
}
