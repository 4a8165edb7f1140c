import { test } from 'node:test'
import assert from 'node:assert/strict'
import { FlashnodeError } from '../../errors/errors.ts'
import { optional, parseArgs, parseBool, required, withDefault } from './args.ts'
import { fail } from './param-error.ts'

const text = (raw: unknown): string => (typeof raw === 'string' ? raw : fail('not text'))

const message = (f: () => unknown): string => {
  try {
    f()
  } catch (e) {
    assert.ok(e instanceof FlashnodeError && e.kind === 'invalidParams', `unexpected ${String(e)}`)
    return e.message
  }
  assert.fail('expected a throw')
}

test('parses in order, fills defaults, leaves optionals undefined', () => {
  assert.deepEqual(parseArgs(['a'], [required(text), withDefault(text, 'dflt'), optional(text)]), ['a', 'dflt', undefined])
  assert.deepEqual(parseArgs(['a', null, 'c'], [required(text), withDefault(text, 'dflt'), optional(text)]), ['a', 'dflt', 'c'])
})

test('too many, missing, and invalid arguments use geth wording', () => {
  assert.equal(message(() => parseArgs(['a', 'b'], [required(text)])), 'too many arguments, want at most 1')
  assert.equal(message(() => parseArgs(['a'], [])), 'too many arguments, want at most 0')
  assert.equal(message(() => parseArgs([], [required(text)])), 'missing value for required argument 0')
  assert.equal(message(() => parseArgs(['a'], [required(text), required(text)])), 'missing value for required argument 1')
  assert.equal(message(() => parseArgs(['a', 3], [required(text), optional(text)])), 'invalid argument 1: not text')
})

test('an invalid argument is reported before a surplus one, as geth decodes left to right', () => {
  assert.equal(message(() => parseArgs([1, 'b'], [required(text)])), 'invalid argument 0: not text')
})

test('bool: null reads false, other kinds are refused', () => {
  assert.deepEqual(parseArgs([true], [required(parseBool)]), [true])
  assert.deepEqual(parseArgs([null], [required(parseBool)]), [false])
  assert.equal(message(() => parseArgs(['true'], [required(parseBool)])), 'invalid argument 0: json: cannot unmarshal string into Go value of type bool')
})
