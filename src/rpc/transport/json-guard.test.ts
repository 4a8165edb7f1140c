import { test } from 'node:test'
import assert from 'node:assert/strict'
import { exceedsJsonDepth } from './json-guard.ts'
import { Rng } from '../../../test/support/rng.ts'

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

/** The nesting depth of a parsed value: the guard's answer must agree with it at every limit. */
function depthOf(value: unknown): number {
  if (Array.isArray(value)) return 1 + Math.max(0, ...value.map(depthOf))
  if (value !== null && typeof value === 'object') return 1 + Math.max(0, ...Object.values(value).map(depthOf))
  return 0
}

test('random JSON with strings full of quotes, backslashes and brackets: the guard agrees with the parsed depth', () => {
  const rng = new Rng(0x6a73)
  const pieces = ['"', '\\', '[', ']', '{', '}', 'a', '0x', '\u005b', '\n']
  const text = (): string => Array.from({ length: rng.int(12) }, () => rng.pick(pieces)).join('')
  const value = (depth: number): unknown => {
    if (depth === 0 || rng.chance(0.3)) return rng.chance(0.5) ? text() : rng.int(1000)
    const n = rng.int(4)
    if (rng.chance(0.5)) return Array.from({ length: n }, () => value(depth - 1))
    return Object.fromEntries(Array.from({ length: n }, (_, i) => [`${text()}${i}`, value(depth - 1)]))
  }
  for (let i = 0; i < 2_000; i++) {
    const v = value(1 + rng.int(8))
    const json = JSON.stringify(v)
    const depth = depthOf(JSON.parse(json))
    assert.equal(exceedsJsonDepth(json, depth), false, json)
    if (depth > 0) assert.equal(exceedsJsonDepth(json, depth - 1), true, json)
  }
})
