import { test } from 'node:test'
import assert from 'node:assert/strict'
import { RateLimiter } from './rate-limiter.ts'

function clock(): { now: () => number; advance: (ms: number) => void } {
  let t = 1_000
  return { now: () => t, advance: (ms) => (t += ms) }
}

test('a client gets its burst at once, then requestsPerSecond', () => {
  const c = clock()
  const limiter = new RateLimiter({ requestsPerSecond: 2, burst: 3 }, c.now)
  for (let i = 0; i < 3; i++) assert.deepEqual(limiter.take('a', 1), { ok: true })
  assert.deepEqual(limiter.take('a', 1), { ok: false, retryAfterMs: 500 })
  c.advance(499)
  assert.equal(limiter.take('a', 1).ok, false)
  c.advance(1)
  assert.equal(limiter.take('a', 1).ok, true)
  c.advance(60_000)
  assert.equal(limiter.available('a'), 3, 'refills up to the burst, no further')
})

test('clients are limited separately', () => {
  const c = clock()
  const limiter = new RateLimiter({ requestsPerSecond: 1, burst: 1 }, c.now)
  assert.equal(limiter.take('a', 1).ok, true)
  assert.equal(limiter.take('a', 1).ok, false)
  assert.equal(limiter.take('b', 1).ok, true)
})

test('a batch takes one token per item, all or nothing', () => {
  const c = clock()
  const limiter = new RateLimiter({ requestsPerSecond: 10, burst: 5 }, c.now)
  assert.equal(limiter.take('a', 4).ok, true)
  assert.deepEqual(limiter.take('a', 2), { ok: false, retryAfterMs: 100 })
  assert.equal(limiter.available('a'), 1, 'a refused batch takes nothing')
  assert.equal(limiter.take('a', 1).ok, true)
  assert.deepEqual(limiter.take('b', 6), { ok: false, retryAfterMs: Number.POSITIVE_INFINITY }, 'more than the burst never passes')
})

test('a clock that goes backwards adds no tokens', () => {
  let t = 5_000
  const limiter = new RateLimiter({ requestsPerSecond: 1, burst: 1 }, () => t)
  assert.equal(limiter.take('a', 1).ok, true)
  t = 0
  assert.equal(limiter.take('a', 1).ok, false)
})

test('memory is bounded: the least recently seen client is evicted', () => {
  const c = clock()
  const limiter = new RateLimiter({ requestsPerSecond: 1, burst: 1 }, c.now, 3)
  for (const client of ['a', 'b', 'c']) assert.equal(limiter.take(client, 1).ok, true)
  assert.equal(limiter.take('a', 1).ok, false, 'a is refused (and that does not refresh it)')
  assert.equal(limiter.take('d', 1).ok, true)
  assert.equal(limiter.clients(), 3)
  assert.equal(limiter.take('b', 1).ok, false, 'b is kept')
  assert.equal(limiter.take('a', 1).ok, true, 'a was the least recently admitted, so it was evicted')
})

test('nonsense settings are refused', () => {
  assert.throws(() => new RateLimiter({ requestsPerSecond: 0, burst: 1 }), /requestsPerSecond/)
  assert.throws(() => new RateLimiter({ requestsPerSecond: 1, burst: 0.5 }), /burst/)
})
