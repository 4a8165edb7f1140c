/**
 * The rate limiter across clock steps (an NTP correction, a suspended VM): a client keeps its tokens. A step
 * back neither adds tokens nor takes any away, and refilling goes on from the clock's new reading; a step
 * forward refills, up to the burst, and never counts the same time twice.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { RateLimiter } from './rate-limiter.ts'

test('a client keeps its tokens across a clock step back and forward', () => {
  let t = 10_000
  const limiter = new RateLimiter({ requestsPerSecond: 1, burst: 5 }, () => t)
  assert.equal(limiter.take('a', 3).ok, true)
  assert.equal(limiter.available('a'), 2)

  t = 4_000 // six seconds back
  assert.equal(limiter.available('a'), 2, 'a step back takes no tokens away and adds none')
  assert.deepEqual(limiter.take('a', 3), { ok: false, retryAfterMs: 1_000 })
  assert.equal(limiter.take('a', 2).ok, true, 'the tokens held before the step are still there to spend')
  assert.equal(limiter.take('a', 1).ok, false)

  t = 5_000
  assert.equal(limiter.available('a'), 1, 'refilling goes on from the new reading, one token a second')
  t = 60_000 // a step forward
  assert.equal(limiter.available('a'), 5, 'a step forward refills up to the burst')
})

test('stepping back and forward to the same time counts no time twice', () => {
  let t = 10_000
  const limiter = new RateLimiter({ requestsPerSecond: 1, burst: 5 }, () => t)
  assert.equal(limiter.take('a', 3).ok, true)
  t = 4_000
  assert.equal(limiter.available('a'), 2)
  t = 10_000
  assert.equal(limiter.available('a'), 2, 'back where it was: the same tokens')
  t = 11_000
  assert.equal(limiter.available('a'), 3)
})
