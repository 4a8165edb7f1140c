import { test } from 'node:test'
import assert from 'node:assert/strict'
import { cacheKey, ResultCache } from './result-cache.ts'
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

test('calls with kilobytes of calldata are keyed by a digest: the same long call hits, one byte apart misses, the key stays short', async () => {
  const cache = new ResultCache(100)
  let runs = 0
  const run = async () => Uint8Array.of(++runs)
  const long = (last: number): ExecutionJob => {
    const data = new Uint8Array(10_000).fill(0xab)
    data[data.length - 1] = last
    return { kind: 'call', request: { to: new Uint8Array(20), data, gas: 100n } }
  }
  assert.deepEqual(await cache.through('t', long(1), executing(run), TARGET), Uint8Array.of(1))
  assert.deepEqual(await cache.through('t', long(1), executing(run), TARGET), Uint8Array.of(1))
  assert.deepEqual(await cache.through('t', long(2), executing(run), TARGET), Uint8Array.of(2))
  assert.deepEqual(await cache.through('u', long(1), executing(run), TARGET), Uint8Array.of(3), 'another target is another key')
  assert.equal(runs, 3)
  assert.ok(cacheKey('t', 'x'.repeat(20_000)).length < 64, 'a long text becomes a short key')
  // U+0101 and U+0001 share their low byte: a latin1 digest would see the same bytes
  assert.notEqual(cacheKey('t', `${'x'.repeat(20_000)}\u0101`), cacheKey('t', `${'x'.repeat(20_000)}\u0001`), 'texts beyond latin1 stay distinct')
  assert.equal(cacheKey('t', 'short'), 't|short')
})

test('calldata on both sides of the length past which its bytes are digested: equal bytes hit, one byte apart misses', async () => {
  const cache = new ResultCache(1000)
  let runs = 0
  const run = async () => Uint8Array.of(++runs & 0xff)
  const call = (length: number, at: number, value: number, gas = 100n): ExecutionJob => {
    const data = new Uint8Array(length).fill(0x5a)
    if (length > 0) data[at] = value
    return { kind: 'call', request: { to: new Uint8Array(20), data, gas } }
  }
  for (const length of [0, 1, 511, 512, 513, 2048, 13_000]) {
    const before = runs
    const first = await cache.through('t', call(length, 0, 1), executing(run), TARGET)
    assert.deepEqual(await cache.through('t', call(length, 0, 1), executing(run), TARGET), first, `${length} bytes: the same call hits`)
    assert.equal(runs, before + 1)
    if (length === 0) continue
    await cache.through('t', call(length, 0, 2), executing(run), TARGET)
    await cache.through('t', call(length, length - 1, 3), executing(run), TARGET)
    await cache.through('t', call(length, 0, 1, 101n), executing(run), TARGET)
    assert.equal(runs, before + 4, `${length} bytes: a first byte, a last byte or the gas apart each run`)
  }
})
