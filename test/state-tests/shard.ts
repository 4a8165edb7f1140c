/**
 * One test-file's share of the state-test corpus. The corpus is split into SHARD_COUNT shards (every
 * SHARD_COUNT-th fixture file) so that `npm test`'s two concurrent test processes share it; each shard's
 * test file calls defineShard with its index. STATE_TESTS_FILTER=<substring> restricts every shard to the
 * files and cases whose name contains it (printed when set); STATE_TESTS_SLOW=1 adds the slow files
 * (runner.ts isSlowFile).
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { corpusAvailable, CORPUS_DIR } from './fixtures.ts'
import { formatReport, runCorpus } from './runner.ts'
import { ourEngine } from './engines.ts'

export const SHARD_COUNT = 2

export function defineShard(index: number): void {
  const filter = process.env.STATE_TESTS_FILTER
  const name = `Ethereum state tests through our EVM, shard ${index + 1}/${SHARD_COUNT}${filter ? ` (STATE_TESTS_FILTER=${filter})` : ''}`
  test(name, { skip: !corpusAvailable() && `no corpus at ${CORPUS_DIR}`, timeout: 30 * 60_000 }, async (t) => {
    if (filter) console.log(`STATE_TESTS_FILTER=${filter}`)
    const includeSlow = process.env.STATE_TESTS_SLOW === '1'
    const report = await runCorpus({ engine: await ourEngine(), filter, shard: { index, count: SHARD_COUNT }, includeSlow })
    const summary = formatReport(report, `state tests, shard ${index + 1}/${SHARD_COUNT}`)
    console.log(summary)
    t.diagnostic(summary.split('\n')[0]!)
    let total = 0
    for (const tally of report.tallies.values()) total += tally.total
    assert.ok(total > 0 || (filter !== undefined && filter !== ''), 'the shard ran no post checks')
    assert.equal(report.failures.length, 0, `${report.failures.length} state-test checks failed (listed above)`)
  })
}
