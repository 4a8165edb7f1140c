/**
 * Computes a sealing block's ordered-trie roots (transactions, receipts) on a worker thread (hashing-main.ts),
 * as the block builder's OrderedRoots. The worker starts with the first block large enough to pay for it
 * (WORKER_FROM_ITEMS): a node that seals small blocks keeps no thread for it. Until then, until the worker
 * has loaded, after it failed or exited, and once closed, roots are computed on the main thread in turns
 * (rootsInTurns), so a seal never waits on a worker that is not there. One request at a time is the normal
 * case (the sequencer seals one block at a time), but any number may be in flight; each answer names its
 * request.
 *
 * The sequencer's blocks are fed instead (`feed`, the builder's RootsFeed): their items go to the worker in
 * chunks while the block is built, so the seal waits only for the last chunk and the trie's right spine. The
 * worker holds a fed block from its first chunk to its seal or discard (at most MAX_FEEDS of them); a fed
 * block the worker cannot finish (not loaded when the block began, failed, closed, evicted) has its roots
 * computed from the block's whole lists, as a block that was never fed. Nothing of one block's feed ever
 * reaches another's: each has its own number on the worker.
 */

import { rootsInTurns, type OrderedRoots, type RootsFeed } from '../../execution/block-builder.ts'
import { WorkerLane } from '../worker-lane.ts'
import { threadEntry } from '../thread-entry.ts'
import { packLists } from './lists-wire.ts'

const ENTRY = threadEntry(import.meta.url, './hashing-entry.mjs', 'hashing-worker')

/**
 * What the worker is asked: a whole block's lists (`lists`, answered with their roots), or a fed block's
 * items as they come (`append`), the last of them and its roots (`finish`: `counts` is how many items each
 * list holds in all, checked there), or the end of a fed block that will not be sealed (`drop`).
 */
export type HashRequest =
  | { readonly kind: 'lists'; readonly id: number; readonly lists: ArrayBuffer }
  | { readonly kind: 'append'; readonly feed: number; readonly lists: ArrayBuffer }
  | { readonly kind: 'finish'; readonly id: number; readonly feed: number; readonly lists: ArrayBuffer; readonly counts: readonly number[] }
  | { readonly kind: 'drop'; readonly feed: number }

export interface HashReply {
  readonly id: number
  /** Undefined: a fed block the worker does not hold whole (the roots are computed on the main thread). */
  readonly roots: Uint8Array[] | undefined
  /** How many fed blocks the worker holds once it has answered. */
  readonly held: number
  /** The worker's own time on this request, ms (what a seal waits for at least). */
  readonly took: number
}

interface Waiting {
  /** A fed block's finish, or a whole block's lists. */
  readonly fed: boolean
  readonly lists: readonly (readonly Uint8Array[])[]
  resolve(roots: Promise<Uint8Array[]> | Uint8Array[]): void
}

/** Items (transactions and receipts together) of the first block whose roots start the worker: below it, a
 * block's roots take about a millisecond on the main thread. */
export const WORKER_FROM_ITEMS = 256

/** Items of each list a feed gathers before it hands them to the worker. */
export const FEED_CHUNK = 256

/** Fed blocks the worker holds at most (normally one: the open block); past it the oldest goes (hashed whole at its seal). */
export const MAX_FEEDS = 4

export class SealHashing {
  private lane: WorkerLane<HashReply> | undefined
  private closed = false
  private nextId = 1
  private readonly waiting = new Map<number, Waiting>()
  private nextFeed = 1
  private readonly counts = { fed: 0, whole: 0, here: 0 }
  private workerHeld = 0
  private workerMs = 0
  /** The fed blocks the worker holds, oldest first. */
  private readonly feeds = new Set<BlockFeed>()

  /** Whether the worker has been started (by a large block, or `start`). */
  get running(): boolean {
    return this.lane !== undefined
  }

  /** Fed blocks the worker holds (each until its seal, discard, or eviction past MAX_FEEDS). */
  get heldFeeds(): number {
    return this.feeds.size
  }

  /** Fed blocks the worker said it held at its latest answer (a check that discarded blocks leave it). */
  get heldByWorker(): number {
    return this.workerHeld
  }

  /** The worker's own time on its latest answer, ms (bench/seal-roots.ts). */
  get lastWorkerMs(): number {
    return this.workerMs
  }

  /** Starts the worker now (once; a large enough block does it too). */
  start(): void {
    if (this.lane !== undefined || this.closed) return
    this.lane = new WorkerLane<HashReply>(ENTRY, undefined, {
      reply: (reply) => {
        const waiting = this.waiting.get(reply.id)
        this.waiting.delete(reply.id)
        this.workerHeld = reply.held
        this.workerMs = reply.took
        if (waiting === undefined) return
        if (reply.roots === undefined) return waiting.resolve(this.here(waiting.lists))
        this.counts[waiting.fed ? 'fed' : 'whole']++
        waiting.resolve(reply.roots)
      },
      failed: () => this.computeHere(),
    })
  }

