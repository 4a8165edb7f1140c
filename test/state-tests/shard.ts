/**
 * One test-file's share of a state-test corpus. The Cancun-era corpus is split into CANCUN_SHARDS shards
 * (every CANCUN_SHARDS-th fixture file) so that `npm test`'s two concurrent test processes share it; each
 * shard's test file calls defineShard with its corpus and index. STATE_TESTS_FILTER=<substring> restricts
 * every shard to the files and cases whose name contains it (printed when set); STATE_TESTS_SLOW=1 adds the
 * slow files (runner.ts isSlowFile).
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { Corpus } from './fixtures.ts'
import { formatReport, runCorpus } from './runner.ts'
import { ourEngine } from './engines.ts'

export const CANCUN_SHARDS = 2

export function defineShard(label: string, corpus: Corpus, index: number, count: number): void {
  const filter = process.env.STATE_TESTS_FILTER
  const part = count > 1 ? `, shard ${index + 1}/${count}` : ''
  const name = `${label} through our EVM${part}${filter ? ` (STATE_TESTS_FILTER=${filter})` : ''}`
  test(name, { skip: !corpus.available() && `no corpus at ${corpus.dir}`, timeout: 30 * 60_000 }, async (t) => {
    if (filter) console.log(`STATE_TESTS_FILTER=${filter}`)
    const includeSlow = process.env.STATE_TESTS_SLOW === '1'
    const report = await runCorpus({ engine: await ourEngine(), corpus, filter, shard: { index, count }, includeSlow })
    const summary = formatReport(report, `${label}${part}`)
    console.log(summary)
    t.diagnostic(summary.split('\n')[0]!)
    let total = 0
    for (const tally of report.tallies.values()) total += tally.total
    assert.ok(total > 0 || (filter !== undefined && filter !== ''), 'the shard ran no post checks')
    assert.equal(report.failures.length, 0, `${report.failures.length} state-test checks failed (listed above)`)
  })
}
