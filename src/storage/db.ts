/**
 * The embedded database: the only importer of `lmdb`.
 *
 * One LMDB environment in the data directory, binary keys and values. Reads are synchronous and lock-free
 * (LMDB readers never block writers), so state lookups on the hot path cost microseconds. Every write goes
 * through `commit(batch)`: one LMDB write transaction, durable when it returns, all-or-nothing after a
 * crash. Callers build the batch first (pure in-memory work) and commit it in one go, so a sealed block,
 * its state history and the head pointer land together or not at all. The data directory is always a
 * directory (LMDB's data.mdb and lock.mdb inside it), whatever its name.
 */

import { open, type Database, type RootDatabase } from 'lmdb'
import { mkdirSync } from 'node:fs'

export type Key = Uint8Array
export type Value = Uint8Array

export interface WriteBatch {
  put(key: Key, value: Value): void
  del(key: Key): void
  readonly size: number
}

export interface KvStore {
  get(key: Key): Value | undefined
  /** The entry with the greatest key in [low, high], or undefined. */
  floor(low: Key, high: Key): { key: Key; value: Value } | undefined
  /** Entries with keys in [start, end), ascending. */
  range(start: Key, end: Key, limit?: number): Iterable<{ key: Key; value: Value }>
  batch(): WriteBatch
  /** Commits synchronously: durable when it returns. */
  commit(batch: WriteBatch): void
  /**
   * Commits with other writes of the same moment in one transaction (group commit); durable when the
   * promise resolves. Ordering against `commit` is not guaranteed: use it only for independent keys.
   */
  commitAsync(batch: WriteBatch): Promise<void>
  close(): Promise<void>
}

type Op = { key: Key; value: Value | undefined }

class MemoryBatch implements WriteBatch {
  readonly ops: Op[] = []
  put(key: Key, value: Value): void {
    this.ops.push({ key, value })
  }
  del(key: Key): void {
    this.ops.push({ key, value: undefined })
  }
  get size(): number {
    return this.ops.length
  }
}

const asBuffer = (b: Uint8Array): Buffer => (Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength))

export class LmdbStore implements KvStore {
  private readonly root: RootDatabase
  private readonly db: Database<Buffer, Buffer>

  constructor(path: string) {
    mkdirSync(path, { recursive: true })
    // noSubdir: false always: the library takes a path whose name has an extension (`chain.v2`, `tmp.Xa81`)
    // for the database file itself unless told otherwise, and then fails on the directory made above.
    this.root = open({ path, noSubdir: false, keyEncoding: 'binary', encoding: 'binary', maxReaders: 1024, mapSize: 2 ** 36 })
    this.db = this.root as unknown as Database<Buffer, Buffer>
  }

  get(key: Key): Value | undefined {
    return this.db.getBinary(asBuffer(key)) ?? undefined
  }

  floor(low: Key, high: Key): { key: Key; value: Value } | undefined {
    // `end` is exclusive in reverse ranges. A `low` ending in a zero byte (every history key at block 0) has
    // an exact predecessor, itself without that byte (no key sorts between the two), so one range answers;
    // any other `low` is looked up on its own when the range holds nothing.
    const inclusive = low.length > 0 && low[low.length - 1] === 0
    const end = inclusive ? low.subarray(0, low.length - 1) : low
    for (const entry of this.db.getRange({ start: asBuffer(high), end: asBuffer(end), reverse: true, limit: 1 })) {
      return { key: entry.key, value: entry.value }
    }
    if (inclusive) return undefined
    const exact = this.db.getBinary(asBuffer(low))
    return exact === undefined ? undefined : { key: low, value: exact }
  }

  *range(start: Key, end: Key, limit?: number): Iterable<{ key: Key; value: Value }> {
    const opts = limit === undefined ? { start: asBuffer(start), end: asBuffer(end) } : { start: asBuffer(start), end: asBuffer(end), limit }
    for (const entry of this.db.getRange(opts)) yield { key: entry.key, value: entry.value }
  }

  batch(): WriteBatch {
    return new MemoryBatch()
  }

  commit(batch: WriteBatch): void {
    if (!(batch instanceof MemoryBatch)) throw new TypeError('foreign batch')
    if (batch.ops.length === 0) return
    this.db.transactionSync(() => {
      for (const op of batch.ops) {
        if (op.value === undefined) this.db.removeSync(asBuffer(op.key))
        else this.db.putSync(asBuffer(op.key), asBuffer(op.value))
      }
    })
  }

  async commitAsync(batch: WriteBatch): Promise<void> {
    if (!(batch instanceof MemoryBatch)) throw new TypeError('foreign batch')
    let last: Promise<boolean> | undefined
    for (const op of batch.ops) {
      last = op.value === undefined ? this.db.remove(asBuffer(op.key)) : this.db.put(asBuffer(op.key), asBuffer(op.value))
    }
    await last
  }

  /**
   * Makes the next read see every commit made so far, by any thread. A thread reads through one LMDB read
   * transaction that lmdb-js keeps until its next timer turn, renewed only then (or by this thread's own
   * writes): a thread that never writes (an execution worker) can be a few milliseconds behind the writer,
   * longer while it is busy. A reader told of a newer commit (a job naming a block) calls this first.
   */
  refreshReads(): void {
    this.root.resetReadTxn()
  }

  async close(): Promise<void> {
    await this.root.close()
  }
}
