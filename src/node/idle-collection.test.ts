/**
 * Idle-time young collection: the decision, a real collection by the exposed collector, and the sequencer
 * telling the hook how long remains until its next tick (manual clock), only after automatic ticks.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { PerformanceObserver, constants } from 'node:perf_hooks'
import { devNode } from '../../test/support/dev-chain.ts'
import { EMPTY_POOL, SEQUENCER_TEST_SETTINGS, sequencerFor } from '../../test/support/sequencer.ts'
import { ManualScheduler } from '../sequencer/scheduler.ts'
import { IDLE_MS_TO_COLLECT, YOUNG_FILL_TO_COLLECT, idleYoungCollection, shouldCollect, youngGeneration } from './idle-collection.ts'

test('collects only with the young generation at least half full and the next tick far enough away', () => {
  const capacity = 16 << 20
  const half = Math.ceil(YOUNG_FILL_TO_COLLECT * capacity)
  assert.equal(shouldCollect({ used: half, capacity }, IDLE_MS_TO_COLLECT), true)
  assert.equal(shouldCollect({ used: half - 1, capacity }, 1_000), false, 'not full enough')
  assert.equal(shouldCollect({ used: capacity, capacity }, IDLE_MS_TO_COLLECT - 1), false, 'the next tick is near')
  assert.equal(shouldCollect({ used: capacity, capacity }, -5), false, 'behind: the next tick is overdue')
  assert.equal(shouldCollect({ used: 0, capacity: 0 }, 1_000), false, 'no young generation reported')
})

test('the hook really collects the young generation when the decision says so, and not otherwise', async () => {
  const hook = idleYoungCollection()
  assert.ok(hook !== undefined, 'the collector can be exposed in this runtime')
  const fill = (): void => {
    // Garbage until the young generation is more than half full (short-lived objects only).
    let keep: unknown[] = []
    while (youngGeneration().used < 0.7 * youngGeneration().capacity) {
      keep = []
      for (let i = 0; i < 1_000; i++) keep.push({ i, s: `x${i}` })
    }
    void keep
  }
  fill()
  const before = youngGeneration().used
  hook(IDLE_MS_TO_COLLECT - 1)
  assert.ok(youngGeneration().used >= before, 'the next tick is near: nothing collected')
  // Watched from here on: the collections while filling are not the hook's.
  let reported: () => void = () => undefined
  const minorReported = new Promise<boolean>((resolve) => (reported = () => resolve(true)))
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if ((e as unknown as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR) reported()
  })
  observer.observe({ entryTypes: ['gc'] })
  hook(1_000)
  assert.ok(youngGeneration().used < before / 2, `collected: ${youngGeneration().used} of ${before} bytes left`)
  // V8's report of it reaches observers asynchronously.
  const bound = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 2_000).unref())
  assert.equal(await Promise.race([minorReported, bound]), true, 'V8 reports a young (minor) collection')
  observer.disconnect()
  assert.equal((globalThis as { gc?: unknown }).gc, undefined, 'the process\'s global gc is not exposed')
})

test('the sequencer tells its idle-time hook how long remains until the next tick, after each automatic tick', async (t) => {
  const node = await devNode(t)
  const clock = new ManualScheduler()
  const told: number[] = []
  const seq = sequencerFor(node, EMPTY_POOL, clock, { ...SEQUENCER_TEST_SETTINGS, mode: 'auto', flashblocksPerBlock: 2 }, { idleTime: (ms) => told.push(ms) })
  await seq.start()
  t.after(() => seq.stop())
  assert.deepEqual(told, [], 'nothing before a tick')
  clock.advance(200)
  await seq.idle()
  assert.deepEqual(told, [200], 'the next tick was set when this one started: a whole interval remains on a clock that did not move')
  clock.advance(200) // the second flashblock seals the block: told once the seal is done too
  await seq.idle()
  assert.deepEqual(told, [200, 200])
  await seq.flashblock() // asked for outside the ticks: not idle time
  assert.deepEqual(told, [200, 200])
})
