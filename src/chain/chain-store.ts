/**
 * The persisted chain: canonical headers and blocks by number, receipts, senders, the hash and transaction
 * indexes, and the head / safe / finalized pointers.
 *
 * Blocks are stored as the bytes the network uses (RLP); decoding them is execution/'s job. A block becomes
 * visible only when the batch that moves the head pointer commits, and that batch also holds the block, its
 * receipts, its indexes and its state history: a crash leaves either the old head or the new one.
 */

import type { KvStore, WriteBatch } from '../storage/db.ts'
import { keys, readU32, readU64, u32, u64 } from '../storage/keys.ts'
import { decodeReceipts, encodeReceipts, type ReceiptRecord } from './receipt-codec.ts'
import type { ReceiptView } from './types.ts'

export interface StoredBlock {
  readonly number: bigint
  readonly hash: Uint8Array
  readonly headerRlp: Uint8Array
  readonly blockRlp: Uint8Array
  readonly senders: readonly Uint8Array[]
  readonly txHashes: readonly Uint8Array[]
  readonly receipts: readonly ReceiptRecord[]
}

export type HeadPointer = 'head' | 'safe' | 'finalized'

const utf8 = new TextEncoder()
const utf8d = new TextDecoder()

export interface ChainStoreOptions {
  /**
   * This instance belongs to the process's one writer (ChainWriter), so the pointers can be kept in memory
   * and re-read only after `pointersCommitted()`. Readers in other threads must leave it off.
   */
  readonly soleWriter?: boolean
}

export class ChainStore {
  /** head/safe/finalized as last read, when this is the sole writer's store (every `latest` read asks). */
  private readonly pointers: Map<HeadPointer, bigint | undefined> | undefined

  constructor(
    readonly kv: KvStore,
    opts: ChainStoreOptions = {},
  ) {
    this.pointers = opts.soleWriter === true ? new Map() : undefined
  }

  pointer(name: HeadPointer): bigint | undefined {
    if (this.pointers?.has(name) === true) return this.pointers.get(name)
    const v = this.kv.get(keys.meta(name))
    const value = v === undefined ? undefined : readU64(v)
    this.pointers?.set(name, value)
    return value
  }

  /** The batch that moved pointers has committed: forget the remembered values. */
  pointersCommitted(): void {
    this.pointers?.clear()
  }

  setPointer(batch: WriteBatch, name: HeadPointer, num: bigint): void {
    batch.put(keys.meta(name), u64(num))
  }

  getMeta(name: string): string | undefined {
    const v = this.kv.get(keys.meta(`x:${name}`))
    return v === undefined ? undefined : utf8d.decode(v)
  }

  putMeta(batch: WriteBatch, name: string, value: string): void {
    batch.put(keys.meta(`x:${name}`), utf8.encode(value))
  }

  headerRlp(num: bigint): Uint8Array | undefined {
    return this.kv.get(keys.header(num))
  }

  blockRlp(num: bigint): Uint8Array | undefined {
    return this.kv.get(keys.block(num))
  }

  senders(num: bigint): Uint8Array[] {
    const raw = this.kv.get(keys.senders(num))
    if (raw === undefined) return []
    const out: Uint8Array[] = []
    for (let i = 0; i < raw.length; i += 20) out.push(raw.subarray(i, i + 20))
    return out
  }

  receipts(num: bigint): ReceiptView[] | undefined {
    const raw = this.kv.get(keys.receipts(num))
    return raw === undefined ? undefined : decodeReceipts(raw)
  }

  numberOfHash(hash: Uint8Array): bigint | undefined {
    const v = this.kv.get(keys.hashIndex(hash))
    return v === undefined ? undefined : readU64(v)
  }

  txLocation(hash: Uint8Array): { number: bigint; index: number } | undefined {
    const v = this.kv.get(keys.txIndex(hash))
    return v === undefined ? undefined : { number: readU64(v), index: readU32(v, 8) }
  }

  writeBlock(batch: WriteBatch, block: StoredBlock): void {
    batch.put(keys.header(block.number), block.headerRlp)
    batch.put(keys.block(block.number), block.blockRlp)
    const senders = new Uint8Array(block.senders.length * 20)
    block.senders.forEach((s, i) => senders.set(s, i * 20))
    batch.put(keys.senders(block.number), senders)
    batch.put(keys.receipts(block.number), encodeReceipts(block.receipts))
    batch.put(keys.hashIndex(block.hash), u64(block.number))
    const number = u64(block.number)
    block.txHashes.forEach((h, i) => {
      const loc = new Uint8Array(12)
      loc.set(number, 0)
      loc.set(u32(i), 8)
      batch.put(keys.txIndex(h), loc)
    })
  }
}
