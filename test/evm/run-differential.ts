/**
 * Run more of the differential test than `npm test` does, and see every difference grouped by field:
 *
 *   npx tsx test/evm/run-differential.ts [--seed S] [--count N] [--fork cancun] [--index I[,J...]]
 *                                         [--no-shrink] [--examples K] [--max-differences M] [--show]
 *                                         [--ignore output.create,createdAddress.failed,...] [--strict]
 *
 * --index runs only those scenarios of the seed (what a failure report names as seed:index); --show prints
 * the scenario (programs disassembled) even when both EVMs agree; --ignore leaves fields out of the
 * comparison, to look past a known difference; --strict compares even what differential.ts knows to be
 * the oracle's difference. Exit status 1 when anything differed.
 */

import { FORK_NAMES, type ForkName } from '../../src/evm/fork.ts'
import { formatDifference, formatScenario, ignored, shrink, timings } from './differential.ts'
import { formatStats, groupDifferences, runBatch } from './differential-batch.ts'

function parseArgs(argv: string[]): Map<string, string> {
  const out = new Map<string, string>()
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!
    if (!a.startsWith('--')) throw new Error(`unexpected argument ${a}`)
    const next = argv[i + 1]
    if (next === undefined || next.startsWith('--')) out.set(a.slice(2), 'true')
    else {
      out.set(a.slice(2), next)
      i++
    }
  }
  return out
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2))
  const seed = args.has('seed') ? Number(args.get('seed')) >>> 0 : (Math.random() * 0x1_0000_0000) >>> 0
  const count = Number(args.get('count') ?? 1000)
  const fork = args.get('fork') as ForkName | undefined
  if (fork !== undefined && !FORK_NAMES.includes(fork)) throw new Error(`unknown fork ${fork} (one of ${FORK_NAMES.join(', ')})`)
  const indexes = args.get('index')?.split(',').map(Number)
  const examples = Number(args.get('examples') ?? 2)
  const show = args.get('show') === 'true'
  if (args.get('strict') === 'true') ignored.clear()
  for (const field of args.get('ignore')?.split(',') ?? []) ignored.add(field)
  const maxDifferences = args.has('max-differences') ? Number(args.get('max-differences')) : undefined
  console.log(`differential: seed ${seed}, ${indexes !== undefined ? `scenarios ${indexes.join(',')}` : `${count} scenarios`}${fork !== undefined ? `, fork ${fork}` : ''}`)

  const result = await runBatch({
    seed,
    count,
    ...(fork !== undefined ? { fork } : {}),
    ...(indexes !== undefined ? { indexes } : {}),
    ...(maxDifferences !== undefined ? { maxDifferences } : {}),
    onProgress: (done, c) => {
      if (show) console.log(`${formatScenario(c.scenario)}\n  -> ${c.difference === undefined ? 'equal' : `${c.difference.field}: ${c.difference.detail}`}\n`)
      if (done % 200 === 0) process.stderr.write(`  ${done} done\n`)
    },
  })
  console.log(formatStats(result.stats))
  console.log(`${result.stats.scenarios} scenarios in ${(result.millis / 1000).toFixed(1)} s (library ${(timings.library / 1000).toFixed(1)} s, ours ${(timings.ours / 1000).toFixed(1)} s), ${result.differences.length} differing`)
  for (const [field, list] of groupDifferences(result.differences)) {
    const forks = new Map<string, number>()
    for (const c of list) forks.set(c.scenario.fork, (forks.get(c.scenario.fork) ?? 0) + 1)
    console.log(`\n=== ${field}: ${list.length} scenarios (${[...forks].map(([f, n]) => `${f} ${n}`).join(', ')}): ${list.map((c) => c.scenario.id).slice(0, 30).join(' ')}`)
    for (const c of list.slice(0, examples)) {
      const shown = args.get('no-shrink') === 'true' ? c : await shrink(c)
      console.log(`\n${formatDifference(shown)}`)
    }
  }
  process.exitCode = result.differences.length > 0 ? 1 : 0
}

await main()
