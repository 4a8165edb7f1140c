/**
 * Runs execution jobs on a pool of worker threads (worker-main.ts), one job per worker at a time, queued
 * in arrival order up to a bound.
 *
 * Time limits: each job has the cooperative deadline inside the worker; if a worker has not answered by the
 * deadline plus a grace period (a loop that touches no state never yields), it is terminated and replaced,
 * and the job answers `execution aborted (timeout = …)`. Pending jobs carry the snapshot version they need;
 * a worker gets the snapshot itself only when it does not hold that version yet.
 */

import { Worker } from 'node:worker_threads'
import { FlashnodeError } from '../../errors/errors.ts'
import type { PreconfirmedSnapshot } from '../../sequencer/snapshot.ts'
import type { AccessListResult } from '../api.ts'
import type { ExecutionJob, ExecutionTarget, Executor } from './jobs.ts'
import type { WorkerInit, WorkerRequest, WorkerTarget } from './worker-main.ts'
import { errorFromWire, snapshotToWire, type WireError } from './wire.ts'

type Result = Uint8Array | bigint | AccessListResult

interface Queued {
  readonly job: ExecutionJob
  readonly target: ExecutionTarget
  resolve(r: Result): void
  reject(e: unknown): void
}

interface Slot {
  worker: Worker
  ready: Promise<void>
  busy: Queued | undefined
  snapshotVersion: number | undefined
  timer: NodeJS.Timeout | undefined
}

export interface WorkerExecutorOptions {
  readonly workers: number
  readonly timeoutMs: number
  /** Extra time before a silent worker is terminated. */
  readonly graceMs: number
  readonly maxQueued: number
}

/** The worker is TypeScript too: a small JS entry registers tsx in the worker's thread, then loads it. */
const WORKER_URL = new URL('./worker-entry.mjs', import.meta.url)

export class WorkerExecutor implements Executor {
  private readonly slots: Slot[] = []
  private readonly queue: Queued[] = []
  private readonly versions = new WeakMap<PreconfirmedSnapshot, number>()
  private nextVersion = 1
  private nextId = 1
  private closed = false

  constructor(
    private readonly init: WorkerInit,
    private readonly opts: WorkerExecutorOptions,
  ) {
    for (let i = 0; i < opts.workers; i++) this.slots.push(this.spawn())
  }

  private spawn(): Slot {
    const worker = new Worker(WORKER_URL, { workerData: this.init })
    const ready = new Promise<void>((resolve, reject) => {
      worker.once('message', () => resolve())
      worker.once('error', reject)
    })
    ready.catch(() => undefined)
    const slot: Slot = { worker, ready, busy: undefined, snapshotVersion: undefined, timer: undefined }
    worker.on('message', (msg: { id?: number; ok?: boolean; result?: Result; error?: WireError }) => {
      if (msg.id === undefined || slot.busy === undefined) return
      const job = slot.busy
      this.finish(slot)
      if (msg.ok) job.resolve(msg.result!)
      else job.reject(errorFromWire(msg.error!))
    })
    worker.on('error', (e) => this.fail(slot, new FlashnodeError('internal', 'execution worker failed', { cause: e })))
    worker.unref()
    return slot
  }

  run(job: ExecutionJob, target: ExecutionTarget): Promise<Result> {
    if (this.closed) return Promise.reject(new FlashnodeError('internal', 'node is shutting down'))
    if (this.queue.length >= this.opts.maxQueued) {
      return Promise.reject(new FlashnodeError('limitExceeded', `too many executions waiting (limit ${this.opts.maxQueued})`))
    }
    return new Promise<Result>((resolve, reject) => {
      this.queue.push({ job, target, resolve, reject })
      this.pump()
    })
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (this.queue.length === 0) return
      if (slot.busy === undefined) this.dispatch(slot, this.queue.shift()!)
    }
  }

  private versionOf(s: PreconfirmedSnapshot): number {
    let v = this.versions.get(s)
    if (v === undefined) {
      v = this.nextVersion++
      this.versions.set(s, v)
    }
    return v
  }

  private dispatch(slot: Slot, q: Queued): void {
    slot.busy = q
    let target: WorkerTarget
    if (q.target.kind === 'sealed') target = q.target
    else {
      const version = this.versionOf(q.target.snapshot)
      target =
        slot.snapshotVersion === version
          ? { kind: 'pending', version }
          : { kind: 'pending', version, snapshot: snapshotToWire(q.target.snapshot, version) }
      slot.snapshotVersion = version
    }
    const request: WorkerRequest = { id: this.nextId++, job: q.job, target }
    slot.timer = setTimeout(() => this.timeout(slot), this.opts.timeoutMs + this.opts.graceMs)
    slot.worker.postMessage(request)
  }

  private finish(slot: Slot): void {
    clearTimeout(slot.timer)
    slot.timer = undefined
    slot.busy = undefined
    queueMicrotask(() => this.pump())
  }

  private replace(slot: Slot): void {
    void slot.worker.terminate()
    const fresh = this.spawn()
    Object.assign(slot, { worker: fresh.worker, ready: fresh.ready, snapshotVersion: undefined })
  }

  private timeout(slot: Slot): void {
    const job = slot.busy
    if (job === undefined) return
    this.finish(slot)
    this.replace(slot)
    const ms = this.opts.timeoutMs
    job.reject(new FlashnodeError('executionTimeout', `execution aborted (timeout = ${ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`})`))
  }

  private fail(slot: Slot, e: FlashnodeError): void {
    const job = slot.busy
    if (job !== undefined) {
      this.finish(slot)
      job.reject(e)
    }
    if (!this.closed) this.replace(slot)
  }

  async close(): Promise<void> {
    this.closed = true
    for (const q of this.queue.splice(0)) q.reject(new FlashnodeError('internal', 'node is shutting down'))
    await Promise.all(this.slots.map((s) => s.worker.terminate()))
  }
}
