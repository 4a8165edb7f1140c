/**
 * The node's memory as it sees it from the inside, for `flashnode_memory` (a development method: never on a
 * public endpoint): the process's resident figures, and for every thread (the main one and each worker the
 * node's pools run) its V8 heap, external and array-buffer memory, and the figures of every bounded structure
 * registered on that thread (primitives/memory-gauges.ts) against its bound.
 *
 * Workers answer on a channel of their own (a MessagePort handed over in their workerData by WorkerLane), so
 * their job protocols never see these messages; a worker calls `answerMemoryRequests` once at its start.
 * The node's side keeps the live workers' links in a set per thread (added when a lane starts, removed when it
 * ends), and never lets a link keep the process alive (its port is unref'd).
 *
 * Nothing here runs unless asked: no timer, no sampling. Asking may run a full garbage collection first on
 * every thread, only when the process was started with `--expose-gc` (the growth test does; a node in
 * production has no `gc`), so the heap figures are then live sizes rather than whatever the collector left.
 *
 * Must never: block a thread's jobs for long (a report reads sizes the structures keep, never walks a
 * cache's entries), or hold a worker that has ended.
 */

import { readFileSync } from 'node:fs'
import v8 from 'node:v8'
import { MessageChannel, threadId, type MessagePort } from 'node:worker_threads'
import { readGauges, type GaugeFigures } from '../primitives/memory-gauges.ts'

export interface ThreadMemory {
  /** 'main', or the worker's kind and thread id (`execution#3`). */
  readonly thread: string
  readonly heapUsed: number
  readonly heapTotal: number
  readonly heapLimit: number
  /** Memory of C++ objects bound to this thread's JS objects (buffers included). */
  readonly external: number
  /** ArrayBuffers and SharedArrayBuffers (Buffers included), a part of `external`. */
  readonly arrayBuffers: number
  /** Whether a full collection ran just before these figures (only under `--expose-gc`). */
  readonly collected: boolean
  readonly caches: readonly GaugeFigures[]
}

export interface MemoryReport {
  /** When it was made (ms since 1970). */
  readonly time: number
  /** /proc/self/status (Linux) in bytes: VmRSS, RssAnon, RssFile, VmHWM; null elsewhere. */
  readonly process: { readonly rss: number; readonly rssAnon: number | null; readonly rssFile: number | null; readonly peakRss: number | null }
  /** The main thread first, then every worker that answered in time. */
  readonly threads: readonly ThreadMemory[]
  /** Workers that did not answer within the time allowed (busy past it, or ending). */
  readonly unanswered: number
}

interface MemoryRequest {
  readonly id: number
  readonly collect: boolean
}

interface MemoryAnswer {
  readonly id: number
  readonly memory: ThreadMemory
}

const collector = (globalThis as { gc?: () => void }).gc

/** This thread's figures. */
export function thisThreadMemory(thread: string, collect = false): ThreadMemory {
  const collected = collect && collector !== undefined
  if (collected) collector()
  const heap = v8.getHeapStatistics()
  const usage = process.memoryUsage()
  return {
    thread,
    heapUsed: heap.used_heap_size,
    heapTotal: heap.total_heap_size,
    heapLimit: heap.heap_size_limit,
    external: usage.external,
    arrayBuffers: usage.arrayBuffers,
    collected,
    caches: readGauges(),
  }
}

const PORT_FIELD = 'flashnodeMemoryPort'

/** A worker's side: answers the node's memory requests on the port its workerData carries (if any). */
export function answerMemoryRequests(workerData: unknown, kind: string): void {
  const port = (workerData as Record<string, unknown> | undefined)?.[PORT_FIELD] as MessagePort | undefined
  if (port === undefined) return
  const name = `${kind}#${threadId}`
  port.on('message', ({ id, collect }: MemoryRequest) => port.postMessage({ id, memory: thisThreadMemory(name, collect) } satisfies MemoryAnswer))
  port.unref()
}

/** The node's side of one worker's memory channel. */
export class WorkerMemoryLink {
  private readonly port: MessagePort
  /** The port to hand to the worker (in its workerData, and its transfer list). */
  readonly workerPort: MessagePort
  private readonly waiting = new Map<number, (m: ThreadMemory | undefined) => void>()
  private nextId = 1

  constructor() {
    const { port1, port2 } = new MessageChannel()
    this.port = port1
    this.workerPort = port2
    this.port.on('message', ({ id, memory }: MemoryAnswer) => {
      this.waiting.get(id)?.(memory)
      this.waiting.delete(id)
    })
    this.port.unref()
    links.add(this)
  }

  /** The workerData to start the worker with: `data` (an object, or nothing) with the port added. */
  workerData(data: unknown): Record<string, unknown> {
    return { ...(data as Record<string, unknown> | undefined), [PORT_FIELD]: this.workerPort }
  }

  /** The worker's figures, or undefined when it does not answer within `timeoutMs`. */
  ask(collect: boolean, timeoutMs: number): Promise<ThreadMemory | undefined> {
    const id = this.nextId++
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id)
        resolve(undefined)
      }, timeoutMs)
      this.waiting.set(id, (m) => {
        clearTimeout(timer)
        resolve(m)
      })
      this.port.postMessage({ id, collect } satisfies MemoryRequest)
    })
  }

  /** The worker has ended: its link goes. */
  close(): void {
    links.delete(this)
    this.port.close()
    for (const answer of this.waiting.values()) answer(undefined)
    this.waiting.clear()
  }
}

/** This thread's live worker links (the node's workers are started from its main thread). */
const links = new Set<WorkerMemoryLink>()

/** The process's figures from /proc (Linux); the RSS alone elsewhere. */
function processFigures(): MemoryReport['process'] {
  try {
    const status = readFileSync('/proc/self/status', 'utf8')
    const kb = (name: string): number | null => {
      const m = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)
      return m === null ? null : Number(m[1]) * 1024
    }
    return { rss: kb('VmRSS') ?? process.memoryUsage.rss(), rssAnon: kb('RssAnon'), rssFile: kb('RssFile'), peakRss: kb('VmHWM') }
  } catch {
    return { rss: process.memoryUsage.rss(), rssAnon: null, rssFile: null, peakRss: null }
  }
}

/** The port `flashnode_memory` reads (node/ports.ts). */
export interface MemoryApi {
  report(collect: boolean): Promise<MemoryReport>
}

/** This process's threads: the node's main thread and its workers. */
export const PROCESS_MEMORY: MemoryApi = { report: (collect) => memoryReport({ collect }) }

/** Every thread's figures: this (main) thread's, then each live worker's that answers within `timeoutMs`. */
export async function memoryReport(opts: { readonly collect?: boolean; readonly timeoutMs?: number } = {}): Promise<MemoryReport> {
  const collect = opts.collect === true
  const answers = await Promise.all([...links].map((l) => l.ask(collect, opts.timeoutMs ?? 2_000)))
  const workers = answers.filter((m): m is ThreadMemory => m !== undefined)
  const main = thisThreadMemory('main', collect)
  return { time: Date.now(), process: processFigures(), threads: [main, ...workers], unanswered: answers.length - workers.length }
}
