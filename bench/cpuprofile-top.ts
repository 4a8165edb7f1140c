/**
 * Where a profiled run's CPU went: the functions with the most self time in one or more V8 .cpuprofile files
 * (node --cpu-prof, e.g. from `BENCH_FLASHNODE_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR" npm run bench …`:
 * one file per thread of the node), and the same summed per source file.
 *   npx tsx bench/cpuprofile-top.ts DIR/*.cpuprofile [--top 30]
 * Self time of a node of the profile = the sampling intervals (timeDeltas) of the samples that landed in it;
 * functions are keyed by name, file and line, so one function reached through many call paths counts once.
 * "(idle)", "(program)" and "(garbage collector)" are V8's own entries: waiting for work, V8 itself, GC.
 */

import { readFileSync } from 'node:fs'
import { basename } from 'node:path'
import { parseArgs } from 'node:util'

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
}

interface Profile {
  nodes: ProfileNode[]
  samples: number[]
  timeDeltas: number[]
}

/** Self time in µs per function ("name file:line") and per file, over every profile given. */
export function selfTimes(profiles: readonly Profile[]): { functions: Map<string, number>; files: Map<string, number>; totalUs: number } {
  const functions = new Map<string, number>()
  const files = new Map<string, number>()
  let totalUs = 0
  const add = (m: Map<string, number>, k: string, us: number): void => {
    m.set(k, (m.get(k) ?? 0) + us)
  }
  for (const p of profiles) {
    const byId = new Map(p.nodes.map((n) => [n.id, n]))
    p.samples.forEach((id, i) => {
      const us = Math.max(0, p.timeDeltas[i] ?? 0)
      const frame = byId.get(id)?.callFrame
      if (frame === undefined) return
      const file = frame.url === '' ? '(native)' : frame.url.replace(/^file:\/\//, '')
      add(functions, `${frame.functionName || '(anonymous)'} ${frame.url === '' ? '' : `${basename(file)}:${frame.lineNumber + 1}`}`.trim(), us)
      add(files, file, us)
      totalUs += us
    })
  }
  return { functions, files, totalUs }
}

function main(): void {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: 'string', default: '30' } } })
  if (positionals.length === 0) throw new Error('usage: npx tsx bench/cpuprofile-top.ts FILE.cpuprofile… [--top N]')
  const top = Number(values.top)
  const profiles = positionals.map((f) => JSON.parse(readFileSync(f, 'utf8')) as Profile)
  const { functions, files, totalUs } = selfTimes(profiles)
  const idleUs = functions.get('(idle)') ?? 0
  const busyUs = totalUs - idleUs
  functions.delete('(idle)')
  const print = (title: string, m: Map<string, number>): void => {
    console.log(`\n${title} (% of the busy time)`)
    for (const [k, us] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top)) {
      console.log(`${(us / 1000).toFixed(0).padStart(9)} ms ${((us / busyUs) * 100).toFixed(1).padStart(5)}%  ${k}`)
    }
  }
  console.log(`${profiles.length} profile(s), ${(totalUs / 1e6).toFixed(2)} s sampled, ${(busyUs / 1e6).toFixed(2)} s busy (not idle)`)
  positionals.forEach((f, i) => {
    const one = selfTimes([profiles[i]!])
    const busy = one.totalUs - (one.functions.get('(idle)') ?? 0)
    console.log(`  ${basename(f)}: ${(busy / 1e6).toFixed(2)} s busy of ${(one.totalUs / 1e6).toFixed(2)} s`)
  })
  files.set('(native)', (files.get('(native)') ?? 0) - idleUs)
  print('self time by function', functions)
  print('self time by file', files)
}

main()
