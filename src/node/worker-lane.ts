/**
 * One worker thread as the node's pools run it (node/execution, node/sender-recovery, node/seal-hashing):
 * started from its entry file with its init data; unref'd, so it never keeps the process alive by itself
 * (a pool refs it while it holds work); loaded once its first message, the string 'ready', arrives; failed
 * once it errs or exits, reported once, after which the pool falls back (the main thread does the work, or a
 * fresh worker replaces it). `terminate` ends it without a failure report: the pool that ends a worker
 * already knows. Each lane also opens the worker's memory channel (thread-memory.ts: `flashnode_memory`), closed
 * when the worker ends.
 */

import { Worker } from 'node:worker_threads'
import { WorkerMemoryLink } from './thread-memory.ts'

/** What a worker posts once it has loaded; every other message is a reply. */
export const READY = 'ready'

export interface LaneHandlers<Reply> {
  /** A message after the worker has loaded. */
  reply(message: Reply): void
  /** The worker has loaded. */
  loaded?(): void
  /** The worker erred or exited (reported once, never after `terminate`). */
  failed(error: unknown): void
}

export class WorkerLane<Reply> {
  readonly worker: Worker
  /** Resolves once the worker has loaded; rejects when it fails or is terminated first. */
  readonly whenLoaded: Promise<void>
  private state: 'loading' | 'loaded' | 'ended' = 'loading'
  private readonly rejectLoad: (e: unknown) => void

  constructor(entry: URL, workerData: unknown, handlers: LaneHandlers<Reply>) {
    const memory = new WorkerMemoryLink()
    this.worker = new Worker(entry, { workerData: memory.workerData(workerData), transferList: [memory.workerPort] })
    this.worker.unref()
    this.worker.once('exit', () => memory.close())
    let resolve!: () => void
    let reject!: (e: unknown) => void
    this.whenLoaded = new Promise<void>((res, rej) => {
      resolve = res
      reject = rej
    })
    this.whenLoaded.catch(() => undefined)
    this.rejectLoad = reject
    this.worker.on('message', (message: Reply | typeof READY) => {
      if (message !== READY) return handlers.reply(message)
      if (this.state === 'loading') this.state = 'loaded'
      resolve()
      handlers.loaded?.()
    })
    const fail = (e: unknown): void => {
      if (this.state === 'ended') return
      this.state = 'ended'
      reject(e)
      handlers.failed(e)
    }
    this.worker.on('error', fail)
    this.worker.on('exit', (code) => fail(new Error(`worker exited (code ${code})`)))
  }

  /** Loaded and not failed or terminated: it takes work. */
  get usable(): boolean {
    return this.state === 'loaded'
  }

  /** Not failed or terminated (it may still be loading). */
  get alive(): boolean {
    return this.state !== 'ended'
  }

  post(message: unknown, transfer?: readonly ArrayBuffer[]): void {
    this.worker.postMessage(message, transfer as ArrayBuffer[] | undefined)
  }

  /** Ends the worker (at once: it takes no more work); no failure is reported for it. */
  async terminate(): Promise<void> {
    this.state = 'ended'
    this.rejectLoad(new Error('worker terminated'))
    await this.worker.terminate()
  }
}
