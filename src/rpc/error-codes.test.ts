import { test } from 'node:test'
import assert from 'node:assert/strict'
import { ERROR_KINDS, FlashnodeError, type ErrorKind } from '../errors/errors.ts'
import { codeForKind, DEFAULT_REVERT_CODE, toJsonRpcError } from './error-codes.ts'

const quiet = { revertCode: DEFAULT_REVERT_CODE, debug: false, log: () => {} }

test('every kind maps to its code', () => {
  const expected: Record<ErrorKind, number> = {
    invalidParams: -32602,
    invalidRequest: -32600,
    methodNotFound: -32601,
    forbidden: -32004,
    executionReverted: -32000,
    executionFailed: -32000,
    transactionRejected: -32000,
    executionTimeout: -32000,
    requestTimeout: -32002,
    notFound: -32000,
    limitExceeded: -32005,
    responseTooLarge: -32003,
    internal: -32603,
  }
  for (const kind of ERROR_KINDS) assert.equal(codeForKind(kind), expected[kind], kind)
})

test('the revert code is a setting', () => {
  assert.equal(DEFAULT_REVERT_CODE, -32000)
  const err = new FlashnodeError('executionReverted', 'execution reverted', { data: '0x08c379a0' })
  assert.deepEqual(toJsonRpcError(err, { ...quiet, revertCode: 3 }), {
    code: 3,
    message: 'execution reverted',
    data: '0x08c379a0',
  })
  assert.equal(codeForKind('executionFailed', 3), -32000, 'only reverts follow the setting')
})

test('a revert is worded as its code says: exactly `execution reverted` under the contract\'s code, geth\'s `execution reverted: reason` under 3', () => {
  const data = '0x08c379a0'
  const reverted = new FlashnodeError('executionReverted', 'execution reverted: probe: refused', { data })
  assert.deepEqual(toJsonRpcError(reverted, quiet), { code: -32000, message: 'execution reverted', data })
  assert.deepEqual(toJsonRpcError(reverted, { ...quiet, revertCode: 3 }), { code: 3, message: 'execution reverted: probe: refused', data })
  const plain = new FlashnodeError('executionReverted', 'execution reverted', { data: '0x' })
  assert.deepEqual(toJsonRpcError(plain, { ...quiet, revertCode: 3 }), { code: 3, message: 'execution reverted', data: '0x' })
  assert.equal(toJsonRpcError(new FlashnodeError('executionFailed', 'out of gas'), quiet).message, 'out of gas', 'only reverts')
})

test("an error's own code wins over the table and the revert setting", () => {
  assert.equal(toJsonRpcError(new FlashnodeError('limitExceeded', 'x', { code: -38026 }), quiet).code, -38026)
  assert.equal(toJsonRpcError(new FlashnodeError('executionReverted', 'x', { code: 3 }), { ...quiet, revertCode: -32000 }).code, 3)
})

test('data is omitted when undefined and kept when falsy', () => {
  assert.equal('data' in toJsonRpcError(new FlashnodeError('notFound', 'header not found'), quiet), false)
  assert.deepEqual(toJsonRpcError(new FlashnodeError('notFound', 'x', { data: null }), quiet), {
    code: -32000,
    message: 'x',
    data: null,
  })
})

test('other thrown values are -32603 internal error, logged, details only in debug', () => {
  const logged: unknown[] = []
  const log = (_m: string, e: unknown): void => {
    logged.push(e)
  }
  const secret = new Error('ENOENT /home/node/secret')
  assert.deepEqual(toJsonRpcError(secret, { ...quiet, log }), { code: -32603, message: 'internal error' })
  assert.deepEqual(toJsonRpcError('a string', { ...quiet, log }), { code: -32603, message: 'internal error' })
  assert.deepEqual(toJsonRpcError(undefined, { ...quiet, log }), { code: -32603, message: 'internal error' })
  assert.deepEqual(logged, [secret, 'a string', undefined])
  const debug = toJsonRpcError(secret, { ...quiet, debug: true, log })
  assert.equal(debug.message, 'internal error: ENOENT /home/node/secret')
  assert.match(String(debug.data), /^Error: ENOENT/)
})

test('a FlashnodeError internal keeps its safe message and is logged', () => {
  const logged: unknown[] = []
  const err = new FlashnodeError('internal', 'database unavailable', { cause: new Error('disk') })
  assert.deepEqual(toJsonRpcError(err, { ...quiet, log: (_m, e) => logged.push(e) }), {
    code: -32603,
    message: 'database unavailable',
  })
  assert.deepEqual(logged, [err])
})

test('a throwing logger does not break the mapping', () => {
  const out = toJsonRpcError(new Error('x'), {
    ...quiet,
    log: () => {
      throw new Error('logger down')
    },
  })
  assert.deepEqual(out, { code: -32603, message: 'internal error' })
})
