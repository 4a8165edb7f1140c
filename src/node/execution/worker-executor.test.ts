/**
 * eth_simulateV1 on the execution workers: the same answers as on the main thread (at `latest` and at a
 * pre-confirmed `pending`), its own time limit and code when a simulation never yields, and the jobs that
 * shared the stopped worker answered all the same; the extra workers taking calls only while their gate is
 * open, and simulations and long calls once they have loaded.
 */

import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { createNode, DEFAULT_NODE_SETTINGS, DEFAULT_SEQUENCER, type FlashNode } from '../create-node.ts'
import { FlashnodeError } from '../../errors/errors.ts'
import { bytesToHex, hexToBytes } from '../../primitives/hex.ts'
import { LATEST, PENDING } from '../../primitives/block-id.ts'
import { ManualScheduler } from '../../sequencer/scheduler.ts'
import { ACCOUNTS, signedTx, testGenesis } from '../../../test/support/dev-chain.ts'
import { tempDir } from '../../../test/support/temp-dir.ts'
import { DEFAULT_SIMULATE_SETTINGS, type SimulatePayload } from '../../simulate/types.ts'
import { simulatedBlocksJson } from '../../format/simulate.ts'
import { WorkerExecutor } from './worker-executor.ts'
import { SpareCoreGate } from './spare-core-gate.ts'
import { LONG_CALL_SECONDS } from './long-calls.ts'
import type { ExecutionJob } from './jobs.ts'

const FUNDED = hexToBytes(ACCOUNTS[1]!.address)
const RECEIVER = hexToBytes('0x00000000000000000000000000000000000000aa')
/** LOG1(topic = CALLVALUE) of nothing, then a value transfer to RECEIVER of half the call's value. */
const EMITTER = hexToBytes('0x34600060006000a160006000600060006002340473' + '00'.repeat(19) + 'aa' + '5af100')
/** The BLAKE2F precompile with 2^24 rounds: seconds of work in one frame that reads no state, so it never yields (the EVM stops it at the deadline). */
const BLAKE2F = hexToBytes('0x0000000000000000000000000000000000000009')
const SPIN_INPUT = hexToBytes(`0x01000000${'00'.repeat(208)}01`)

async function node(t: TestContext, executionWorkers: number, evmTimeoutMs: number = DEFAULT_NODE_SETTINGS.evmTimeoutMs): Promise<FlashNode> {
  const n = await createNode({
    ...DEFAULT_NODE_SETTINGS,
    dataDir: tempDir(t),
    genesis: testGenesis(),
    executionWorkers,
    evmTimeoutMs,
    sequencer: { ...DEFAULT_SEQUENCER, mode: 'manual', scheduler: new ManualScheduler() },
  })
  t.after(() => n.close())
  await n.start()
  return n
}

const emitter = addrOf(0xe1)
function addrOf(n: number): Uint8Array {
  return hexToBytes(`0x${n.toString(16).padStart(40, '0')}`)
}

const payload = (from: Uint8Array): SimulatePayload => ({
  blockStateCalls: [
    { stateOverrides: new Map([[bytesToHex(emitter), { code: EMITTER }]]), calls: [{ from, to: emitter, value: 1_000n }, { from, to: RECEIVER, value: 7n }] },
    { calls: [{ from, to: emitter, value: 10n }] },
  ],
  traceTransfers: true,
  validation: false,
  returnFullTransactions: true,
})

test('simulations on the workers answer what the main thread answers, at latest and at pending', async (t) => {
  const [inline, workers] = await Promise.all([node(t, 0), node(t, 1)])
  for (const n of [inline, workers]) {
    await n.api.sendRawTransaction(signedTx(n, 0, 0n, { to: bytesToHex(RECEIVER), value: 5n, gasLimit: 21_000n }).serialize())
    await n.api.mine()
    await n.api.sendRawTransaction(signedTx(n, 0, 1n, { to: bytesToHex(RECEIVER), value: 6n, gasLimit: 21_000n }).serialize())
    await n.api.flashblock()
  }
  for (const block of [LATEST, PENDING]) {
    const expected = await inline.api.simulateV1(payload(FUNDED), block)
    assert.equal(expected[0]!.calls[0]!.logs.length > 1, true, 'the calls log and transfer')
    assert.deepEqual(await workers.api.simulateV1(payload(FUNDED), block), expected)
    // The answer as text, formatted on the worker: the same text the main thread formats from its blocks.
    const text = simulatedBlocksJson(expected, true)
    assert.equal(await workers.api.simulateV1Json(payload(FUNDED), block), text)
    assert.equal(await inline.api.simulateV1Json(payload(FUNDED), block), text)
  }
})