  /** The builder's OrderedRoots: on the worker when it is there, else here. */
  readonly roots: OrderedRoots = (lists) => {
    if (this.lane === undefined && lists.reduce((n, list) => n + list.length, 0) >= WORKER_FROM_ITEMS) this.start()
    const lane = this.lane
    if (lane === undefined || !lane.usable) return this.here(lists)
    return new Promise((resolve) => {
      const id = this.nextId++
      this.waiting.set(id, { fed: false, lists, resolve })
      const buffer = packLists(lists)
      lane.post({ kind: 'lists', id, lists: buffer } satisfies HashRequest, [buffer])
    })
  }

  /** The builder's RootsFeed factory (OpenOptions.rootsFeed): each block's items hashed on the worker as they come. */
  readonly feed = (): RootsFeed => new BlockFeed(this)

  /**
   * (BlockFeed's) A feed's first items: when the worker is usable it takes the block, under a number of its
   * own; else undefined (the worker starts once a block is large enough).
   */
  attach(feed: BlockFeed, items: number): { readonly lane: WorkerLane<HashReply>; readonly id: number } | undefined {
    if (this.lane === undefined && items >= WORKER_FROM_ITEMS) this.start()
    const lane = this.lane
    if (lane === undefined || !lane.usable) return undefined
    this.feeds.add(feed)
    for (const oldest of this.feeds) {
      if (this.feeds.size <= MAX_FEEDS) break
      oldest.drop()
    }
    return { lane, id: this.nextFeed++ }
  }

  /** (BlockFeed's) A feed the worker no longer holds. */
  detach(feed: BlockFeed): void {
    this.feeds.delete(feed)
  }

  /** (BlockFeed's) Posts a fed block's last items; resolves with its roots (computed here if the worker cannot answer). */
  finish(lane: WorkerLane<HashReply>, feed: number, rest: ArrayBuffer, lists: readonly (readonly Uint8Array[])[]): Promise<Uint8Array[]> {
    return new Promise((resolve) => {
      const id = this.nextId++
      this.waiting.set(id, { fed: true, lists, resolve })
      lane.post({ kind: 'finish', id, feed, lists: rest, counts: lists.map((l) => l.length) } satisfies HashRequest, [rest])
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

  /**
   * Blocks whose roots came from the worker's fed state (`fed`), from the worker given the whole lists
   * (`whole`), or were computed on this thread (`here`: no worker, or it could not answer).
   */
  get answered(): Readonly<{ fed: number; whole: number; here: number }> {
    return { ...this.counts }
  }

  private here(lists: readonly (readonly Uint8Array[])[]): Promise<Uint8Array[]> {
    this.counts.here++
    return rootsInTurns(lists)
  }

  /** What a worker that erred, exited or was closed held is computed here. */
  private computeHere(): void {
    for (const waiting of this.waiting.values()) waiting.resolve(this.here(waiting.lists))
    this.waiting.clear()
  }
}

/**
 * One block's feed: hands the worker its items in chunks of FEED_CHUNK as they join, and at the seal the rest
 * and a request for the roots. The block keeps its lists, so whatever the worker cannot answer (not yet
 * loaded when the block began, failed or closed meanwhile, dropped past MAX_FEEDS) is computed from them:
 * on the worker as a whole block when it is usable at the seal, else here.
 */
class BlockFeed implements RootsFeed {
  private lane: WorkerLane<HashReply> | undefined
  private id = 0
  /** Items of each list the worker has been sent. */
  private sent: readonly number[] = []
  /** The worker does not hold this block (never did, or no longer does). */
  private lost = false
  private ended = false

  constructor(private readonly hashing: SealHashing) {}

  update(lists: readonly (readonly Uint8Array[])[]): void {
    if (this.lost || this.ended) return
    const count = lists[0]!.length
    if (this.lane === undefined) {
      if (count < FEED_CHUNK) return
      const attached = this.hashing.attach(this, count * lists.length)
      if (attached === undefined) return
      this.lane = attached.lane
      this.id = attached.id
    }
    if (!this.lane.alive) return this.drop()
    if (count - (this.sent[0] ?? 0) < FEED_CHUNK) return
    const buffer = this.rest(lists)
    this.lane.post({ kind: 'append', feed: this.id, lists: buffer } satisfies HashRequest, [buffer])
  }

  roots(lists: readonly (readonly Uint8Array[])[]): Promise<Uint8Array[]> {
    if (this.ended) throw new Error('the block\'s roots feed has ended')
    this.ended = true
    const lane = this.lane
    if (lane === undefined || this.lost || !lane.usable) {
      this.drop()
      return this.hashing.roots(lists)
    }
    this.hashing.detach(this)
    return this.hashing.finish(lane, this.id, this.rest(lists), lists)
  }

  discard(): void {
    this.ended = true
    this.drop()
  }

  /** The worker forgets this block (if it holds it); its roots, if asked, are computed from the whole lists. */
  drop(): void {
    if (this.lost) return
    this.lost = true
    this.hashing.detach(this)
    if (this.lane?.alive === true) this.lane.post({ kind: 'drop', feed: this.id } satisfies HashRequest)
  }

  /** The items not yet sent, packed; they count as sent. */
  private rest(lists: readonly (readonly Uint8Array[])[]): ArrayBuffer {
    const from = this.sent
    this.sent = lists.map((l) => l.length)
    return packLists(lists.map((l, k) => l.slice(from[k] ?? 0)))
  }
}
