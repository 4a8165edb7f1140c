/**
 * Computes a sealing block's ordered-trie roots (transactions, receipts) on a worker thread (hashing-main.ts),
 * as the block builder's OrderedRoots. Until the worker has loaded, after it failed or exited, and once
 * closed, roots are computed on the main thread in turns (rootsInTurns), so a seal never waits on a worker
 * that is not there. One request at a time is the normal case (the sequencer seals one block at a time),
 * but any number may be in flight; each answer names its request.
 */

import { rootsInTurns, type OrderedRoots } from '../../execution/block-builder.ts'
import { WorkerLane } from '../worker-lane.ts'
import { packLists } from './lists-wire.ts'

const ENTRY = new URL('./hashing-entry.mjs', import.meta.url)

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

export class SealHashing {
  private readonly lane: WorkerLane<HashReply>
  private nextId = 1
  private readonly waiting = new Map<number, Waiting>()

  constructor() {
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
    if (!this.lane.usable) return rootsInTurns(lists)
    return new Promise((resolve) => {
      const id = this.nextId++
      this.waiting.set(id, { lists, resolve })
      const buffer = packLists(lists)
      this.lane.post({ id, lists: buffer } satisfies HashRequest, [buffer])
    })
  }

  /** Resolves once the worker is loaded (or cannot be). */
  whenReady(): Promise<void> {
    return this.lane.whenLoaded.catch(() => undefined)
  }

  async close(): Promise<void> {
    const ended = this.lane.terminate()
    this.computeHere()
    await ended
  }

  /** What a worker that erred, exited or was closed held is computed here. */
  private computeHere(): void {
    for (const waiting of this.waiting.values()) waiting.resolve(rootsInTurns(waiting.lists))
    this.waiting.clear()
  }
}
