/**
 * Where the state-root computation (batch-trie.ts, through state-root.ts) keeps trie nodes: the `trie` table,
 * with a write buffer.
 *
 * Nodes are addressed by unprefixed-hex hash. Reads check the buffer, then the database; writes only fill the
 * buffer, which the caller moves into its block batch (so trie nodes commit atomically with the block that
 * needs them). Nodes are never deleted: every historical root stays walkable (archive).
 */

import type { KvStore, WriteBatch } from '../storage/db.ts'
import { keys } from '../storage/keys.ts'
import { hexToBytes } from '../primitives/hex.ts'
import type { NodeStore } from './batch-trie.ts'

export class BufferedTrieDb implements NodeStore {
  readonly pending = new Map<string, Uint8Array>()

  constructor(private readonly store: KvStore) {}

  async get(key: string): Promise<Uint8Array | undefined> {
    return this.pending.get(key) ?? this.store.get(keys.trie(hexToBytes(`0x${key}`)))
  }

  async put(key: string, value: Uint8Array): Promise<void> {
    this.pending.set(key, value)
  }

  /** Moves the buffered nodes into `batch`. */
  flushInto(batch: WriteBatch): void {
    for (const [k, v] of this.pending) batch.put(keys.trie(hexToBytes(`0x${k}`)), v)
    this.pending.clear()
  }
}
