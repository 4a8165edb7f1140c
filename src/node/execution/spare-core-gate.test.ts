/**
 * The spare-core gate's decision, sample by sample: it tries the extra workers only when jobs wait and the
 * main thread idles for two intervals in a row, keeps them only if jobs then complete faster, backs off after
 * trials that did not pay, rechecks while open, and closes at once when the main thread gets busy.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { SpareCoreGate, type GateTurn, type SpareCoreOptions } from './spare-core-gate.ts'

const OPTIONS: SpareCoreOptions = {
  intervalMs: 250,
  openBelow: 0.35,
  openAfter: 2,
  closeAbove: 0.8,
  openSettleIntervals: 1,
  closeSettleIntervals: 1,
  trialIntervals: 2,
  minGain: 1.1,
  holdIntervals: 3,
  maxHoldIntervals: 8,
  recheckEvery: 5,
}

function gateWithTurns(options: SpareCoreOptions = OPTIONS): { gate: SpareCoreGate; turns: GateTurn[] } {
  const turns: GateTurn[] = []
  return { gate: new SpareCoreGate(options, (t) => turns.push(t)), turns }
}

/** Samples `n` intervals alike. */
function run(gate: SpareCoreGate, n: number, utilization: number, waiting: boolean, completed: number): void {
  for (let i = 0; i < n; i++) gate.sample(utilization, waiting, completed)
}

test('tries the extra workers when jobs wait while the main thread idles, not when either is missing', () => {
  const { gate, turns } = gateWithTurns()
  gate.sample(0.1, false, 100)
  assert.equal(gate.open, false, 'nothing waits: no extra worker')
  gate.sample(0.5, true, 100)
  assert.equal(gate.open, false, 'jobs wait but the main thread is half busy')
  gate.sample(0.34, true, 100)
  assert.equal(gate.open, false, 'one idle interval is not enough: a new load begins with one')
  gate.sample(0.1, false, 100)
  gate.sample(0.34, true, 100)
  assert.equal(gate.open, false, 'the run of idle intervals starts again after one without waiting jobs')
  gate.sample(0.2, true, 120)
  assert.equal(gate.open, true)
  assert.deepEqual(turns.map((t) => [t.open, t.reason, t.rateBefore]), [[true, 'main thread idle while jobs wait', 110]])
})

test('keeps the extra workers when the rate rises by the minimum gain, and utilization does not close them below the mark', () => {
  const { gate, turns } = gateWithTurns()
  run(gate, 2, 0.3, true, 100)
  assert.equal(gate.open, true)
  gate.sample(0.7, true, 20) // settling: a fresh worker's first interval is not measured
  gate.sample(0.7, true, 110)
  gate.sample(0.79, true, 110) // 110 against 100: exactly the gain
  assert.equal(gate.open, true, 'kept: the main thread waits for a core, which is not more work')
  run(gate, 3, 0.79, true, 110)
  assert.equal(gate.open, true)
  assert.deepEqual(turns.map((t) => t.reason), ['main thread idle while jobs wait'])
})

test('undoes a trial that did not pay and holds shut, longer after each such trial in a row', () => {
  const { gate, turns } = gateWithTurns()
  const failedTrial = (): void => {
    run(gate, 2, 0.3, true, 100) // opens
    assert.equal(gate.open, true)
    run(gate, 3, 0.5, true, 105) // settle, then two intervals at +5%
    assert.equal(gate.open, false)
  }
  failedTrial()
  // held for 3 intervals: idle intervals with waiting jobs do not open it
  run(gate, 3, 0.3, true, 100)
  assert.equal(gate.open, false)
  failedTrial()
  run(gate, 5, 0.3, true, 100) // the second hold is 6 intervals
  assert.equal(gate.open, false)
  run(gate, 1, 0.3, true, 100)
  run(gate, 2, 0.3, true, 100)
  assert.equal(gate.open, true, 'after the hold the idle rule opens it again')
  run(gate, 3, 0.5, true, 100)
  assert.equal(gate.open, false)
  run(gate, 8, 0.3, true, 100) // a third hold: 12, capped at 8
  run(gate, 2, 0.3, true, 100)
  assert.equal(gate.open, true)
  assert.deepEqual(
    turns.filter((t) => !t.open).map((t) => [t.reason, t.rateBefore, t.rateAfter]),
    [['extra workers did not pay', 100, 105], ['extra workers did not pay', 100, 105], ['extra workers did not pay', 100, 100]],
  )
})

