import { test } from 'node:test'
import assert from 'node:assert/strict'
import { reason } from './test-kit.ts'
import { parseBlockCount, parseRewardPercentiles } from './fees.ts'

test('block count: hex, decimal string, JSON number, leading zeros', () => {
  assert.equal(parseBlockCount('0x10'), 16)
  assert.equal(parseBlockCount('10'), 10)
  assert.equal(parseBlockCount(4), 4)
  assert.equal(parseBlockCount('0x01'), 1)
  assert.equal(parseBlockCount(''), 0)
  assert.equal(parseBlockCount('0xffffffffffffffff'), Number.MAX_SAFE_INTEGER)
  assert.equal(reason(() => parseBlockCount('abc')), 'invalid hex or decimal integer "abc"')
  assert.equal(reason(() => parseBlockCount(1.5)), 'invalid hex or decimal integer "1.5"')
  assert.equal(reason(() => parseBlockCount('-1')), 'invalid hex or decimal integer "-1"')
  assert.equal(reason(() => parseBlockCount('0x10000000000000000')), 'invalid hex or decimal integer "0x10000000000000000"')
})

test('percentiles: in [0, 100], strictly ascending, at most 100', () => {
  assert.deepEqual(parseRewardPercentiles([0, 25.5, 100]), [0, 25.5, 100])
  assert.deepEqual(parseRewardPercentiles([]), [])
  assert.equal(reason(() => parseRewardPercentiles([101])), 'invalid reward percentile: 101.000000')
  assert.equal(reason(() => parseRewardPercentiles([-1])), 'invalid reward percentile: -1.000000')
  assert.equal(reason(() => parseRewardPercentiles([50, 40])), 'invalid reward percentile: #0:50.000000 >= #1:40.000000')
  assert.equal(reason(() => parseRewardPercentiles([10, 10])), 'invalid reward percentile: #0:10.000000 >= #1:10.000000')
  const many = Array.from({ length: 101 }, (_, i) => i * 0.5)
  assert.equal(reason(() => parseRewardPercentiles(many)), 'invalid reward percentile: over the query limit 100')
  assert.equal(reason(() => parseRewardPercentiles(['10'])), 'json: cannot unmarshal string into Go value of type float64')
  assert.equal(reason(() => parseRewardPercentiles('10')), 'json: cannot unmarshal string into Go value of type []float64')
})
