/**
 * The sequencer's two clocks: the manual one tests drive (due callbacks in time order, ties in the order they
 * were set, cancelled ones never, time left at the target) and the real one (timers that can be cancelled).
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { ManualScheduler, realScheduler } from './scheduler.ts'

test('the manual clock runs due callbacks in time order, ties in the order set, and never a cancelled one', () => {
  const clock = new ManualScheduler(1_000)
  assert.equal(new ManualScheduler().now(), 1_700_000_000_000, 'a fixed default start')
  const ran: string[] = []
  clock.after(30, () => ran.push(`c@${clock.now()}`))
  clock.after(10, () => ran.push(`a@${clock.now()}`))
  clock.after(10, () => ran.push(`b@${clock.now()}`))
  for (const x of ['b2', 'b3', 'b4']) clock.after(10, () => ran.push(`${x}@${clock.now()}`))
  const cancel = clock.after(20, () => ran.push('cancelled'))
  clock.after(50, () => ran.push('later'))
  cancel()
  clock.advance(40)
  assert.deepEqual(ran, ['a@1010', 'b@1010', 'b2@1010', 'b3@1010', 'b4@1010', 'c@1030'])
  assert.equal(clock.now(), 1_040, 'time is the target once due callbacks ran')
})

test('a callback the manual clock runs may set another, which runs in the same advance when due', () => {
  const clock = new ManualScheduler(0)
  const ran: number[] = []
  const every10 = () => {
    ran.push(clock.now())
    clock.after(10, every10)
  }
  clock.after(10, every10)
  clock.advance(35)
  assert.deepEqual(ran, [10, 20, 30])
  clock.advance(5)
  assert.deepEqual(ran, [10, 20, 30, 40], 'exactly due at the target runs')
})

test('the real clock tells the time and runs a timer once, unless cancelled', async () => {
  const before = Date.now()
  const now = realScheduler.now()
  assert.ok(now >= before && now <= Date.now())
  let cancelledRan = false
  const cancel = realScheduler.after(1, () => (cancelledRan = true))
  cancel()
  // The real clock's timers are unref'd (they never hold a stopping node up), so the test holds the event loop
  // open itself while it waits; otherwise the runner may find nothing left to run and abandon the wait.
  const hold = setTimeout(() => undefined, 1_000)
  await new Promise<void>((resolve) => realScheduler.after(5, resolve))
  clearTimeout(hold)
  assert.equal(cancelledRan, false)
})
