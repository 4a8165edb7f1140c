/**
 * The soak's inside figures: `flashnode_memory` (src/node/thread-memory.ts) asked every few seconds beside
 * the /proc samples, and what they say at the end: per thread, the V8 heap (used, total), external and
 * array-buffer memory; per bounded structure of each thread, its entries (and bytes where weighed) against
 * its bound. For each series, the least-squares slope over the last hour of the window (the last half for
 * a window under two hours) with ± two standard errors, and its peak against its bound.
 *
 * A peer without the method (Anvil) answers an error: the sampler then stops asking. One request every
 * SAMPLE_MS is the whole overhead (the node reads sizes its structures keep; no walk, no collection).
 */

import { writeFileSync, mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { MemoryReport, ThreadMemory } from '../src/node/thread-memory.ts'
import type { GaugeFigures } from '../src/primitives/memory-gauges.ts'

const MB = 1024 * 1024
const HOUR_MS = 3_600_000

type Gauge = GaugeFigures
type Thread = ThreadMemory
type Report = Pick<MemoryReport, 'threads'>

/** One series: its points (t ms into the window, value) and its bound (null: none stated). */
interface Series {
  readonly unit: 'MB' | 'entries'
  readonly bound: number | null
  readonly points: [number, number][]
}

export class InsideSampler {
  private readonly samples: [number, Report][] = []
  private stopped = false

  constructor(private readonly url: string) {}

  /** Asks once; `t` is the sample's time in the window. */
  async sample(t: number): Promise<void> {
    if (this.stopped) return
    try {
      const res = await fetch(this.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'flashnode_memory', params: [] }),
        signal: AbortSignal.timeout(10_000),
      })
      const answer = (await res.json()) as { result?: Report }
      if (answer.result === undefined) this.stopped = true
      else this.samples.push([t, answer.result])
    } catch {
      // a missed sample (the node busy past the timeout) is only a gap
    }
  }

  get count(): number {
    return this.samples.length
  }

  /** Every series by name (`thread heap used`, `thread cache entries`…). */
  series(): Map<string, Series> {
    const out = new Map<string, Series>()
    const add = (name: string, unit: Series['unit'], bound: number | null, t: number, v: number): void => {
      let s = out.get(name)
      if (s === undefined) out.set(name, (s = { unit, bound, points: [] }))
      s.points.push([t, v])
    }
    for (const [t, r] of this.samples) {
      for (const th of r.threads) {
        const name = th.thread
        add(`${name} heap used`, 'MB', null, t, th.heapUsed / MB)
        add(`${name} heap total`, 'MB', null, t, th.heapTotal / MB)
        add(`${name} external`, 'MB', null, t, th.external / MB)
        add(`${name} array buffers`, 'MB', null, t, th.arrayBuffers / MB)
        for (const c of th.caches) {
          add(`${name} ${c.name}`, 'entries', c.maxEntries, t, c.entries)
          if (c.bytes !== null) add(`${name} ${c.name} (bytes)`, 'MB', c.maxBytes === null ? null : c.maxBytes / MB, t, c.bytes / MB)
        }
      }
    }
    return out
  }

  /**
   * The summary lines (one per series: start, end, peak, bound, slope per minute over the tail) and the
   * numbers the scenario reports; the raw samples go to `bench/results/soak-memory-<time>.json`.
   */
  summary(windowMs: number, slope: (points: readonly (readonly [number, number])[]) => { slope: number; twoSe: number }): { lines: string[]; extras: Record<string, number>; file?: string } {
    const extras: Record<string, number> = {}
    if (this.samples.length < 3) return { lines: ['inside figures: fewer than 3 samples of flashnode_memory'], extras }
    const from = windowMs >= 2 * HOUR_MS ? windowMs - HOUR_MS : windowMs / 2
    const tail = windowMs >= 2 * HOUR_MS ? 'last hour' : 'last half'
    const lines = [`inside figures (flashnode_memory, ${this.samples.length} samples), slope per minute over the ${tail}:`]
    lines.push('  series | start | end | peak | bound | slope/min ± 2SE')
    const fmt = (v: number, unit: Series['unit']): string => (unit === 'MB' ? v.toFixed(1) : String(Math.round(v)))
    const over: string[] = []
    for (const [name, s] of this.series()) {
      const values = s.points.map(([, v]) => v)
      const peak = Math.max(...values)
      // `slope` answers in MB per minute of byte values: scaled by MB, any unit comes back per minute
      const { slope: perMin, twoSe } = slope(s.points.filter(([t]) => t >= from).map(([t, v]) => [t, v * MB]))
      const bound = s.bound === null ? '-' : fmt(s.bound, s.unit)
      if (s.bound !== null && peak > s.bound) over.push(name)
      lines.push(`  ${name} | ${fmt(values[0]!, s.unit)} | ${fmt(values.at(-1)!, s.unit)} | ${fmt(peak, s.unit)} | ${bound} | ${perMin.toFixed(s.unit === 'MB' ? 3 : 1)} ± ${twoSe.toFixed(s.unit === 'MB' ? 3 : 1)}`)
      if (/^(main|execution#\d+) heap used$/.test(name)) {
        extras[`${name} slope MB/min (${tail})`] = perMin
        extras[`${name} peak MB`] = peak
      }
    }
    lines.push(over.length === 0 ? '  every bounded structure stayed within its bound' : `  OVER THEIR BOUND: ${over.join(', ')}`)
    extras['structures over their bound (count)'] = over.length
    const dir = join(dirname(fileURLToPath(import.meta.url)), 'results')
    const file = join(dir, `soak-memory-${new Date().toISOString().replace(/[:.]/g, '-')}.json`)
    try {
      mkdirSync(dir, { recursive: true })
      writeFileSync(file, JSON.stringify(this.samples))
      return { lines, extras, file }
    } catch {
      return { lines, extras }
    }
  }
}
