/**
 * The state-test runner as a command (`npm run test:state -- [DIR ...] [filter] [options]`):
 *   npx tsx test/state-tests/run.ts [DIR ...] [filter] [--oracle] [--shard=i/n] [--limit=N] [--verbose] [--timing] [--slow] [--diff]
 * runs each corpus folder DIR (any folder of GeneralStateTests-format files; by default the two beside the
 * repository, ../shared/ethereum-tests and ../shared/eest-state-tests), or the files / cases whose name
 * contains `filter` (an argument that is not a folder), through our EVM, or with --oracle
 * through the library oracle, and prints the same summary as the test. --verbose names each file as it
 * starts (on stderr), --timing adds the time spent per directory, --slow also runs the slow files (runner.ts isSlowFile), --diff re-runs the first
 * 10 failures through the other engine and prints where the post-states differ. Exit status 1 on any failure,
 * 2 when no post check ran.
 */

import { existsSync, statSync } from 'node:fs'
import { resolve } from 'node:path'
import { CANCUN_CORPUS, EEST_CORPUS, openCorpus, type Corpus } from './fixtures.ts'
import { describeDifferences, entryInputs, formatReport, runCorpus, type CheckFailure } from './runner.ts'
import { InvalidTransaction } from '../../src/evm/types.ts'
import { libraryEngine, ourEngine } from './engines.ts'

const args = process.argv.slice(2)
const oracle = args.includes('--oracle')
const shardArg = args.find((a) => a.startsWith('--shard='))
const limitArg = args.find((a) => a.startsWith('--limit='))
const verbose = args.includes('--verbose')
const timing = args.includes('--timing')
const perDir = new Map<string, number>()
let current: { dir: string; since: number } | undefined
const dirOf = (file: string): string => file.split('/').slice(0, file.startsWith('st') ? 1 : 2).join('/')
function progress(file: string): void {
  const now = performance.now()
  if (current !== undefined) perDir.set(current.dir, (perDir.get(current.dir) ?? 0) + now - current.since)
  current = { dir: dirOf(file), since: now }
  if (verbose) console.error(file)
}
const positional = args.filter((a) => !a.startsWith('--'))
// `npm run test:state -- DIR` runs in the package's root: a relative DIR means the caller's folder (INIT_CWD).
const fromCaller = (a: string): string => resolve(process.env['INIT_CWD'] ?? process.cwd(), a)
const isFolder = (a: string): boolean => existsSync(fromCaller(a)) && statSync(fromCaller(a)).isDirectory()
const named = positional.filter(isFolder).map((a) => openCorpus(fromCaller(a)))
const filter = positional.find((a) => !isFolder(a))
const corpora: Corpus[] = named.length > 0 ? named : [CANCUN_CORPUS, EEST_CORPUS].filter((c) => c.available())
if (corpora.length === 0) {
  console.error(`no state-test corpus at ${CANCUN_CORPUS.dir} or ${EEST_CORPUS.dir}; name a folder`)
  process.exit(2)
}
const shard = shardArg === undefined ? undefined : (([i, n]) => ({ index: Number(i), count: Number(n) }))(shardArg.slice('--shard='.length).split('/'))
const engine = oracle ? await libraryEngine() : await ourEngine()
let failed = 0
let checks = 0
for (const corpus of corpora) {
  // The oracle refuses in its own words: only that it refuses is checked, not why.
  const report = await runCorpus({ engine, corpus, filter, shard, includeSlow: args.includes('--slow'), checkReasons: !oracle, onProgress: progress })
  progress('')
  failed += report.failures.length
  for (const tally of report.tallies.values()) checks += tally.total
  const title = `${corpus.dir}: ${oracle ? 'library oracle' : 'our EVM'}${filter ? ` [filter ${filter}]` : ''}${shard ? ` [shard ${shard.index}/${shard.count}]` : ''}`
  console.log(formatReport(report, title, limitArg === undefined ? 50 : Number(limitArg.slice('--limit='.length))))
  if (args.includes('--diff')) await printDifferences(corpus, report.failures.slice(0, 10))
}

/** Re-runs failures through the other engine and prints where the post-states differ. */
async function printDifferences(corpus: Corpus, failures: readonly CheckFailure[]): Promise<void> {
  const other = oracle ? await ourEngine() : await libraryEngine()
  for (const f of failures) {
    const { pre, block, fork, tx } = entryInputs(corpus, f.file, f.caseName, f.fork, f.indexes)
    const describe = async (e: typeof engine) => {
      try {
        return await e(pre, block, fork, tx)
      } catch (err) {
        return err instanceof InvalidTransaction ? `rejected: ${err.reason}` : `threw ${(err as Error).message}`
      }
    }
    const [mine, theirs] = [await describe(engine), await describe(other)]
    console.log(`${f.file} ${f.caseName} ${f.fork} d${f.indexes.data} g${f.indexes.gas} v${f.indexes.value}, against ${oracle ? 'our EVM' : 'the library'}:`)
    if (typeof mine === 'string' || typeof theirs === 'string') console.log(`  this engine: ${typeof mine === 'string' ? mine : 'accepted'}; other: ${typeof theirs === 'string' ? theirs : 'accepted'}`)
    else for (const line of describeDifferences(mine.post, theirs.post)) console.log(`  ${line}`)
  }
}
if (timing) {
  console.log('time per directory:')
  for (const [dir, ms] of [...perDir].sort((a, b) => b[1] - a[1])) if (dir !== '') console.log(`  ${(ms / 1000).toFixed(1).padStart(7)} s  ${dir}`)
}
if (checks === 0) console.error(`no post checks ran (an empty folder, or a filter nothing matched${filter === undefined ? '' : `: ${filter}, neither a folder nor a file or case name`})`)
process.exit(failed > 0 ? 1 : checks === 0 ? 2 : 0)
