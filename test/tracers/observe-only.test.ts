/**
 * A tracer observes and never changes a result: random transactions of the differential generator
 * (test/evm/scenario-generator.ts) run untraced and under every tracer, and the outcome (validity and its
 * reason, status, gas used, refund, output, logs, created address and the post-state) must be the same. Each
 * traced run must also give a result that serialises to JSON.
 *
 *   TRACER_FUZZ_SEED=<n>   the seed (printed; random when unset)
 *   TRACER_FUZZ_COUNT=<n>  how many scenarios (default 300)
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { rulesFor } from '../../src/evm/fork.ts'
import { createTracer, traceTransaction } from '../../src/evm/tracers/index.ts'
import { executeTransaction } from '../../src/evm/transaction.ts'
import { InvalidTransaction } from '../../src/evm/types.ts'
import { WorldState } from '../../src/evm/world-state.ts'
import { generateScenario, type Scenario } from '../evm/scenario-generator.ts'
import { applyDiff, stateReaderOf } from '../state-tests/world.ts'

const TRACERS: readonly (readonly [string, unknown])[] = [
  ['callTracer', undefined],
  ['callTracer', { withLog: true }],
  ['callTracer', { onlyTopCall: true, withLog: true }],
  ['flatCallTracer', { includePrecompiles: true, convertParityErrors: true }],
  ['flatCallTracer', undefined],
  ['prestateTracer', undefined],
  ['prestateTracer', { diffMode: true }],
  ['prestateTracer', { disableCode: true, disableStorage: true, includeEmpty: true }],
  ['4byteTracer', undefined],
  ['noopTracer', undefined],
  // The struct logger with geth's byte budget: a random loop can log hundreds of MB of steps, past the
  // logger's own cap (which is held by struct-logger.test.ts); here only outcomes are compared.
  ['', { limit: 4 << 20 }],
  ['', { enableMemory: true, enableReturnData: true, limit: 4 << 20 }],
  ['muxTracer', { callTracer: { withLog: true }, prestateTracer: { diffMode: true }, '4byteTracer': {} }],
  ['erc7562Tracer', undefined],
  ['erc7562Tracer', { withLog: true, ignoredOpcodes: [] }],
  ['muxTracer', { erc7562Tracer: {}, prestateTracer: {} }],
]

function envNumber(name: string): number | undefined {
  const raw = process.env[name]
  return raw === undefined || raw.trim() === '' ? undefined : Number(raw)
}

const seed = (envNumber('TRACER_FUZZ_SEED') ?? Math.floor(Math.random() * 0x1_0000_0000)) >>> 0
const count = envNumber('TRACER_FUZZ_COUNT') ?? 300

/** One run's outcome, in a form deepStrictEqual compares. */
function outcome(s: Scenario, tracer?: readonly [string, unknown]): unknown {
  const world = new WorldState(stateReaderOf(s.pre))
  const rules = rulesFor(s.fork)
  const options = { deadline: Date.now() + 60_000 }
  try {
    let r
    if (tracer === undefined) r = executeTransaction(world, s.block, rules, s.tx, options)
    else {
      const traced = traceTransaction(createTracer(tracer[0], tracer[1]), { world, block: s.block, rules, tx: s.tx }, options)
      assert.equal(typeof JSON.stringify(traced.trace), 'string')
      r = traced.result
    }
    return {
      status: r.status, gasUsed: r.gasUsed, refund: r.refund, output: [...r.output], haltReason: r.haltReason, createdAddress: r.createdAddress,
      logs: r.logs.map((l) => ({ address: l.address, topics: [...l.topics], data: [...l.data] })),
      post: applyDiff(s.pre, world.diff()),
    }
  } catch (e) {
    if (e instanceof InvalidTransaction) return { invalid: e.reason }
    throw e
  }
}

test(`tracers only observe: ${count} random transactions give the same outcome traced and untraced (seed ${seed})`, { timeout: 600_000 }, () => {
  console.log(`tracer observation: seed ${seed}, ${count} scenarios (TRACER_FUZZ_SEED=${seed} to rerun)`)
  let valid = 0
  for (let i = 0; i < count; i++) {
    const s = generateScenario(seed, i)
    const plain = outcome(s)
    if (!('invalid' in (plain as object))) valid++
    for (const tracer of TRACERS) {
      assert.deepStrictEqual(outcome(s, tracer), plain, `scenario ${s.id} (${s.fork}) under ${tracer[0]} ${JSON.stringify(tracer[1] ?? {})}`)
    }
  }
  assert.ok(valid >= count / 2, `only ${valid} of ${count} scenarios were valid transactions`)
})
