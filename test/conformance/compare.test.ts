/**
 * Unit tests of the rpc-compat comparison rules (compare.ts): each rule is shown to FAIL a mismatch, not
 * only to pass a match, including where `error.message` is and is not ignored.
 */

import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { firstDifference, formatDifference, matches } from './compare.ts'

const ok = (result: unknown) => ({ jsonrpc: '2.0', id: 1, result })

describe('compare: structure', () => {
  test('equal values match; key order is free', () => {
    assert.equal(matches({ a: 1, b: { c: '0x1', d: [true, null] } }, { b: { d: [true, null], c: '0x1' }, a: 1 }), true)
    assert.equal(matches(ok('0xffee'), { result: '0xffee', id: 1, jsonrpc: '2.0' }), true)
  })

  test('an extra field fails', () => {
    const d = firstDifference(ok({ status: '0x1' }), ok({ status: '0x1', root: '0x00' }))
    assert.deepEqual(d, { path: '$.result.root', kind: 'extra', expected: undefined, actual: '0x00' })
    assert.equal(matches({ jsonrpc: '2.0', id: 1, result: null }, { jsonrpc: '2.0', id: 1, result: null, error: null }), false)
  })

  test('a missing field fails', () => {
    const d = firstDifference(ok({ status: '0x1', logs: [] }), ok({ status: '0x1' }))
    assert.deepEqual(d, { path: '$.result.logs', kind: 'missing', expected: [], actual: undefined })
  })

  test('null is not a missing field, and a missing field is not null', () => {
    assert.equal(matches({ to: null }, {}), false)
    assert.equal(matches({}, { to: null }), false)
  })

  test('hex strings are compared byte for byte', () => {
    const d = firstDifference(ok('0x01'), ok('0x1'))
    assert.deepEqual(d, { path: '$.result', kind: 'value', expected: '0x01', actual: '0x1' })
    assert.equal(matches(ok('0xab'), ok('0xAB')), false)
    assert.equal(matches(ok('0x'), ok('0x0')), false)
    assert.equal(matches(ok('0x0'), ok('0x00')), false)
  })

  test('types must match: a number is not its hex string, a string is not a number', () => {
    assert.equal(firstDifference(ok('0x1'), ok(1))?.kind, 'type')
    assert.equal(firstDifference({ id: 1 }, { id: '1' })?.kind, 'type')
    assert.equal(firstDifference(ok([]), ok({}))?.kind, 'type')
    assert.equal(firstDifference(ok({}), ok(null))?.kind, 'type')
    assert.equal(firstDifference(ok(false), ok(0))?.kind, 'type')
  })

  test('arrays: length and order count', () => {
    assert.deepEqual(firstDifference(ok(['0x1', '0x2']), ok(['0x1'])), {
      path: '$.result',
      kind: 'length',
      expected: 2,
      actual: 1,
    })
    assert.deepEqual(firstDifference(ok(['0x1', '0x2']), ok(['0x2', '0x1']))?.path, '$.result[0]')
  })

  test('the first difference has a readable path through arrays and odd keys', () => {
    const expected = ok([{ logs: [{ topics: ['0xaa'] }], 'weird-key': 1 }])
    const actual = ok([{ logs: [{ topics: ['0xab'] }], 'weird-key': 1 }])
    const d = firstDifference(expected, actual)
    assert.equal(d?.path, '$.result[0].logs[0].topics[0]')
    assert.equal(firstDifference({ 'weird-key': 1 }, { 'weird-key': 2 })?.path, '$["weird-key"]')
    assert.equal(formatDifference(d!), '$.result[0].logs[0].topics[0]: value differs: expected "0xaa", got "0xab"')
  })

  test('formatDifference names each kind and truncates long values', () => {
    assert.match(formatDifference(firstDifference({ a: 1 }, {})!), /^\$\.a: missing field \(expected 1\)$/)
    assert.match(formatDifference(firstDifference({}, { b: 'x' })!), /^\$\.b: extra field \(got "x"\)$/)
    assert.match(formatDifference(firstDifference([1], [1, 2])!), /array length differs: expected 1, got 2/)
    assert.match(formatDifference(firstDifference('0x1', 1)!), /type differs: expected string "0x1", got number 1/)
    const long = formatDifference(firstDifference(`0x${'0'.repeat(1000)}`, '0x')!)
    assert.ok(long.length < 400, long)
    assert.match(long, /… \(1004 chars\)/)
  })
})

