/**
 * Runs execution jobs on a pool of worker threads (worker-main.ts), queued in arrival order up to a bound.
 * A worker takes up to `maxInFlight` jobs at once (they interleave there at their state reads, so a long
 * one does not hold up the others, and the next job is already waiting when one ends); a job goes to the
 * least busy worker. Beyond the `workers` started at once, `extra` workers take every kind of job while its
 * gate (spare-core-gate.ts) is open (jobs wait and the main thread idles: the load of long executions), and
 * simulations and long calls (long-calls.ts: the same function ran ≥ 250 µs of EVM last time) at any time
 * once loaded (the first such job starts them; none waits for one to load). Why: on 2 cores a second worker
 * lifted one-call simulations by ~13% when forced, where it cost balanceOf calls ~10% (the main thread is
 * their limit); the gate, measuring its own trials, did not catch the simulations' gain and failed the
 * multicall's now and then (docs/performance.md). Each extra worker is started the first time it is let in,
 * and kept.
 *
 * Time limits: each job has the cooperative deadline inside the worker; if a job has not been answered by
 * its limit plus a grace period from when its worker was ready (a loop that touches no state never
 * yields), its worker is terminated and
 * replaced, the job answers its time-limit error (eth_simulateV1's own code for a simulation), and the
 * other jobs that worker held are run again on the fresh one (jobs only read). Pending jobs carry the
 * snapshot version they need; a worker gets the snapshot itself only when it does not hold that version yet.
 * Each answer (or error) carries the job's EVM gas and seconds, handed to the observer as the job answers.
 */

import { FlashnodeError } from '../../errors/errors.ts'
import type { PreconfirmedSnapshot } from '../../preconf/snapshot.ts'
import { SIM_CODES, simError } from '../../simulate/errors.ts'
import type { ExecutionJob, ExecutionObserver, ExecutionTarget, Executor, JobResult } from './jobs.ts'
import type { WorkerInit, WorkerRequest, WorkerTarget } from './worker-main.ts'
import { snapshotToWire } from '../../preconf/wire.ts'
import { errorFromWire, type WireError } from './wire.ts'
import { WorkerLane } from '../worker-lane.ts'
import type { SpareCoreGate } from './spare-core-gate.ts'
import { performance } from 'node:perf_hooks'
import { threadEntry } from '../thread-entry.ts'
import { LongCalls } from './long-calls.ts'
import { registerGauge } from '../../primitives/memory-gauges.ts'

interface Queued {
  readonly job: ExecutionJob
  readonly target: ExecutionTarget
  resolve(r: JobResult): void
  reject(e: unknown): void
}

interface Running {
  readonly q: Queued
  /** Set once the worker is ready: its start-up does not count against the job's limit. */
  timer: NodeJS.Timeout | undefined
}

interface Reply {
  readonly id: number
  readonly ok: boolean
  readonly result?: JobResult
  readonly error?: WireError
  /** The gas and EVM seconds of the job's runs (worker-main.ts's meter). */
  readonly gas: number
  readonly seconds: number
}

/** A worker place: its current worker (replaced when stopped), the jobs it holds, its snapshot replica. */
class Slot {
  lane!: WorkerLane<Reply>
  readonly running = new Map<number, Running>()
  snapshotVersion: number | undefined
  /** Jobs handed to this place so far. */
  dispatched = 0
}

export interface WorkerExecutorOptions {
  readonly workers: number
  /** The time limit of calls, estimates and access lists. */
  readonly timeoutMs: number
  /** The time limit of a simulation (its own setting). */
  readonly simulateTimeoutMs: number
  /** Extra time before a silent worker is terminated. */
  readonly graceMs: number
  readonly maxQueued: number
  /** Jobs one worker runs at once. */
  readonly maxInFlight: number
  /**
   * Workers beyond `workers`, let in by the gate. With `sampleEveryMs` the executor samples the main
   * thread's event-loop utilization and the jobs completed into the gate on a timer; without it, whoever made
   * the gate samples it.
   */
  readonly extra?: { readonly workers: number; readonly gate: SpareCoreGate; readonly sampleEveryMs?: number }
  /** EVM seconds from which a call's function counts as long (long-calls.ts; Infinity: none, the gate alone decides). */
  readonly longCallSeconds?: number
}

/** From the sources, a small JS entry registers tsx in the worker's thread, then loads it; built, its bundle. */
const WORKER_URL = threadEntry(import.meta.url, './worker-entry.mjs', 'execution-worker')

