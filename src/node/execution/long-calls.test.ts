import { test } from 'node:test'
import assert from 'node:assert/strict'
import { LONG_CALL_SECONDS, LongCalls } from './long-calls.ts'
import type { ExecutionJob } from './jobs.ts'

const contract = (n: number): Uint8Array => new Uint8Array(20).fill(n)
const call = (to: Uint8Array | undefined, data?: Uint8Array): ExecutionJob => ({ kind: 'call', request: { ...(to === undefined ? {} : { to }), ...(data === undefined ? {} : { data }) } })
const selector = (s: number, args = 0): Uint8Array => Uint8Array.of(0, 0, 0, s, ...new Array<number>(args).fill(7))

test('a call is long when its contract and selector ran at least the mark last time, whatever its arguments', () => {
  const calls = new LongCalls()
  const job = call(contract(1), selector(1, 32))
  assert.equal(calls.isLong(job), false, 'never ran')
  calls.record(job, LONG_CALL_SECONDS)
  assert.equal(calls.isLong(job), true)
  assert.equal(calls.isLong(call(contract(1), selector(1, 64))), true, 'other arguments, same function')
  assert.equal(calls.isLong(call(contract(1), selector(2, 32))), false, 'another function')
  assert.equal(calls.isLong(call(contract(2), selector(1, 32))), false, 'another contract')
  calls.record(call(contract(1), selector(1)), LONG_CALL_SECONDS / 10)
  assert.equal(calls.isLong(job), false, 'the last run was short')
})

test('only calls to a contract count: creations, estimates, access lists and simulations never do', () => {
  const calls = new LongCalls()
  const creation = call(undefined, selector(1))
  calls.record(creation, 1)
  assert.equal(calls.isLong(creation), false)
  const estimate: ExecutionJob = { kind: 'estimateGas', request: { to: contract(1), data: selector(1) } }
  calls.record(estimate, 1)
  assert.equal(calls.isLong(estimate), false)
  assert.equal(calls.isLong(call(contract(1), selector(1))), false, 'an estimate teaches nothing about calls')
  const noData = call(contract(3))
  calls.record(noData, 1)
  assert.equal(calls.isLong(noData), true, 'a call without data is known by its contract')
})
