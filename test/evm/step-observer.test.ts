/**
 * A step observer (src/evm/step-observer.ts) sees every opcode and changes nothing: the differential test's
 * random scenarios run with and without one give the same outcome (validity, status, gas, refund, output,
 * logs, created address and the whole post-state), and what the observer is shown is the code being run.
 *
 *   FUZZ_SEED=<n>  the seed (printed; random when unset)
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { rulesFor } from '../../src/evm/fork.ts'
import type { StepFrame, StepObserver } from '../../src/evm/step-observer.ts'
import { executeTransaction } from '../../src/evm/transaction.ts'
import { InvalidTransaction } from '../../src/evm/types.ts'
import { WorldState } from '../../src/evm/world-state.ts'
import { applyDiff, stateReaderOf } from '../state-tests/world.ts'
import { firstDifference, type Outcome } from './differential.ts'
import { generateScenario, type Scenario } from './scenario-generator.ts'
import { fuzzSeed, reproduce } from '../support/rng.ts'

const COUNT = 400

function run(s: Scenario, steps?: StepObserver): Outcome {
  try {
    const world = new WorldState(stateReaderOf(s.pre))
    const result = executeTransaction(world, s.block, rulesFor(s.fork), s.tx, steps === undefined ? {} : { steps })
    return { kind: 'ran', result, post: applyDiff(s.pre, world.diff()) }
  } catch (e) {
    if (e instanceof InvalidTransaction) return { kind: 'invalid', reason: e.reason }
    return { kind: 'crash', error: (e as Error).stack ?? String(e) }
  }
}

/** Checks each step against the frame's code and counts them. */
class CheckingObserver implements StepObserver {
  steps = 0
  problem: string | undefined
  step(frame: StepFrame, pc: number, op: number, gas: number, sp: number, depth: number): void {
    this.steps++
    if (this.problem !== undefined) return
    // past the end of the code is STOP (as geth runs and shows it)
    if ((frame.code[pc] ?? 0) !== op) this.problem = `op 0x${op.toString(16)} at pc ${pc}, code has 0x${frame.code[pc]?.toString(16)}`
    else if (gas < 0 || sp < 0 || sp > 1024 || depth !== frame.msg.depth) this.problem = `gas ${gas}, sp ${sp}, depth ${depth}`
  }
}

test('a step observer sees every opcode of the code it runs and changes no outcome', () => {
  const seed = fuzzSeed()
  let stepped = 0
  for (let i = 0; i < COUNT; i++) {
    const s = generateScenario(seed, i)
    const observer = new CheckingObserver()
    const plain = run(s)
    const observed = run(s, observer)
    const difference = firstDifference(observed, plain, new Set(), s.tx.to === undefined)
    assert.equal(difference, undefined, `scenario ${s.id}: ${difference?.field} ${difference?.detail} (${reproduce('test/evm/step-observer.test.ts', seed)})`)
    assert.equal(observer.problem, undefined, `scenario ${s.id}: ${observer.problem}`)
    if (observer.steps > 0) stepped++
  }
  assert.ok(stepped > COUNT / 2, `only ${stepped} of ${COUNT} scenarios ran any opcode`)
})