describe('compare: error objects (rule 3)', () => {
  const revert = (message: string, extra: Record<string, unknown> = {}) => ({
    jsonrpc: '2.0',
    id: 1,
    error: { code: 3, message, data: '0x4e487b71', ...extra },
  })

  test('error.message is ignored when both sides have an error object', () => {
    assert.equal(matches(revert('execution reverted: assert(false)'), revert('execution reverted')), true)
  })

  test('... even when one side has no message at all', () => {
    const { message: _dropped, ...noMessage } = revert('x').error
    assert.equal(matches(revert('execution reverted'), { jsonrpc: '2.0', id: 1, error: noMessage }), true)
    assert.equal(matches({ jsonrpc: '2.0', id: 1, error: noMessage }, revert('execution reverted')), true)
  })

  test('error.code and error.data must still match', () => {
    assert.deepEqual(firstDifference(revert('m'), { ...revert('m'), error: { code: -32000, message: 'm', data: '0x4e487b71' } }), {
      path: '$.error.code',
      kind: 'value',
      expected: 3,
      actual: -32000,
    })
    assert.equal(firstDifference(revert('m'), { ...revert('m'), error: { code: 3, message: 'm', data: '0x4e487b7100' } })?.path, '$.error.data')
    assert.equal(firstDifference(revert('m'), { ...revert('m'), error: { code: 3, message: 'm' } })?.kind, 'missing')
    assert.equal(firstDifference(revert('m'), revert('m', { extra: 1 }))?.path, '$.error.extra')
  })

  test('an error on one side only fails, message and all', () => {
    assert.equal(firstDifference(revert('m'), ok('0x'))?.path, '$.error') // missing
    assert.equal(firstDifference(ok('0x'), revert('m'))?.path, '$.result') // missing result, checked first
    assert.deepEqual(firstDifference({ jsonrpc: '2.0', id: 1 }, revert('m'))?.kind, 'extra')
    // Not an error object on the actual side: nothing is dropped, so the type difference shows.
    assert.equal(firstDifference(revert('m'), { jsonrpc: '2.0', id: 1, error: 'execution reverted' })?.kind, 'type')
  })

  test('`message` outside an error object is compared', () => {
    assert.equal(matches(ok({ message: 'a' }), ok({ message: 'b' })), false)
    assert.equal(firstDifference(ok({ message: 'a' }), ok({}))?.kind, 'missing')
    // A key named `error` that holds a string on both sides is an ordinary field.
    assert.equal(matches(ok({ error: 'a' }), ok({ error: 'b' })), false)
  })

  test('only the error object itself loses its message, not objects nested inside it', () => {
    const e = { error: { code: 1, message: 'x', data: { message: 'inner' } } }
    assert.equal(matches(e, { error: { code: 1, message: 'y', data: { message: 'inner' } } }), true)
    assert.equal(firstDifference(e, { error: { code: 1, message: 'y', data: { message: 'other' } } })?.path, '$.error.data.message')
  })

  test('nested error objects (eth_simulateV1 calls) lose their message at any depth', () => {
    const sim = (message: string, code: number) =>
      ok([{ number: '0x37', calls: [{ status: '0x1' }, { status: '0x0', error: { code, message, data: '0x' } }] }])
    assert.equal(matches(sim('execution reverted', 3), sim('reverted: something else', 3)), true)
    assert.deepEqual(firstDifference(sim('execution reverted', 3), sim('execution reverted', -32000)), {
      path: '$.result[0].calls[1].error.code',
      kind: 'value',
      expected: 3,
      actual: -32000,
    })
    // An error nested inside an error is handled at its own level too.
    const inner = (message: string) => ({ error: { code: 1, message: 'outer', data: { error: { code: 2, message } } } })
    assert.equal(matches(inner('a'), inner('b')), true)
  })

  test('a nested error on one side only fails', () => {
    const withErr = ok([{ calls: [{ status: '0x0', error: { code: 3, message: 'x' } }] }])
    const without = ok([{ calls: [{ status: '0x0' }] }])
    assert.equal(firstDifference(withErr, without)?.path, '$.result[0].calls[0].error')
    assert.equal(firstDifference(without, withErr)?.kind, 'extra')
  })
})
