/**
 * The rpc-compat conformance run: starts the node (serve.ts) in a fresh temp datadir, runs all 123 cases in
 * order against it, prints the per-method summary, and holds the line with two rules:
 *
 * 1. Floors: each method passes at least MIN_PASSES[method] cases. Floors only go up.
 * 2. No unexplained failures: a failing case must be on the skip list (skip.ts), or belong to a method that
 *    is not fully enforced yet (its floor is below its case count). A skip-listed case that passes is
 *    reported, so its entry can be removed and the list stays honest; a skip entry for a case that does
 *    not exist fails the run.
 *
 * Needs scripts/serve-rpc-compat.ts; without it the test fails at once with that reason.
 */

import assert from 'node:assert/strict'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'node:test'
import { loadCases } from './cases.ts'
import { describeFailure, printSummary, runConformance, tallyByMethod } from './runner.ts'
import { startServe } from './serve.ts'
import { SKIP } from './skip.ts'

/** Minimum passing cases per method (out of 6, 8, 5, 4, 4, 5, 91). */
const MIN_PASSES: Readonly<Record<string, number>> = {
  eth_call: 6,
  eth_getBlockReceipts: 8,
  eth_getStorageAt: 5,
  eth_getTransactionCount: 4,
  eth_getCode: 4,
  eth_sendRawTransaction: 5,
  eth_simulateV1: 91,
}

test('rpc-compat conformance', { timeout: 15 * 60_000 }, async () => {
  const cases = loadCases()

  // The tables must describe the cases on disk: a new method folder needs a floor, a skip entry a case.
  const methods = [...new Set(cases.map((c) => c.method))]
  assert.deepEqual([...methods].sort(), Object.keys(MIN_PASSES).sort(), 'MIN_PASSES must list exactly the case folders')
  const paths = new Set(cases.map((c) => c.path))
  const stale = Object.keys(SKIP).filter((p) => !paths.has(p))
  assert.deepEqual(stale, [], 'skip.ts names cases that do not exist')
  for (const [p, reason] of Object.entries(SKIP)) assert.ok(reason.trim().length > 0, `skip entry ${p} has no reason`)

  const datadir = await mkdtemp(join(tmpdir(), 'flashnode-rpc-compat-'))
  try {
    const node = await startServe({ datadir })
    const results = await runConformance(node.url, { cases }).finally(() => node.stop())
    printSummary(results)

    const skippedPassing = results.filter((r) => r.passed && r.skipReason !== undefined)
    if (skippedPassing.length > 0) {
      console.log(`\nskip-listed cases that now PASS (remove them from skip.ts):`)
      for (const r of skippedPassing) console.log(`  ${r.case.path} (was: ${r.skipReason})`)
    }

    const problems: string[] = []
    for (const t of tallyByMethod(results)) {
      const floor = MIN_PASSES[t.method] ?? 0
      if (t.passed < floor) problems.push(`${t.method}: ${t.passed}/${t.total} passed, below the floor of ${floor}`)
    }
    const totals = new Map(tallyByMethod(results).map((t) => [t.method, t.total]))
    for (const r of results) {
      if (r.passed || r.skipReason !== undefined) continue
      const floor = MIN_PASSES[r.case.method] ?? 0
      const enforced = floor >= (totals.get(r.case.method) ?? 0)
      if (enforced) problems.push(`${r.case.path} fails and is not on the skip list: ${describeFailure(r)}`)
    }
    assert.deepEqual(problems, [], `rpc-compat conformance:\n  ${problems.join('\n  ')}`)
  } finally {
    await rm(datadir, { recursive: true, force: true })
  }
})
