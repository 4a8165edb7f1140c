/**
 * The tracer fixture gate in npm test: every geth fixture (callTracer, flatCallTracer, prestateTracer and
 * erc7562Tracer) must pass as geth's tracetest compares them. The fixtures are read from ../shared/geth-tracers
 * (TRACER_FIXTURES_DIR); without them the test says so and fails.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { diff, matches, normalise } from './compare.ts'
import { listFixtures, runFixture, TRACER_FIXTURES_DIR } from './fixtures.ts'

test('geth tracer fixtures: every case of callTracer, flatCallTracer, prestateTracer and erc7562Tracer passes', () => {
  assert.ok(existsSync(TRACER_FIXTURES_DIR), `geth's tracer fixtures are missing at ${TRACER_FIXTURES_DIR}`)
  const fixtures = listFixtures(TRACER_FIXTURES_DIR)
  assert.ok(fixtures.length >= 66, `found ${fixtures.length} cases`)
  assert.ok(fixtures.filter((f) => f.tracer === 'erc7562Tracer').length >= 3, 'erc7562Tracer cases are missing')
  const failures: string[] = []
  for (const fixture of fixtures) {
    const run = runFixture(fixture)
    if (run.error !== undefined) failures.push(`${fixture.name}: ${run.error}`)
    else if (!matches(fixture.tracer, run.expected, run.actual)) {
      failures.push(`${fixture.name}:\n  ${diff(normalise(fixture.tracer, run.expected), normalise(fixture.tracer, run.actual)).join('\n  ')}`)
    }
  }
  console.log(`tracers: ${fixtures.length - failures.length}/${fixtures.length} passed`)
  assert.deepEqual(failures, [], `${failures.length} of ${fixtures.length} cases differ from geth`)
})
