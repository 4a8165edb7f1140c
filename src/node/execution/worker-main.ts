/**
 * An execution worker: runs eth_call / estimate / access-list / simulate jobs off the node's main thread,
 * so a long execution never holds up other requests, and a runaway one can be stopped by terminating the
 * worker. Jobs run concurrently when the node sends several: each yields between state reads (its
 * cooperative deadline), so a long one does not hold up the others here either.
 *
 * It opens the same LMDB environment read-only-in-practice (it never writes) and keeps a replica of the
 * newest pre-confirmed snapshot, sent by the node only when a pending job needs a newer one than it holds.
 * A job's target is resolved when its message arrives, so a newer replica never changes a running job.
 * Each answer carries the gas and EVM seconds of the job's runs (a meter per job), for the node's metrics.
 *
 * Invariant: nothing is read at a block before this thread's view of the database holds it. The node commits
 * a block before it posts a job naming it, but this thread reads through an LMDB read transaction that may
 * be older (storage/db.ts, refreshReads): a job at a just-sealed block found no header (-32603), and its
 * state reads would have answered, and the history cache remembered, an older block's state.
 */

import { parentPort, workerData } from 'node:worker_threads'
import { FlashnodeError } from '../../errors/errors.ts'
import { LmdbStore } from '../../storage/db.ts'
import { ChainStore } from '../../chain/chain-store.ts'
import { ChainRules, type GethGenesis } from '../../execution/chain-config.ts'
import { stateFromWire, type WireSnapshot } from '../../preconf/wire.ts'
import { ChainReader } from '../chain-reader.ts'
import { CallService, type CallSettings, type TargetState } from './call-service.ts'
import type { ExecutionJob } from './jobs.ts'
import { pendingTarget, sealedTarget } from './targets.ts'
import { errorToWire } from './wire.ts'
import { EvmMeter } from '../../execution/evm-meter.ts'
import { READY } from '../worker-lane.ts'
import { answerMemoryRequests } from '../thread-memory.ts'
import { failpointStall } from '../../primitives/failpoints.ts'

export interface WorkerInit {
  readonly dataDir: string
  readonly genesis: GethGenesis
  readonly settings: CallSettings
}

export type WorkerTarget =
  | { readonly kind: 'sealed'; readonly number: bigint }
  | { readonly kind: 'pending'; readonly version: number; readonly snapshot?: WireSnapshot }

export interface WorkerRequest {
  readonly id: number
  readonly job: ExecutionJob
  readonly target: WorkerTarget
}

const init = workerData as WorkerInit
const kv = new LmdbStore(init.dataDir)
const rules = new ChainRules(init.genesis)
const store = new ChainStore(kv)
const chain = new ChainReader(store, rules)
const service = new CallService(rules, store, init.settings)
let pending: { version: number; target: TargetState } | undefined

/** The newest block this thread's view was seen to hold: blocks are only ever appended, so it holds all below. */
let held = -1n

/** Makes this thread's view of the database hold block `number` (committed before the job was posted). */
function holdBlock(number: bigint): void {
  if (number <= held) return
  if (store.headerRlp(number) === undefined) {
    kv.refreshReads()
    if (store.headerRlp(number) === undefined) throw new FlashnodeError('internal', `execution worker: block ${number} is not in the database`)
  }
  held = number
}

function targetState(t: WorkerTarget): TargetState {
  if (t.kind === 'sealed') {
    holdBlock(t.number)
    return sealedTarget(kv, chain.header(t.number)!)
  }
  if (t.snapshot !== undefined) pending = replica(t.snapshot)
  if (pending === undefined || pending.version !== t.version) throw new Error(`worker holds no snapshot ${t.version}`)
  return pending.target
}

function replica(w: WireSnapshot): { version: number; target: TargetState } {
  holdBlock(w.parentNumber)
  return { version: w.version, target: pendingTarget(kv, stateFromWire(w, rules)) }
}

parentPort!.on('message', (msg: WorkerRequest) => {
  failpointStall('execution:stall')
  const meter = new EvmMeter()
  let run: Promise<unknown>
  try {
    run = service.run(msg.job, targetState(msg.target), meter)
  } catch (e) {
    run = Promise.reject(e)
  }
  // The job's EVM gas and time ride on its answer (no message of their own).
  run.then(
    (result) => parentPort!.postMessage({ id: msg.id, ok: true, result, gas: meter.gas, seconds: meter.seconds }),
    (e: unknown) => parentPort!.postMessage({ id: msg.id, ok: false, error: errorToWire(e), gas: meter.gas, seconds: meter.seconds }),
  )
})
answerMemoryRequests(workerData, 'execution')
parentPort!.postMessage(READY)