test('rechecks while open: reopens when closing costs more than the gain, stays shut when it does not', () => {
  const { gate, turns } = gateWithTurns()
  run(gate, 2, 0.3, true, 100)
  run(gate, 3, 0.5, true, 150) // trial passes: 150 against 100
  run(gate, 4, 0.5, true, 150)
  assert.equal(gate.open, true)
  gate.sample(0.5, true, 150) // the 5th open interval: recheck, closed on trial
  assert.equal(gate.open, false)
  run(gate, 3, 0.3, true, 100) // settle, then 100 without against 150 with
  assert.equal(gate.open, true, 'the extra workers still pay')
  run(gate, 5, 0.5, true, 120)
  assert.equal(gate.open, false, 'recheck again')
  run(gate, 3, 0.5, true, 115) // 120 with against 115 without: not worth them any more
  assert.equal(gate.open, false)
  run(gate, 2, 0.3, true, 115)
  assert.equal(gate.open, false, 'and held shut after it')
  assert.deepEqual(
    turns.map((t) => [t.open, t.reason]),
    [[true, 'main thread idle while jobs wait'], [false, 'recheck'], [true, 'extra workers pay'], [false, 'recheck'], [false, 'load changed']],
  )
})

test('a busy main thread closes it at once, during a trial too, and it needs the idle rule again to open', () => {
  const { gate, turns } = gateWithTurns()
  run(gate, 2, 0.3, true, 100)
  gate.sample(0.81, true, 90)
  assert.equal(gate.open, false, 'closed during its trial')
  gate.sample(0.2, true, 100)
  assert.equal(gate.open, false, 'no hold, but two idle intervals again')
  gate.sample(0.2, true, 100)
  assert.equal(gate.open, true)
  run(gate, 3, 0.5, true, 200)
  gate.sample(0.8, true, 200)
  assert.equal(gate.open, true, 'at the mark itself it stays open')
  gate.sample(0.95, true, 200)
  assert.equal(gate.open, false)
  assert.deepEqual(
    turns.map((t) => [t.open, t.reason]),
    [[true, 'main thread idle while jobs wait'], [false, 'main thread busy'], [true, 'main thread idle while jobs wait'], [false, 'main thread busy']],
  )
})

test('the settling after opening and after a recheck closing are set apart', () => {
  const { gate, turns } = gateWithTurns({ ...OPTIONS, openSettleIntervals: 3, closeSettleIntervals: 0, recheckEvery: 2 })
  run(gate, 2, 0.3, true, 100)
  run(gate, 3, 0.5, true, 10) // three cold intervals are not measured
  run(gate, 2, 0.5, true, 120)
  assert.equal(gate.open, true, 'measured from the fourth interval: 120 against 100')
  run(gate, 2, 0.5, true, 120) // recheck: closed, measured at once
  assert.equal(gate.open, false)
  run(gate, 2, 0.5, true, 60)
  assert.equal(gate.open, true, '60 without against 120 with: reopened')
  assert.deepEqual(turns.map((t) => t.reason), ['main thread idle while jobs wait', 'recheck', 'extra workers pay'])
})

test('a quiet interval ends a hold: the next load gets a trial at once', () => {
  const { gate } = gateWithTurns()
  for (let i = 0; i < 3; i++) {
    run(gate, 2, 0.3, true, 100)
    run(gate, 3, 0.5, true, 100) // fails: the holds grow to 3, 6, 8
    assert.equal(gate.open, false)
  }
  run(gate, 4, 0.3, true, 100)
  assert.equal(gate.open, false, 'still held')
  gate.sample(0.01, false, 0) // nothing ran
  run(gate, 2, 0.3, true, 100)
  assert.equal(gate.open, true, 'a new load opens it without waiting out the hold')
  run(gate, 3, 0.5, true, 100)
  run(gate, 3, 0.3, true, 100)
  assert.equal(gate.open, false, 'and the hold after its failed trial is the first one again (3 intervals)')
  run(gate, 2, 0.3, true, 100)
  assert.equal(gate.open, true)
})
