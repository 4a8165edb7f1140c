import { test } from 'node:test'
import assert from 'node:assert/strict'
import { ResultCache } from './result-cache.ts'
import { FlashnodeError } from '../../errors/errors.ts'
import type { ExecutionJob, ExecutionTarget, JobResult } from './jobs.ts'

const TARGET: ExecutionTarget = { kind: 'sealed', number: 1n }
/** An executor whose every run is `run()`. */
const executing = (run: () => Promise<JobResult>) => ({ run })

const job = (data: number): ExecutionJob => ({ kind: 'call', request: { to: new Uint8Array(20), data: Uint8Array.of(data), gas: 100n } })

test('the same call against the same target runs once; another target or request runs again', async () => {
  const cache = new ResultCache(100)
  let runs = 0
  const run = async () => Uint8Array.of(++runs)
  assert.deepEqual(await cache.through('block-a', job(1), executing(run), TARGET), Uint8Array.of(1))
  assert.deepEqual(await cache.through('block-a', job(1), executing(run), TARGET), Uint8Array.of(1))
  assert.deepEqual(await cache.through('block-b', job(1), executing(run), TARGET), Uint8Array.of(2))
  assert.deepEqual(await cache.through('block-a', job(2), executing(run), TARGET), Uint8Array.of(3))
  assert.equal(runs, 3)
})

test('a revert is remembered; a time limit is not', async () => {
  const cache = new ResultCache(100)
  let runs = 0
  const revert = async () => {
    runs++
    throw new FlashnodeError('executionReverted', 'execution reverted', { data: '0x' })
  }
  await assert.rejects(cache.through('t', job(1), executing(revert), TARGET), /reverted/)
  await assert.rejects(cache.through('t', job(1), executing(revert), TARGET), /reverted/)
  assert.equal(runs, 1)
  const timeout = async () => {
    runs++
    throw new FlashnodeError('executionTimeout', 'execution aborted (timeout = 5s)')
  }
  await assert.rejects(cache.through('t', job(2), executing(timeout), TARGET))
  await assert.rejects(cache.through('t', job(2), executing(timeout), TARGET))
  assert.equal(runs, 3)
})

test('overrides are part of the key', async () => {
  const cache = new ResultCache(100)
  let runs = 0
  const run = async () => BigInt(++runs)
  const base = job(1)
  const withOverride: ExecutionJob = { ...base, state: new Map([['0xaa', { balance: 1n }]]) } as ExecutionJob
  const withOther: ExecutionJob = { ...base, state: new Map([['0xaa', { balance: 2n }]]) } as ExecutionJob
  await cache.through('t', base, executing(run), TARGET)
  await cache.through('t', withOverride, executing(run), TARGET)
  await cache.through('t', withOther, executing(run), TARGET)
  await cache.through('t', withOverride, executing(run), TARGET)
  assert.equal(runs, 3)
})
