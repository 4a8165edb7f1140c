/**
 * Prepares submitted transactions on worker threads (recovery-main.ts): decoding, hashing, signature
 * recovery and the gas figures run on another core than the one serving HTTP and building flashblocks,
 * and the main thread receives ready records (txpool/prepared.ts).
 *
 * The workers start with the first submission, not with the node: a node nobody sends to keeps no threads
 * (and their memory) for it. Submissions arriving in the same turn of the event loop go to a worker as one
 * message (one round trip for a burst), spread over the workers in turn. A worker gets work only once it
 * said it is loaded, so the first submissions are decoded inline instead of waiting for a worker to boot.
 * `prepare` never rejects: undefined means "do it inline" (no worker, a worker failed or exited, or the pool
 * is closed), and the caller's inline path is the reference.
 * Order: each worker answers its messages in order; across workers answers may overtake each other, which
 * admission tolerates (a nonce gap is queued, then promoted).
 */

import type { GethGenesis } from '../../execution/chain-config.ts'
import type { PreparedTx } from '../../txpool/prepared.ts'
import { WorkerLane } from '../worker-lane.ts'
import { threadEntry } from '../thread-entry.ts'
import { packRequest, requestBuffers, unpackRecord, type WorkerInit, type WorkItem, type WorkReply } from './wire.ts'

const ENTRY = threadEntry(import.meta.url, './recovery-entry.mjs', 'recovery-worker')
/** Largest burst sent as one message. */
const MAX_BATCH = 256

interface Waiting {
  readonly item: WorkItem
  resolve(prepared: PreparedTx | undefined): void
}

interface Lane {
  /** Usable once loaded and answering (a worker takes ~1 s to load tsx and the libraries). */
  readonly thread: WorkerLane<WorkReply>
  readonly inFlight: Map<number, Waiting[]>
}

export class SenderRecovery {
  private readonly lanes: Lane[] = []
  private queued: Waiting[] = []
  private flushScheduled = false
  private nextLane = 0
  private nextId = 1
  private readonly readyWaiters: (() => void)[] = []
  private started = false
  private closed = false
  private messages = 0
  private transactions = 0

  constructor(
    private readonly genesis: GethGenesis,
    private readonly workers: number,
  ) {}

  /** Whether the workers have been started (by a first submission, or `start`). */
  get running(): boolean {
    return this.started
  }

  /** Requests posted to the workers so far, and the transactions they carried (a burst of one turn is one message per worker). */
  get posted(): { readonly messages: number; readonly transactions: number } {
    return { messages: this.messages, transactions: this.transactions }
  }

  /** Starts the workers now (once; a first `prepare` does it too). */
  start(): void {
    if (this.started || this.closed) return
    this.started = true
    for (let i = 0; i < this.workers; i++) this.lanes.push(this.spawn(this.genesis))
  }

  /** `raw` prepared for the fork of the pending block (number, timestamp); undefined: decode it inline. */
  prepare(raw: Uint8Array, number: bigint, timestamp: bigint): Promise<PreparedTx | undefined> {
    this.start()
    if (!this.lanes.some(isUsable)) return Promise.resolve(undefined)
    return new Promise((resolve) => {
      this.queued.push({ item: { raw, number, timestamp }, resolve })
      if (!this.flushScheduled) {
        this.flushScheduled = true
        setImmediate(() => this.flush())
      }
    })
  }

  /** Resolves once a started worker is loaded (or none can be, or none was started): from then on `prepare`
   * uses the workers. */
  whenReady(): Promise<void> {
    if (this.lanes.some(isUsable) || !this.lanes.some((lane) => lane.thread.alive)) return Promise.resolve()
    return new Promise((resolve) => this.readyWaiters.push(resolve))
  }

  async close(): Promise<void> {
    this.closed = true
    const lanes = this.lanes.splice(0)
    const ended = lanes.map((lane) => lane.thread.terminate())
    for (const lane of lanes) this.fail(lane)
    for (const waiting of this.queued.splice(0)) waiting.resolve(undefined)
    await Promise.all(ended)
  }

  private flush(): void {
    this.flushScheduled = false
    // An even share per ready worker, sized once for the whole burst.
    const share = Math.min(MAX_BATCH, Math.ceil(this.queued.length / Math.max(1, this.lanes.filter(isUsable).length)))
    while (this.queued.length > 0) {
      const lane = this.pickLane()
      const batch = this.queued.splice(0, share)
      if (lane === undefined) {
        for (const waiting of batch) waiting.resolve(undefined)
        continue
      }
      const id = this.nextId++
      lane.inFlight.set(id, batch)
      this.messages++
      this.transactions += batch.length
      const request = packRequest(id, batch.map((w) => w.item))
      lane.thread.post(request, requestBuffers(request))
    }
  }

  private pickLane(): Lane | undefined {
    for (let tries = 0; tries < this.lanes.length; tries++) {
      const lane = this.lanes[this.nextLane++ % this.lanes.length]!
      if (isUsable(lane)) return lane
    }
    return undefined
  }

  private spawn(genesis: GethGenesis): Lane {
    const inFlight = new Map<number, Waiting[]>()
    const lane: Lane = {
      inFlight,
      thread: new WorkerLane<WorkReply>(ENTRY, { genesis } satisfies WorkerInit, {
        reply: (reply) => {
          const batch = inFlight.get(reply.id)
          if (batch === undefined) return
          inFlight.delete(reply.id)
          batch.forEach((waiting, i) => waiting.resolve(unpackRecord(reply, i)))
        },
        loaded: () => this.wakeReadyWaiters(),
        failed: () => this.fail(lane),
      }),
    }
    return lane
  }

  private wakeReadyWaiters(): void {
    for (const wake of this.readyWaiters.splice(0)) wake()
  }

  /** A lane that errs, exits or is closed answers "inline" for everything it held and gets no more work. */
  private fail(lane: Lane): void {
    if (!this.lanes.some((other) => other.thread.alive)) this.wakeReadyWaiters()
    for (const batch of lane.inFlight.values()) for (const waiting of batch) waiting.resolve(undefined)
    lane.inFlight.clear()
  }
}

function isUsable(lane: Lane): boolean {
  return lane.thread.usable
}
