import { test } from 'node:test'
import assert from 'node:assert/strict'
import { DEFAULT_LIMITS, resolveLimits } from './limits.ts'

test('resolveLimits merges over the defaults', () => {
  assert.deepEqual(resolveLimits(), DEFAULT_LIMITS)
  const limits = resolveLimits({ maxBatchItems: 5, requestTimeoutMs: undefined })
  assert.equal(limits.maxBatchItems, 5)
  assert.equal(limits.requestTimeoutMs, DEFAULT_LIMITS.requestTimeoutMs)
})

test('resolveLimits refuses limits that are not positive integers', () => {
  for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
    assert.throws(() => resolveLimits({ maxDepth: bad }), RangeError, String(bad))
  }
})
