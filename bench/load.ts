/**
 * The benchmark side of the load generator: spawns `processes` separate loadgen processes (never in this
 * process, so the orchestrator's event loop and GC never slow the client), starts them on the same signal,
 * and merges their results (requests and errors add up, latency histograms merge, req/s is the sum).
 *
 * Cycled bodies are given to every process, each rotated to a different start; bodies sent once are split
 * into disjoint slices. Concurrency is divided between processes. Each process is bounded in time by itself;
 * this side also kills it if it outlives warm-up + duration + 30 s.
 */

import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { LatencyHistogram } from './histogram.ts'
import type { LoadConfig, LoadResult } from './loadgen.ts'

const LOADGEN = join(dirname(fileURLToPath(import.meta.url)), 'loadgen.ts')

/** One generator's config, run by `processes` generator processes (default 1). */
export interface LoadSpec extends Omit<LoadConfig, 'waitForGo' | 'drainMs'> {
  processes?: number
}

export interface MergedLoad {
  requests: number
  errors: number
  errorSamples: string[]
  rps: number
  p50Ms: number
  p99Ms: number
  meanMs: number
  maxMs: number
  /** CPU used by the generators, in % of one core (summed over processes). */
  generatorCpuPct: number
  /** CPU seconds of all generators since they were released. */
  generatorCpuSeconds: number
  processes: number
}

function rotate<T>(xs: T[], by: number): T[] {
  const k = xs.length === 0 ? 0 : by % xs.length
  return [...xs.slice(k), ...xs.slice(0, k)]
}

function configsFor(spec: LoadSpec): LoadConfig[] {
  const n = Math.max(1, Math.min(spec.processes ?? 1, spec.concurrency))
  return Array.from({ length: n }, (_, i) => {
    const concurrency = Math.floor(spec.concurrency / n) + (i < spec.concurrency % n ? 1 : 0)
    const bodies =
      spec.once === true
        ? spec.bodies.filter((_, j) => j % n === i)
        : rotate(spec.bodies, Math.floor((i * spec.bodies.length) / n))
    return {
      url: spec.url,
      bodies,
      concurrency,
      durationMs: spec.durationMs,
      warmupMs: spec.warmupMs,
      once: spec.once ?? false,
      client: spec.client ?? 'raw',
      timeoutMs: spec.timeoutMs ?? 10_000,
      waitForGo: true,
    }
  })
}

interface Generator {
  child: ChildProcess
  ready: Promise<void>
  result: Promise<LoadResult>
}

function spawnGenerator(configFile: string): Generator {
  const child = spawn(process.execPath, ['--import', 'tsx', LOADGEN, `@${configFile}`], {
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  let onReady: () => void = () => {}
  const ready = new Promise<void>((resolve) => (onReady = resolve))
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()))
  child.stderr!.on('data', (c: Buffer) => {
    stderr += c.toString()
    if (stderr.includes('{"ready":true}')) onReady()
  })
  const result = new Promise<LoadResult>((resolve, reject) => {
    child.on('error', reject)
    child.on('exit', (code) => {
      onReady()
      const line = stdout.trim().split('\n').pop() ?? ''
      if (code === 0 && line.startsWith('{')) resolve(JSON.parse(line) as LoadResult)
      else reject(new Error(`loadgen exited ${code}: ${stderr.replace('{"ready":true}', '').trim().slice(-500)}`))
    })
  })
  return { child, ready, result }
}

/** `onGo` is called as the generators are released (their warm-up starts then). */
export async function runLoad(spec: LoadSpec, onGo?: () => void): Promise<MergedLoad> {
  const configs = configsFor(spec)
  const dir = mkdtempSync(join(tmpdir(), 'flashnode-loadgen-'))
  const generators: Generator[] = []
  const limit = spec.warmupMs + spec.durationMs + 30_000
  const killer = setTimeout(() => generators.forEach((g) => g.child.kill('SIGKILL')), limit + 10_000)
  try {
    configs.forEach((cfg, i) => {
      const file = join(dir, `load-${i}.json`)
      writeFileSync(file, JSON.stringify(cfg))
      generators.push(spawnGenerator(file))
    })
    await Promise.all(generators.map((g) => g.ready))
    onGo?.()
    for (const g of generators) g.child.stdin!.end('go\n')
    const results = await Promise.all(generators.map((g) => g.result))
    return merge(results)
  } finally {
    clearTimeout(killer)
    for (const g of generators) if (g.child.exitCode === null) g.child.kill('SIGKILL')
    rmSync(dir, { recursive: true, force: true })
  }
}

export function merge(results: LoadResult[]): MergedLoad {
  const hist = new LatencyHistogram()
  for (const r of results) hist.merge(r.hist, r.sumUs, r.maxUs)
  return {
    requests: results.reduce((s, r) => s + r.requests, 0),
    errors: results.reduce((s, r) => s + r.errors, 0),
    errorSamples: results.flatMap((r) => r.errorSamples).slice(0, 3),
    rps: results.reduce((s, r) => s + r.rps, 0),
    p50Ms: hist.quantileMs(0.5),
    p99Ms: hist.quantileMs(0.99),
    meanMs: hist.meanMs(),
    maxMs: hist.maxUs / 1000,
    generatorCpuPct: results.reduce((s, r) => s + r.cpuPct, 0),
    generatorCpuSeconds: results.reduce((s, r) => s + r.cpuSinceGoMs / 1000, 0),
    processes: results.length,
  }
}
