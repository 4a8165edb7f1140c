/**
 * The pool's event emitter and its hold-back queue: listeners run in order, one that throws stops neither the
 * others nor the emitter (its error surfaces as an uncaught exception), removal works once; queued events wait
 * for flush, are not queued without a listener, and a listener's re-entrant flush keeps the order.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Emitter, EventQueue } from './emitter.ts'

type Events = { tick: [n: number]; other: [] }

test('listeners run in registration order; a throwing one stops nothing and its error is rethrown later', () => {
  const e = new Emitter<Events>()
  const seen: string[] = []
  e.on('tick', (n) => seen.push(`a${n}`))
  e.on('tick', () => {
    throw new Error('listener bug')
  })
  const offC = e.on('tick', (n) => seen.push(`c${n}`))
  // The error is rethrown from a microtask (uncaught on purpose); catch that task here instead.
  const later: Array<() => void> = []
  const queue = globalThis.queueMicrotask
  globalThis.queueMicrotask = (fn) => later.push(fn)
  try {
    e.emit('tick', 1)
  } finally {
    globalThis.queueMicrotask = queue
  }
  assert.deepEqual(seen, ['a1', 'c1'], 'the emitter went on past the throwing listener')
  assert.equal(later.length, 1)
  assert.throws(later[0]!, /listener bug/)
  assert.equal(e.listenerCount('tick'), 3)
  offC()
  offC()
  assert.equal(e.listenerCount('tick'), 2, 'removed once; removing again changes nothing')
  assert.equal(e.listenerCount('other'), 0)
  e.emit('other')
})

test('a listener removed while an event is being emitted still gets that event, not the next', () => {
  const e = new Emitter<Events>()
  const seen: number[] = []
  let off = () => {}
  e.on('tick', () => off())
  off = e.on('tick', (n) => seen.push(n))
  e.emit('tick', 1)
  e.emit('tick', 2)
  assert.deepEqual(seen, [1])
})

test('queued events wait for flush, in order; nothing is queued without a listener; a re-entrant flush keeps the order', () => {
  const e = new Emitter<Events>()
  const q = new EventQueue(e)
  q.push('tick', 0) // no listener yet: dropped
  const seen: number[] = []
  e.on('tick', (n) => {
    seen.push(n)
    if (n === 1) {
      q.push('tick', 3)
      q.flush() // re-entrant: left to the outer flush
      seen.push(-1)
    }
  })
  q.push('tick', 1)
  q.push('tick', 2)
  assert.deepEqual(seen, [], 'held back until flush')
  q.flush()
  assert.deepEqual(seen, [1, -1, 2, 3])
  q.flush()
  assert.deepEqual(seen, [1, -1, 2, 3], 'flushed events are not emitted twice')
})
