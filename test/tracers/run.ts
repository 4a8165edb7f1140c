/**
 * The tracer fixture gate: `npm run test:tracers [-- DIR]` runs every geth tracer fixture under DIR (default
 * ../shared/geth-tracers) through our EVM and its tracer, prints a readable diff for each mismatch and the
 * count per folder, and ends with `tracers: P/N passed`. A case we cannot run (an unknown tracer, a
 * transaction we cannot decode) fails and is listed by name. Exits 1 when any case fails.
 */

import { resolve } from 'node:path'
import { diff, normalise, matches } from './compare.ts'
import { listFixtures, runFixture, TRACER_FIXTURES_DIR } from './fixtures.ts'

const arg = process.argv[2]
const dir = arg === undefined ? TRACER_FIXTURES_DIR : resolve(process.cwd(), arg)
const fixtures = listFixtures(dir)
const perFolder = new Map<string, { passed: number; total: number }>()
const failed: string[] = []
for (const fixture of fixtures) {
  const run = runFixture(fixture)
  const counts = perFolder.get(fixture.folder) ?? { passed: 0, total: 0 }
  perFolder.set(fixture.folder, counts)
  counts.total++
  if (run.error === undefined && matches(fixture.tracer, run.expected, run.actual)) {
    counts.passed++
    continue
  }
  failed.push(fixture.name)
  console.log(`FAIL ${fixture.name} (${fixture.tracer})`)
  if (run.error !== undefined) console.log(`  ${run.error}`)
  else for (const line of diff(normalise(fixture.tracer, run.expected), normalise(fixture.tracer, run.actual))) console.log(`  ${line}`)
}
for (const [folder, c] of perFolder) console.log(`${folder}: ${c.passed}/${c.total}`)
if (failed.length > 0) console.log(`failed: ${failed.join(', ')}`)
const passed = fixtures.length - failed.length
console.log(`tracers: ${passed}/${fixtures.length} passed`)
process.exitCode = failed.length === 0 ? 0 : 1
