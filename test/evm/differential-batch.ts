/**
 * A batch of differential checks (what the test and the CLI share): scenarios `seed:0 .. seed:count-1`, each
 * run through both EVMs, differences grouped by field, and statistics that show the scenarios did real work
 * (gas well above a transfer, logs, storage writes, state changes away from the sender and the callee, creates,
 * refunds), so that a run where both sides agree is not agreeing on nothing.
 */

import { Status } from '../../src/evm/types.ts'
import type { ForkName } from '../../src/evm/fork.ts'
import { check, loadEngines, type Checked } from './differential.ts'
import { generateScenario } from './scenario-generator.ts'

export interface BatchStats {
  scenarios: number
  invalidBoth: number
  ran: number
  success: number
  revert: number
  halt: number
  gasOver60k: number
  withLogs: number
  withRefund: number
  storageChanged: number
  /** State changed at an account other than the sender, the callee and the coinbase (a sub-call or create did it). */
  otherAccountChanged: number
  accountsCreated: number
  oracleCrashes: number
}

export interface BatchResult {
  readonly stats: BatchStats
  /** Every differing scenario, in order. */
  readonly differences: Checked[]
  readonly millis: number
}

export interface BatchOptions {
  readonly seed: number
  readonly count: number
  readonly fork?: ForkName
  /** Only these indexes (the CLI's --index). */
  readonly indexes?: readonly number[]
  /** Stop after this many differences. */
  readonly maxDifferences?: number
  readonly onProgress?: (done: number, result: Checked) => void
}

function emptyStats(): BatchStats {
  return {
    scenarios: 0, invalidBoth: 0, ran: 0, success: 0, revert: 0, halt: 0, gasOver60k: 0, withLogs: 0, withRefund: 0,
    storageChanged: 0, otherAccountChanged: 0, accountsCreated: 0, oracleCrashes: 0,
  }
}

function record(stats: BatchStats, c: Checked): void {
  stats.scenarios++
  const lib = c.library
  if (lib.kind === 'crash') {
    stats.oracleCrashes++
    return
  }
  if (lib.kind === 'invalid') {
    if (c.ours.kind === 'invalid') stats.invalidBoth++
    return
  }
  stats.ran++
  const r = lib.result
  if (r.status === Status.Success) stats.success++
  else if (r.status === Status.Revert) stats.revert++
  else stats.halt++
  if (r.gasUsedBeforeRefund > 60_000n) stats.gasOver60k++
  if (r.logs.length > 0) stats.withLogs++
  if (r.refund > 0n) stats.withRefund++
  const s = c.scenario
  let storage = false
  let other = false
  let created = false
  for (const [address, after] of lib.post) {
    const before = s.pre.get(address)
    if (before === undefined) {
      if (after.code.length > 0 || after.nonce > 0n) created = true
      continue
    }
    let changed = after.balance !== before.balance || after.nonce !== before.nonce || after.code.length !== before.code.length
    if (after.storage.size !== before.storage.size || [...after.storage].some(([k, v]) => before.storage.get(k) !== v)) {
      storage = true
      changed = true
    }
    if (changed && address !== s.tx.from && address !== s.tx.to && address !== s.block.coinbase) other = true
  }
  if (storage) stats.storageChanged++
  if (other) stats.otherAccountChanged++
  if (created) stats.accountsCreated++
}

export async function runBatch(options: BatchOptions): Promise<BatchResult> {
  await loadEngines()
  const started = Date.now()
  const stats = emptyStats()
  const differences: Checked[] = []
  const indexes = options.indexes ?? Array.from({ length: options.count }, (_, i) => i)
  let done = 0
  for (const index of indexes) {
    const scenario = generateScenario(options.seed, index, options.fork !== undefined ? { fork: options.fork } : {})
    const c = await check(scenario)
    record(stats, c)
    if (c.difference !== undefined && c.difference.field !== 'oracle-crash') differences.push(c)
    options.onProgress?.(++done, c)
    if (options.maxDifferences !== undefined && differences.length >= options.maxDifferences) break
  }
  return { stats, differences, millis: Date.now() - started }
}

/** Differences grouped by field (and fork), most frequent first: `[key, scenarios]`. */
export function groupDifferences(differences: readonly Checked[]): [string, Checked[]][] {
  const groups = new Map<string, Checked[]>()
  for (const d of differences) {
    const key = d.difference!.field
    let list = groups.get(key)
    if (list === undefined) groups.set(key, (list = []))
    list.push(d)
  }
  return [...groups].sort((a, b) => b[1].length - a[1].length)
}

export function formatStats(s: BatchStats): string {
  const pct = (n: number): string => `${n} (${s.scenarios ? Math.round((100 * n) / s.scenarios) : 0}%)`
  return [
    `scenarios ${s.scenarios}: ran ${pct(s.ran)} [success ${s.success}, revert ${s.revert}, halt ${s.halt}], both refused ${pct(s.invalidBoth)}`,
    `gas > 60k ${pct(s.gasOver60k)}, logs ${pct(s.withLogs)}, refunds ${pct(s.withRefund)}, storage written ${pct(s.storageChanged)}, other accounts changed ${pct(s.otherAccountChanged)}, accounts created ${pct(s.accountsCreated)}, oracle crashes ${s.oracleCrashes}`,
  ].join('\n')
}
