/** A trie node store in a Map (state/batch-trie.ts NodeStore), for the trie tests. */

import type { NodeStore } from '../../src/state/batch-trie.ts'

export class MapNodeStore implements NodeStore {
  readonly nodes = new Map<string, Uint8Array>()
  async get(key: string): Promise<Uint8Array | undefined> {
    return this.nodes.get(key)
  }
  async put(key: string, value: Uint8Array): Promise<void> {
    this.nodes.set(key, value)
  }
}