test('a simulation that never yields is stopped at its time limit with -38026; jobs that shared its worker still answer', async (t) => {
  const n = await node(t, 1, 1_500)
  const spin: SimulatePayload = {
    blockStateCalls: [{ calls: [{ to: BLAKE2F, data: SPIN_INPUT }] }],
    traceTransfers: false,
    validation: false,
    returnFullTransactions: false,
  }
  await n.api.call({ to: RECEIVER, data: new Uint8Array(1) }, LATEST) // (not the call below: the result cache would answer it) the worker has loaded: the time below is the job's, not tsx's start
  const started = performance.now()
  const stopped = n.api.simulateV1(spin, LATEST).then(
    () => assert.fail('expected the time limit'),
    (e: unknown) => e,
  )
  // Dispatched after the spinning one, to the same (only) worker: run again once it is replaced.
  const others = Promise.all([n.api.simulateV1(payload(FUNDED), LATEST), n.api.getBalance(RECEIVER, LATEST), n.api.call({ to: RECEIVER }, LATEST)])
  const e = await stopped
  assert.ok(e instanceof FlashnodeError)
  assert.deepEqual({ code: e.code, message: e.message }, { code: -38026, message: 'execution aborted (timeout = 1500ms)' })
  assert.ok(performance.now() - started < 12_000, 'stopped at the limit plus the grace period')
  const [sim] = await others
  assert.equal(sim.length, 2)
  assert.equal(sim[0]!.calls[0]!.status, 1)
})

test('a simulation running to its time limit on a worker does not hold up a call sharing that worker', async (t) => {
  const n = await node(t, 1, 800)
  await n.api.call({ to: RECEIVER }, LATEST) // the worker is up
  // Many calls of BLAKE2F with 2^15 rounds each (milliseconds apiece): the simulator lets the worker's event
  // loop in between calls (a call itself runs synchronously on our EVM), until its time limit.
  const work = { to: BLAKE2F, data: hexToBytes(`0x00008000${'00'.repeat(208)}01`) }
  const reads: SimulatePayload = {
    blockStateCalls: [{ calls: Array.from({ length: 250 }, () => work) }],
    traceTransfers: false,
    validation: false,
    returnFullTransactions: false,
  }
  let simulationEnded = 0
  const simulation = n.api.simulateV1(reads, LATEST).then(
    () => assert.fail('expected the time limit'),
    (e: unknown) => {
      simulationEnded = performance.now()
      return e
    },
  )
  await new Promise((resolve) => setTimeout(resolve, 50))
  await n.api.call({ to: RECEIVER, data: Uint8Array.of(1) }, LATEST) // not the cached one: it runs
  const callAnswered = performance.now()
  const e = await simulation
  assert.ok(e instanceof FlashnodeError)
  assert.equal(e.code, -38026)
  assert.ok(callAnswered < simulationEnded, 'the call was answered while the simulation ran')
})

test('closing while a worker is still loading with a job on it: the job is refused, nothing is left unhandled', async (t) => {
  const unhandled: unknown[] = []
  const onUnhandled = (e: unknown) => void unhandled.push(e)
  process.on('unhandledRejection', onUnhandled)
  t.after(() => void process.off('unhandledRejection', onUnhandled))
  const n = await createNode({
    ...DEFAULT_NODE_SETTINGS,
    dataDir: tempDir(t),
    genesis: testGenesis(),
    executionWorkers: 1,
    sequencer: { ...DEFAULT_SEQUENCER, mode: 'manual', scheduler: new ManualScheduler() },
  })
  await n.start()
  // Dispatched at once, to a worker that has not finished loading its modules; then the node closes.
  const call = n.api.call({ to: RECEIVER }, LATEST).then(
    () => 'answered',
    (e: unknown) => (e instanceof FlashnodeError ? e.message : String(e)),
  )
  await n.close()
  assert.match(await call, /^(answered|node is shutting down)$/)
  // Rejections not handled within a turn are reported on the next ones.
  await new Promise((resolve) => setImmediate(resolve))
  await new Promise((resolve) => setTimeout(resolve, 0))
  assert.deepEqual(unhandled.map(String), [])
})

