/**
 * The spare-core gate's decision, sample by sample: it opens only when jobs wait and the main thread idles
 * for two intervals in a row, stays open until the main thread gets busy, and closes with hysteresis.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { SpareCoreGate } from './spare-core-gate.ts'

const OPTIONS = { intervalMs: 250, openBelow: 0.35, openAfter: 2, closeAbove: 0.6 }

test('opens when jobs wait while the main thread idles, not when either is missing', () => {
  const turns: boolean[] = []
  const gate = new SpareCoreGate(OPTIONS, (open) => turns.push(open))
  gate.sample(0.1, false)
  assert.equal(gate.open, false, 'nothing waits: no extra worker')
  gate.sample(0.5, true)
  assert.equal(gate.open, false, 'jobs wait but the main thread is half busy')
  gate.sample(0.34, true)
  assert.equal(gate.open, false, 'one idle interval is not enough: a new load begins with one')
  gate.sample(0.1, false)
  gate.sample(0.34, true)
  assert.equal(gate.open, false, 'the run of idle intervals starts again after one without waiting jobs')
  gate.sample(0.2, true)
  assert.equal(gate.open, true)
  assert.deepEqual(turns, [true])
})

test('once open, it stays open until the main thread is busier than the closing mark, then needs both again', () => {
  const turns: boolean[] = []
  const gate = new SpareCoreGate(OPTIONS, (open) => turns.push(open))
  gate.sample(0.05, true)
  gate.sample(0.05, true)
  gate.sample(0.5, false)
  gate.sample(0.6, true)
  assert.equal(gate.open, true, 'between the marks, and at the closing mark itself, it stays open')
  gate.sample(0.61, true)
  assert.equal(gate.open, false)
  gate.sample(0.4, true)
  assert.equal(gate.open, false, 'between the marks, it stays closed')
  gate.sample(0.2, true)
  gate.sample(0.2, true)
  assert.equal(gate.open, true)
  assert.deepEqual(turns, [true, false, true])
})
