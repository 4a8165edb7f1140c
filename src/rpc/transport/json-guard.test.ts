import { test } from 'node:test'
import assert from 'node:assert/strict'
import { exceedsJsonDepth } from './json-guard.ts'

const nested = (n: number, open = '[', close = ']'): string => open.repeat(n) + close.repeat(n)

test('depth equal to the limit passes, one more fails', () => {
  assert.equal(exceedsJsonDepth(nested(128), 128), false)
  assert.equal(exceedsJsonDepth(nested(129), 128), true)
})

test('objects and arrays both count', () => {
  assert.equal(exceedsJsonDepth('{"a":[{"b":[1]}]}', 4), false)
  assert.equal(exceedsJsonDepth('{"a":[{"b":[1]}]}', 3), true)
})

test('siblings do not add up', () => {
  assert.equal(exceedsJsonDepth('[' + '[],'.repeat(1000) + '[]]', 2), false)
})

test('brackets inside strings are ignored', () => {
  const text = JSON.stringify({ method: '[[[[{{{{', params: ['[[[[[[', '}}}}'] })
  assert.equal(exceedsJsonDepth(text, 2), false)
})

test('escaped quotes do not end a string', () => {
  // The string is: a"[[[[  (the \" must not close it)
  assert.equal(exceedsJsonDepth('["a\\"[[[["]', 1), false)
})

test('an escaped backslash before a quote does end the string', () => {
  // The string is a single backslash; the [[[ after it is real nesting.
  assert.equal(exceedsJsonDepth('["\\\\",[[[]]]]', 3), true)
  assert.equal(exceedsJsonDepth('["\\\\",[[[]]]]', 4), false)
})

test('unicode escapes are skipped safely', () => {
  assert.equal(exceedsJsonDepth('["\\u005b\\u005b\\u0022[[["]', 1), false)
})

test('scalars and empty input pass', () => {
  assert.equal(exceedsJsonDepth('', 1), false)
  assert.equal(exceedsJsonDepth('12', 1), false)
  assert.equal(exceedsJsonDepth('"[[[["', 0), false)
})

test('a huge flat body is scanned linearly', () => {
  const text = JSON.stringify(['x'.repeat(5_000_000)])
  assert.equal(exceedsJsonDepth(text, 1), false)
})
