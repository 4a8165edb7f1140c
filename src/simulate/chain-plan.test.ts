import { test } from 'node:test'
import assert from 'node:assert/strict'
import { checkLimits, planChain } from './chain-plan.ts'
import { DEFAULT_SIMULATE_SETTINGS, type SimBlockInput, type SimulatePayload } from './types.ts'
import { code } from './test-kit.ts'

const payload = (blocks: SimBlockInput[]): SimulatePayload => ({ blockStateCalls: blocks, traceTransfers: false, validation: false, returnFullTransactions: false })
const empty = (o: SimBlockInput['blockOverrides'] = {}): SimBlockInput => ({ blockOverrides: o, calls: [] })
const BASE = { number: 100n, timestamp: 1_000n }

test('limits: at least one block, at most maxBlocks blocks, calls per block and in all', () => {
  const limits = { maxBlocks: 3, maxCallsPerBlock: 2, maxCalls: 3 }
  const call = { to: new Uint8Array(20) }
  assert.equal(code(() => checkLimits(payload([]), limits)), -32602)
  assert.equal(code(() => checkLimits(payload([empty(), empty(), empty(), empty()]), limits)), -38026)
  assert.equal(code(() => checkLimits(payload([{ calls: [call, call, call] }]), limits)), -38026)
  assert.equal(code(() => checkLimits(payload([{ calls: [call, call] }, { calls: [call, call] }]), limits)), -38026)
  assert.equal(code(() => checkLimits(payload([{ calls: [call, call] }, { calls: [call] }]), limits)), undefined)
  assert.equal(DEFAULT_SIMULATE_SETTINGS.maxBlocks, 256)
})

test('numbers and timestamps default to +1 and +12 s from the block before', () => {
  const plan = planChain([empty(), empty({ time: 1_100n }), empty()], BASE, 256)
  assert.deepEqual(plan.map((b) => [b.number, b.time]), [[101n, 1_012n], [102n, 1_100n], [103n, 1_112n]])
})

test('a number that skips ahead is preceded by empty blocks, 12 s apart', () => {
  const plan = planChain([empty({ number: 104n }), empty()], BASE, 256)
  assert.deepEqual(plan.map((b) => [b.number, b.time, b.calls.length]), [
    [101n, 1_012n, 0],
    [102n, 1_024n, 0],
    [103n, 1_036n, 0],
    [104n, 1_048n, 0],
    [105n, 1_060n, 0],
  ])
})

test('numbers must increase (-38020), timestamps must increase (-38021), the chain may not reach past maxBlocks (-38026)', () => {
  assert.equal(code(() => planChain([empty({ number: 100n })], BASE, 256)), -38020)
  assert.equal(code(() => planChain([empty({ number: 105n }), empty({ number: 103n })], BASE, 256)), -38020)
  assert.equal(code(() => planChain([empty({ time: 1_000n })], BASE, 256)), -38021)
  assert.equal(code(() => planChain([empty({ time: 1_050n }), empty({ time: 1_050n })], BASE, 256)), -38021)
  // The gap blocks take 12 s each, so a time that is early for the filled chain fails.
  assert.equal(code(() => planChain([empty({ number: 103n, time: 1_024n })], BASE, 256)), -38021)
  assert.equal(code(() => planChain([empty({ number: 357n })], BASE, 256)), -38026)
  assert.equal(planChain([empty({ number: 356n })], BASE, 256).length, 256)
})