const seconds = (ms: number): string => (ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`)

export class WorkerExecutor implements Executor {
  private readonly slots: Slot[] = []
  private readonly queue: Queued[] = []
  private readonly versions = new WeakMap<PreconfirmedSnapshot, number>()
  private nextVersion = 1
  private nextId = 1
  private closed = false
  private killed = 0
  private stoppedAtLimit = 0
  /** Jobs that ended (answered or failed) since the gate's last sample: its measure of throughput. */
  private completedSinceSample = 0
  private readonly sampler: NodeJS.Timeout | undefined
  /** The calls whose function ran long last time (they may use the extra workers like simulations); none without extra workers. */
  private readonly longCalls: LongCalls | undefined

  constructor(
    private readonly init: WorkerInit,
    private readonly opts: WorkerExecutorOptions,
    private readonly observer?: ExecutionObserver,
  ) {
    this.longCalls = opts.extra === undefined ? undefined : new LongCalls(opts.longCallSeconds)
    registerGauge('execution queue', this, (e) => ({ entries: e.queue.length, maxEntries: e.opts.maxQueued }))
    registerGauge('execution jobs running', this, (e) => ({
      entries: e.slots.reduce((n, s) => n + s.running.size, 0),
      maxEntries: e.slots.length * e.opts.maxInFlight,
    }))
    for (let i = 0; i < opts.workers; i++) this.addSlot()
    const extra = opts.extra
    if (extra !== undefined && extra.workers > 0 && extra.sampleEveryMs !== undefined) {
      let last = performance.eventLoopUtilization()
      this.sampler = setInterval(() => {
        const now = performance.eventLoopUtilization()
        extra.gate.sample(performance.eventLoopUtilization(now, last).utilization, this.jobsWaiting(), this.completedSinceSample)
        last = now
        this.completedSinceSample = 0
        if (extra.gate.open) this.pump()
      }, extra.sampleEveryMs)
      this.sampler.unref()
    }
  }

  private addSlot(): void {
    const slot = new Slot()
    this.start(slot)
    this.slots.push(slot)
  }

  /** A job waits for a worker: in the queue, or behind another job on a worker. */
  private jobsWaiting(): boolean {
    return this.queue.length > 0 || this.slots.some((s) => s.running.size > 1)
  }

  /**
   * The workers a job may go to now: the base ones, and the extra ones while the gate is open or, for a
   * simulation or a long call (`anytime`), once they have loaded (the first such job starts them).
   */
  private usableSlots(anytime: boolean): number {
    const extra = this.opts.extra
    const usable = extra !== undefined && (extra.gate.open || anytime) ? this.opts.workers + extra.workers : this.opts.workers
    while (this.slots.length < usable && !this.closed) this.addSlot()
    return Math.min(usable, this.slots.length)
  }

  /** Gives `slot` a fresh worker; messages and errors of that worker are handled for that slot. */
  private start(slot: Slot): void {
    const lane: WorkerLane<Reply> = new WorkerLane<Reply>(WORKER_URL, this.init, {
      reply: (msg) => {
        if (slot.lane !== lane) return
        const running = this.finish(slot, msg.id)
        if (running === undefined) return
        this.observer?.executed(running.q.job.kind, msg.gas, msg.seconds)
        this.longCalls?.record(running.q.job, msg.seconds)
        if (msg.ok) running.q.resolve(msg.result!)
        else {
          // The EVM stops a job at its deadline itself (the kill timer, later by a grace, is the backstop).
          if (msg.error!.message.startsWith('execution aborted (timeout')) this.stoppedAtLimit++
          running.q.reject(errorFromWire(msg.error!))
        }
      },
      loaded: () => {
        if (slot.lane === lane) this.pump()
      },
      failed: (e) => {
        if (slot.lane === lane) this.fail(slot, new FlashnodeError('internal', 'execution worker failed', { cause: e }))
      },
    })
    slot.lane = lane
    slot.snapshotVersion = undefined
  }

  /** Besides the Executor's: the jobs handed to each worker place so far (its length: the workers started), and whether the gate lets the extra workers take every kind of job. */
  stats(): { queued: number; killed: number; stoppedAtLimit: number; jobsPerWorker: number[]; extraWorkersInUse: boolean } {
    return {
      queued: this.queue.length,
      killed: this.killed,
      stoppedAtLimit: this.stoppedAtLimit,
      jobsPerWorker: this.slots.map((s) => s.dispatched),
      extraWorkersInUse: this.opts.extra?.gate.open ?? false,
    }
  }

  run(job: ExecutionJob, target: ExecutionTarget): Promise<JobResult> {
    if (this.closed) return Promise.reject(new FlashnodeError('internal', 'node is shutting down'))
    if (this.queue.length >= this.opts.maxQueued) {
      return Promise.reject(new FlashnodeError('limitExceeded', `too many executions waiting (limit ${this.opts.maxQueued})`))
    }
    return new Promise<JobResult>((resolve, reject) => {
      this.queue.push({ job, target, resolve, reject })
      this.pump()
    })
  }

  private pump(): void {
    const gateOpen = this.opts.extra?.gate.open === true
    while (this.queue.length > 0) {
      const job = this.queue[0]!.job
      const usable = this.usableSlots(job.kind === 'simulate' || job.kind === 'traceBlock' || job.kind === 'traceCall' || this.longCalls?.isLong(job) === true)
      let best: Slot | undefined
      for (let i = 0; i < usable; i++) {
        const slot = this.slots[i]!
        if (i >= this.opts.workers && !gateOpen && !slot.lane.usable) continue // a simulation or long call does not wait for an extra worker to load
        if (slot.running.size < this.opts.maxInFlight && (best === undefined || slot.running.size < best.running.size)) best = slot
      }
      if (best === undefined) return
      this.dispatch(best, this.queue.shift()!)
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

  private limitOf(job: ExecutionJob): number {
    return job.kind === 'simulate' ? this.opts.simulateTimeoutMs : this.opts.timeoutMs
  }

  private dispatch(slot: Slot, q: Queued): void {
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
    const running: Running = { q, timer: undefined }
    slot.running.set(request.id, running)
    slot.dispatched++
    const lane = slot.lane
    lane.worker.ref() // while it holds jobs, the process waits for it
    // A lane that fails or is terminated before it loads has already handed its jobs on (or rejected them).
    lane.whenLoaded.then(
      () => {
        if (slot.lane === lane && slot.running.get(request.id) === running) {
          running.timer = setTimeout(() => this.timeout(slot, request.id), this.limitOf(q.job) + this.opts.graceMs)
        }
      },
      () => undefined,
    )
    lane.post(request)
  }

  private finish(slot: Slot, id: number): Running | undefined {
    const running = slot.running.get(id)
    if (running === undefined) return undefined
    clearTimeout(running.timer)
    slot.running.delete(id)
    this.completedSinceSample++
    if (slot.running.size === 0) slot.lane.worker.unref()
    queueMicrotask(() => this.pump())
    return running
  }

  /** Terminates the slot's worker for a fresh one; the jobs it still held go back to the front of the queue. */
  private replace(slot: Slot): void {
    const held = [...slot.running.values()]
    for (const r of held) clearTimeout(r.timer)
    slot.running.clear()
    void slot.lane.terminate()
    this.start(slot)
    this.queue.unshift(...held.map((r) => r.q))
    queueMicrotask(() => this.pump())
  }

  private timeout(slot: Slot, id: number): void {
    const running = this.finish(slot, id)
    if (running === undefined) return
    this.killed++
    if (!this.closed) this.replace(slot)
    const { job } = running.q
    const message = `execution aborted (timeout = ${seconds(this.limitOf(job))})`
    running.q.reject(job.kind === 'simulate' ? simError(SIM_CODES.clientLimitExceeded, message) : new FlashnodeError('executionTimeout', message))
  }

  private fail(slot: Slot, e: FlashnodeError): void {
    const held = [...slot.running.values()]
    for (const r of held) {
      clearTimeout(r.timer)
      r.q.reject(e)
    }
    slot.running.clear()
    if (!this.closed) this.replace(slot)
  }

  async close(): Promise<void> {
    this.closed = true
    clearInterval(this.sampler)
    for (const q of this.queue.splice(0)) q.reject(new FlashnodeError('internal', 'node is shutting down'))
    for (const slot of this.slots) {
      for (const r of slot.running.values()) {
        clearTimeout(r.timer)
        r.q.reject(new FlashnodeError('internal', 'node is shutting down'))
      }
      slot.running.clear()
    }
    await Promise.all(this.slots.map((s) => s.lane.terminate()))
  }
}