/** One worker and one extra behind a gate the test samples by hand; `longCallSeconds` Infinity: the gate alone decides for calls. */
function withExtraWorker(t: TestContext, dataDir: string, longCallSeconds = LONG_CALL_SECONDS): { gate: SpareCoreGate; executor: WorkerExecutor } {
  const gate = new SpareCoreGate()
  const settings = { gasCap: DEFAULT_NODE_SETTINGS.gasCap, evmTimeoutMs: 5_000, simulate: DEFAULT_SIMULATE_SETTINGS }
  const limits = { timeoutMs: 5_000, simulateTimeoutMs: 5_000, graceMs: 1_000, maxQueued: 100, maxInFlight: 4 }
  const executor = new WorkerExecutor({ dataDir, genesis: testGenesis(), settings }, { ...limits, workers: 1, extra: { workers: 1, gate }, longCallSeconds })
  t.after(() => executor.close())
  return { gate, executor }
}

test('an extra worker takes calls only while its gate is open, started the first time it is let in', async (t) => {
  const dataDir = tempDir(t)
  const inline = await createNode({ ...DEFAULT_NODE_SETTINGS, dataDir, genesis: testGenesis() })
  t.after(() => inline.close())
  const { gate, executor } = withExtraWorker(t, dataDir, Infinity)
  // BLAKE2F with a few thousand rounds, each job its own input
  const request = (i: number) => ({ to: BLAKE2F, data: hexToBytes(`0x00001000${i.toString(16).padStart(2, '0').repeat(208)}01`) })
  const job = (i: number): ExecutionJob => ({ kind: 'call', request: request(i) })
  const sealed = { kind: 'sealed', number: 0n } as const
  const batch = async (from: number) => {
    const ids = [from, from + 1, from + 2, from + 3]
    const answers = await Promise.all(ids.map((i) => executor.run(job(i), sealed)))
    for (const [k, i] of ids.entries()) assert.deepEqual(answers[k], await inline.api.call(request(i), LATEST), `job ${i} answers what the main thread answers`)
  }

  await batch(0)
  gate.sample(0.9, true, 4)
  await batch(4)
  assert.deepEqual(executor.stats().jobsPerWorker, [8], 'a closed gate: every job on the one worker, no other started')

  gate.sample(0.1, true, 4)
  gate.sample(0.1, true, 4)
  assert.equal(gate.open, true)
  await batch(8)
  const [first, extra] = executor.stats().jobsPerWorker
  assert.ok(extra !== undefined && extra > 0, 'the extra worker started and took jobs')
  assert.equal(first! + extra, 12)

  gate.sample(0.9, true, 4) // a busy main thread closes it
  await batch(12)
  assert.equal(executor.stats().jobsPerWorker[1], extra, 'closed again: the extra worker takes no more jobs')
})

test('with the gate shut a simulation starts the extra worker and uses it once loaded; calls stay off it', { timeout: 60_000 }, async (t) => {
  const dataDir = tempDir(t)
  const sequencer = { ...DEFAULT_SEQUENCER, mode: 'manual' as const, scheduler: new ManualScheduler() }
  const inline = await createNode({ ...DEFAULT_NODE_SETTINGS, dataDir, genesis: testGenesis(), sequencer })
  t.after(() => inline.close())
  await inline.start()
  const { gate, executor } = withExtraWorker(t, dataDir, Infinity)
  const sealed = { kind: 'sealed', number: 0n } as const
  const expected = simulatedBlocksJson(await inline.api.simulateV1(payload(FUNDED), LATEST), true)
  const simulations = async (): Promise<void> => {
    const answers = await Promise.all([0, 1, 2, 3].map(() => executor.run({ kind: 'simulate', payload: payload(FUNDED), answer: 'json' }, sealed)))
    for (const a of answers) assert.equal(a, expected)
  }

  await simulations()
  assert.equal(gate.open, false)
  assert.deepEqual(executor.stats().jobsPerWorker, [4, 0], 'the extra worker started, and no simulation waited for it to load')
  for (let batch = 0; batch < 100 && executor.stats().jobsPerWorker[1] === 0; batch++) await simulations()
  const extra = executor.stats().jobsPerWorker[1]!
  assert.ok(extra > 0, 'once loaded, the extra worker takes simulations')

  const call = (i: number) => ({ to: BLAKE2F, data: hexToBytes(`0x00000100${i.toString(16).padStart(2, '0').repeat(208)}01`) })
  const answers = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => executor.run({ kind: 'call', request: call(i) }, sealed)))
  for (const [i, a] of answers.entries()) assert.deepEqual(a, await inline.api.call(call(i), LATEST))
  assert.equal(executor.stats().jobsPerWorker[1], extra, 'calls go to the base worker only while the gate is shut')
})

