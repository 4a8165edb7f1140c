/**
 * Debugging CLI for the state tests:
 *   npx tsx test/state-tests/run.ts [filter] [--oracle] [--shard=i/n] [--limit=N] [--verbose] [--timing] [--slow] [--diff]
 * runs the corpus (or the files / cases whose name contains `filter`) through our EVM, or with --oracle
 * through the library oracle, and prints the same summary as the test. --verbose names each file as it
 * starts (on stderr), --timing adds the time spent per directory, --slow also runs the slow files (runner.ts isSlowFile), --diff re-runs the first
 * 10 failures through the other engine and prints where the post-states differ. Exit status 1 on any failure.
 */

import { corpusAvailable, CORPUS_DIR } from './fixtures.ts'
import { describeDifferences, entryInputs, formatReport, runCorpus } from './runner.ts'
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
const filter = args.find((a) => !a.startsWith('--'))
if (!corpusAvailable()) {
  console.error(`no state-test corpus at ${CORPUS_DIR}`)
  process.exit(2)
}
const shard = shardArg === undefined ? undefined : (([i, n]) => ({ index: Number(i), count: Number(n) }))(shardArg.slice('--shard='.length).split('/'))
const engine = oracle ? await libraryEngine() : await ourEngine()
const report = await runCorpus({ engine, filter, shard, includeSlow: args.includes('--slow'), onProgress: progress })
progress('')
const title = `${oracle ? 'library oracle' : 'our EVM'}${filter ? ` [filter ${filter}]` : ''}${shard ? ` [shard ${shard.index}/${shard.count}]` : ''}`
console.log(formatReport(report, title, limitArg === undefined ? 50 : Number(limitArg.slice('--limit='.length))))
if (args.includes('--diff')) {
  const other = oracle ? await ourEngine() : await libraryEngine()
  for (const f of report.failures.slice(0, 10)) {
    const { pre, block, fork, tx } = entryInputs(f.file, f.caseName, f.fork, f.indexes)
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
process.exit(report.failures.length > 0 ? 1 : 0)
