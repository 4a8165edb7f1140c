/**
 * Adapter between the Merkle-Patricia trie library and the `trie` table, with a write buffer.
 *
 * The library addresses nodes by unprefixed-hex hash. Reads check the buffer, then the database; writes only
 * fill the buffer, which the caller moves into its block batch (so trie nodes commit atomically with the
 * block that needs them). Nodes are never deleted: every historical root stays walkable (archive).
 */

import type { BatchDBOp, DB } from '@ethereumjs/util'
import type { KvStore, WriteBatch } from '../storage/db.ts'
import { keys } from '../storage/keys.ts'
import { hexToBytes } from '../primitives/hex.ts'

export class BufferedTrieDb implements DB<string, Uint8Array> {
  readonly pending = new Map<string, Uint8Array>()

  constructor(private readonly store: KvStore) {}

  async get(key: string): Promise<Uint8Array | undefined> {
    return this.pending.get(key) ?? this.store.get(keys.trie(hexToBytes(`0x${key}`)))
  }

  async put(key: string, value: Uint8Array): Promise<void> {
    this.pending.set(key, value)
  }

  async del(): Promise<void> {
    // Archive: nodes stay.
  }

  async batch(ops: BatchDBOp<string, Uint8Array>[]): Promise<void> {
    for (const op of ops) if (op.type === 'put') this.pending.set(op.key, op.value)
  }

  shallowCopy(): DB<string, Uint8Array> {
    return this
  }

  async open(): Promise<void> {}

  /** Moves the buffered nodes into `batch`. */
  flushInto(batch: WriteBatch): void {
    for (const [k, v] of this.pending) batch.put(keys.trie(hexToBytes(`0x${k}`)), v)
    this.pending.clear()
  }
}
