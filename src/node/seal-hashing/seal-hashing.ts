/**
 * Computes a sealing block's ordered-trie roots (transactions, receipts) on a worker thread (hashing-main.ts),
 * as the block builder's OrderedRoots. Until the worker has loaded, after it failed or exited, and once
 * closed, roots are computed on the main thread in turns (rootsInTurns), so a seal never waits on a worker
 * that is not there. One request at a time is the normal case (the sequencer seals one block at a time),
 * but any number may be in flight; each answer names its request.
 */

import { Worker } from 'node:worker_threads'
import { rootsInTurns, type OrderedRoots } from '../../execution/block-builder.ts'
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
  private readonly worker: Worker
  private ready = false
  private alive = true
  private nextId = 1
  private readonly waiting = new Map<number, Waiting>()
  private readonly readyWaiters: (() => void)[] = []

  constructor() {
    this.worker = new Worker(ENTRY)
    this.worker.unref()
    this.worker.on('message', (reply: HashReply | 'ready') => {
      if (reply === 'ready') {
        this.ready = true
        this.wakeReadyWaiters()
        return
      }
      const waiting = this.waiting.get(reply.id)
      this.waiting.delete(reply.id)
      waiting?.resolve(reply.roots)
    })
    this.worker.on('error', () => this.fail())
    this.worker.on('exit', () => this.fail())
  }

  /** The builder's OrderedRoots: on the worker when it is there, else here. */
  readonly roots: OrderedRoots = (lists) => {
    if (!this.ready || !this.alive) return rootsInTurns(lists)
    return new Promise((resolve) => {
      const id = this.nextId++
      this.waiting.set(id, { lists, resolve })
      const buffer = packLists(lists)
      this.worker.postMessage({ id, lists: buffer } satisfies HashRequest, [buffer])
    })
  }

  /** Resolves once the worker is loaded (or cannot be). */
  whenReady(): Promise<void> {
    if (this.ready || !this.alive) return Promise.resolve()
    return new Promise((resolve) => this.readyWaiters.push(resolve))
  }

  async close(): Promise<void> {
    this.fail()
    await this.worker.terminate()
  }

  private wakeReadyWaiters(): void {
    for (const wake of this.readyWaiters.splice(0)) wake()
  }

  /** A worker that errs or exits gets no more work; what it held is computed here. */
  private fail(): void {
    this.alive = false
    this.wakeReadyWaiters()
    for (const waiting of this.waiting.values()) waiting.resolve(rootsInTurns(waiting.lists))
    this.waiting.clear()
  }
}
