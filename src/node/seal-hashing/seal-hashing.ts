/**
 * Computes a sealing block's ordered-trie roots (transactions, receipts) on a worker thread (hashing-main.ts),
 * as the block builder's OrderedRoots. The worker starts with the first block large enough to pay for it
 * (WORKER_FROM_ITEMS): a node that seals small blocks keeps no thread for it. Until then, until the worker
 * has loaded, after it failed or exited, and once closed, roots are computed on the main thread in turns
 * (rootsInTurns), so a seal never waits on a worker that is not there. One request at a time is the normal
 * case (the sequencer seals one block at a time), but any number may be in flight; each answer names its
 * request.
 */

import { rootsInTurns, type OrderedRoots } from '../../execution/block-builder.ts'
import { WorkerLane } from '../worker-lane.ts'
import { threadEntry } from '../thread-entry.ts'
import { packLists } from './lists-wire.ts'

const ENTRY = threadEntry(import.meta.url, './hashing-entry.mjs', 'hashing-worker')

export interface HashRequest {
  readonly id: number
  /** packLists' buffer (transferred). */
  readonly lists: ArrayBuffer
}

export interface HashReply {
  readonly id: number
  readonly roots: Uint8Array[]
}

interface Waiting {
  readonly lists: readonly (readonly Uint8Array[])[]
  resolve(roots: Promise<Uint8Array[]> | Uint8Array[]): void
}

/** Items (transactions and receipts together) of the first block whose roots start the worker: below it, a
 * block's roots take about a millisecond on the main thread. */
export const WORKER_FROM_ITEMS = 256

export class SealHashing {
  private lane: WorkerLane<HashReply> | undefined
  private closed = false
  private nextId = 1
  private readonly waiting = new Map<number, Waiting>()

  /** Whether the worker has been started (by a large block, or `start`). */
  get running(): boolean {
    return this.lane !== undefined
  }

  /** Starts the worker now (once; a large enough block does it too). */
  start(): void {
    if (this.lane !== undefined || this.closed) return
    this.lane = new WorkerLane<HashReply>(ENTRY, undefined, {
      reply: (reply) => {
        const waiting = this.waiting.get(reply.id)
        this.waiting.delete(reply.id)
        waiting?.resolve(reply.roots)
      },
      failed: () => this.computeHere(),
    })
  }

  /** The builder's OrderedRoots: on the worker when it is there, else here. */
  readonly roots: OrderedRoots = (lists) => {
    if (this.lane === undefined && lists.reduce((n, list) => n + list.length, 0) >= WORKER_FROM_ITEMS) this.start()
    const lane = this.lane
    if (lane === undefined || !lane.usable) return rootsInTurns(lists)
    return new Promise((resolve) => {
      const id = this.nextId++
      this.waiting.set(id, { lists, resolve })
      const buffer = packLists(lists)
      lane.post({ id, lists: buffer } satisfies HashRequest, [buffer])
    })
  }

  /** Resolves once a started worker is loaded (or cannot be, or none was started). */
  whenReady(): Promise<void> {
    return this.lane === undefined ? Promise.resolve() : this.lane.whenLoaded.catch(() => undefined)
  }

  async close(): Promise<void> {
    this.closed = true
    const ended = this.lane?.terminate()
    this.computeHere()
    await ended
  }

  /** What a worker that erred, exited or was closed held is computed here. */
  private computeHere(): void {
    for (const waiting of this.waiting.values()) waiting.resolve(rootsInTurns(waiting.lists))
    this.waiting.clear()
  }
}
