/**
 * An execution worker: runs eth_call / estimate / access-list jobs off the node's main thread, so a long
 * execution never holds up other requests, and a runaway one can be stopped by terminating the worker.
 *
 * It opens the same LMDB environment read-only-in-practice (it never writes) and keeps a replica of the
 * newest pre-confirmed snapshot, sent by the node only when a pending job needs a newer one than it holds.
 */

import { parentPort, workerData } from 'node:worker_threads'
import { LmdbStore } from '../../storage/db.ts'
import { ChainStore } from '../../chain/chain-store.ts'
import { ChainRules, type GethGenesis } from '../../execution/chain-config.ts'
import { decodeHeader } from '../../execution/block-codec.ts'
import { ArchiveReader } from '../../state/archive-reader.ts'
import { OverlayReader } from '../../state/overlay-reader.ts'
import { ChainReader } from '../chain-reader.ts'
import { CallService, type CallSettings, type TargetState } from './call-service.ts'
import type { ExecutionJob } from './jobs.ts'
import { diffFromWire, errorToWire, type WireSnapshot } from './wire.ts'

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

function targetState(t: WorkerTarget): TargetState {
  if (t.kind === 'sealed') return { header: chain.header(t.number)!, state: new ArchiveReader(kv, t.number) }
  if (t.snapshot !== undefined) {
    pending = {
      version: t.snapshot.version,
      target: {
        header: decodeHeader(rules, t.snapshot.headerRlp),
        state: new OverlayReader(new ArchiveReader(kv, t.snapshot.parentNumber), diffFromWire(t.snapshot)),
      },
    }
  }
  if (pending === undefined || pending.version !== t.version) throw new Error(`worker holds no snapshot ${t.version}`)
  return pending.target
}

parentPort!.on('message', (msg: WorkerRequest) => {
  let run: Promise<unknown>
  try {
    run = service.run(msg.job, targetState(msg.target))
  } catch (e) {
    run = Promise.reject(e)
  }
  run.then(
    (result) => parentPort!.postMessage({ id: msg.id, ok: true, result }),
    (e: unknown) => parentPort!.postMessage({ id: msg.id, ok: false, error: errorToWire(e) }),
  )
})
parentPort!.postMessage({ ready: true })
