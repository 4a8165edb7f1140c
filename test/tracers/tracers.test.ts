/**
 * The tracer fixture gate in npm test: every geth fixture of the tracers we implement (callTracer,
 * flatCallTracer, prestateTracer) must pass as geth's tracetest compares them; erc7562Tracer is not
 * implemented yet, and its cases are reported as such (a visible diagnostic, never a pass). The fixtures are
 * read from ../shared/geth-tracers (TRACER_FIXTURES_DIR); without them the test says so and fails.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { diff, matches, normalise } from './compare.ts'
import { listFixtures, runFixture, TRACER_FIXTURES_DIR } from './fixtures.ts'

const NOT_IMPLEMENTED = new Set(['erc7562Tracer'])

test('geth tracer fixtures: every case of callTracer, flatCallTracer and prestateTracer passes', (t) => {
  assert.ok(existsSync(TRACER_FIXTURES_DIR), `geth's tracer fixtures are missing at ${TRACER_FIXTURES_DIR}`)
  const fixtures = listFixtures(TRACER_FIXTURES_DIR)
  const pending = fixtures.filter((f) => NOT_IMPLEMENTED.has(f.tracer))
  const ours = fixtures.filter((f) => !NOT_IMPLEMENTED.has(f.tracer))
  assert.ok(ours.length >= 63, `found ${ours.length} cases of the implemented tracers`)
  const failures: string[] = []
  for (const fixture of ours) {
    const run = runFixture(fixture)
    if (run.error !== undefined) failures.push(`${fixture.name}: ${run.error}`)
    else if (!matches(fixture.tracer, run.expected, run.actual)) {
      failures.push(`${fixture.name}:\n  ${diff(normalise(fixture.tracer, run.expected), normalise(fixture.tracer, run.actual)).join('\n  ')}`)
    }
  }
  if (pending.length > 0) {
    t.diagnostic(`NOT IMPLEMENTED: ${pending.length} erc7562Tracer cases are not run (${pending.map((f) => f.name).join(', ')})`)
  }
  assert.deepEqual(failures, [], `${failures.length} of ${ours.length} cases differ from geth`)
})

test('geth tracer fixtures: erc7562Tracer is not implemented yet, so its cases fail when run', { todo: 'erc7562Tracer needs opcode-level hooks' }, () => {
  for (const fixture of listFixtures(TRACER_FIXTURES_DIR).filter((f) => NOT_IMPLEMENTED.has(f.tracer))) {
    const run = runFixture(fixture)
    assert.match(run.error ?? '', /not found/, `${fixture.name} unexpectedly ran`)
  }
})