test('with the gate shut a call whose function ran long uses the extra worker once loaded; a short one stays off it', { timeout: 60_000 }, async (t) => {
  const dataDir = tempDir(t)
  const inline = await createNode({ ...DEFAULT_NODE_SETTINGS, dataDir, genesis: testGenesis() })
  t.after(() => inline.close())
  const { gate, executor } = withExtraWorker(t, dataDir)
  const sealed = { kind: 'sealed', number: 0n } as const
  // BLAKE2F's first four bytes are its rounds (and, to the pool, its "selector"): 2^14 rounds run for
  // milliseconds; the short calls take 1 to 6 rounds, each its own selector never seen to run long (one
  // remembered short run that a GC pause made long would otherwise send the next to the extra worker)
  const long = (i: number) => ({ to: BLAKE2F, data: hexToBytes(`0x00004000${i.toString(16).padStart(2, '0').repeat(208)}01`) })
  const short = (i: number) => ({ to: BLAKE2F, data: hexToBytes(`0x000000${(i + 1).toString(16).padStart(2, '0')}${i.toString(16).padStart(2, '0').repeat(208)}01`) })
  const run = async (request: (i: number) => { to: Uint8Array; data: Uint8Array }, ids: number[]): Promise<void> => {
    const answers = await Promise.all(ids.map((i) => executor.run({ kind: 'call', request: request(i) }, sealed)))
    for (const [k, i] of ids.entries()) assert.deepEqual(answers[k], await inline.api.call(request(i), LATEST), `call ${i} answers what the main thread answers`)
  }

  await run(long, [0])
  assert.deepEqual(executor.stats().jobsPerWorker, [1], 'before it ran long once, a call is the gate\'s: the extra worker is not started')
  await run(long, [1, 2, 3, 4])
  assert.equal(gate.open, false)
  assert.equal(executor.stats().jobsPerWorker.length, 2, 'the function ran long: the extra worker started')
  for (let batch = 0; batch < 100 && executor.stats().jobsPerWorker[1] === 0; batch++) await run(long, [5, 6, 7, 8])
  const extra = executor.stats().jobsPerWorker[1]!
  assert.ok(extra > 0, 'once loaded, the extra worker takes the long calls')

  await run(short, [0, 1, 2, 3, 4, 5])
  assert.equal(executor.stats().jobsPerWorker[1], extra, 'short calls go to the base worker only while the gate is shut')
})

test('the executor samples into its gate the jobs that ended since the last sample', { timeout: 30_000 }, async (t) => {
  const dataDir = tempDir(t)
  // a node makes the chain in dataDir, which the executor's worker opens
  const chain = await createNode({ ...DEFAULT_NODE_SETTINGS, dataDir, genesis: testGenesis() })
  t.after(() => chain.close())
  // a gate that records the completions it is given, and says when they add up to what was run
  const seen: number[] = []
  let counted: () => void = () => {}
  const allCounted = new Promise<void>((resolve) => (counted = resolve))
  const gate = new (class extends SpareCoreGate {
    override sample(utilization: number, jobsWaiting: boolean, completed: number): void {
      seen.push(completed)
      if (seen.reduce((a, b) => a + b, 0) >= 6) counted()
      super.sample(utilization, jobsWaiting, completed)
    }
  })()
  const settings = { gasCap: DEFAULT_NODE_SETTINGS.gasCap, evmTimeoutMs: 5_000, simulate: DEFAULT_SIMULATE_SETTINGS }
  const limits = { timeoutMs: 5_000, simulateTimeoutMs: 5_000, graceMs: 1_000, maxQueued: 100, maxInFlight: 4 }
  const executor = new WorkerExecutor({ dataDir, genesis: testGenesis(), settings }, { ...limits, workers: 1, extra: { workers: 1, gate, sampleEveryMs: 5 } })
  t.after(() => executor.close())
  const request = (i: number) => ({ to: RECEIVER, data: hexToBytes(`0x${i.toString(16).padStart(8, '0')}`) })
  await Promise.all([0, 1, 2, 3, 4, 5].map((i) => executor.run({ kind: 'call', request: request(i) }, { kind: 'sealed', number: 0n })))
  const keepAlive = setInterval(() => {}, 1_000) // the executor's sampler is unref'd: hold the loop while it counts
  await allCounted.finally(() => clearInterval(keepAlive))
  assert.equal(seen.reduce((a, b) => a + b, 0), 6, 'each ended job counted once, in the sample after it ended')
})
