/**
 * Linux /proc readings for the benchmarks: a process tree, resident and peak memory (VmRSS, VmHWM), CPU time of processes,
 * and how busy the whole machine is (to tell when something else running on the box skews a figure).
 * Every reading tolerates a process that has gone (it then counts as nothing).
 */

import { readdirSync, readFileSync } from 'node:fs'

const TICKS_PER_SECOND = 100 // USER_HZ, 100 on every Linux we run on

function childrenOf(pid: number): number[] {
  const out: number[] = []
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const text = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim()
      if (text !== '') out.push(...text.split(/\s+/).map(Number))
    }
  } catch {
    /* gone, or no /proc */
  }
  return out
}

/** `pid` and all its descendants. */
export function descendants(pid: number): number[] {
  const all: number[] = []
  const queue = [pid]
  while (queue.length > 0) {
    const p = queue.shift()!
    all.push(p)
    queue.push(...childrenOf(p))
  }
  return all
}

function comm(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim()
  } catch {
    return ''
  }
}

/** The process under `rootPid` (itself included) whose command name is `name`, if any. */
export function findProcess(rootPid: number, name: string): number | undefined {
  return descendants(rootPid).find((p) => comm(p) === name)
}

/** A memory field of /proc/<pid>/status (VmHWM, VmRSS, …) in bytes. */
function statusBytes(pid: number, field: string): number | undefined {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return m === null ? undefined : Number(m[1]) * 1024
  } catch {
    return undefined
  }
}

/** VmHWM (peak RSS) of one process in bytes. */
export function vmHwmBytes(pid: number): number | undefined {
  return statusBytes(pid, 'VmHWM')
}

/** VmRSS (resident memory now) of one process in bytes. */
export function vmRssBytes(pid: number): number | undefined {
  return statusBytes(pid, 'VmRSS')
}

/** User + system CPU seconds used so far by `pid` and its descendants (all threads). */
export function cpuSeconds(pid: number): number {
  let ticks = 0
  for (const p of descendants(pid)) {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ') // fields from #3 (state) on
      ticks += Number(fields[11]) + Number(fields[12]) // #14 utime, #15 stime
    } catch {
      /* gone */
    }
  }
  return ticks / TICKS_PER_SECOND
}

/** Busy and total jiffies of all CPUs since boot. */
function systemTicks(): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!
  const v = line.trim().split(/\s+/).slice(1).map(Number)
  const total = v.reduce((a, b) => a + b, 0)
  const idle = (v[3] ?? 0) + (v[4] ?? 0) // idle + iowait
  return { busy: total - idle, total }
}

/** CPU seconds all processes have used since boot (all cores added up). */
export function machineBusySeconds(): number {
  return systemTicks().busy / TICKS_PER_SECOND
}

/** How busy the machine is over `ms`, in % of ONE core (so 200% = both cores of a 2-core box). */
export async function machineBusyPct(ms: number, cores: number): Promise<number> {
  const a = systemTicks()
  await new Promise((r) => setTimeout(r, ms))
  const b = systemTicks()
  return b.total === a.total ? 0 : ((b.busy - a.busy) / (b.total - a.total)) * 100 * cores
}
