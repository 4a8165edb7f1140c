/**
 * Merkle proofs of one key in a stored Merkle-Patricia trie (EIP-1186): the nodes on the path from the root
 * towards the key, as their RLP encodings, and the value found at its end.
 *
 * Owns only the walk. Nodes come from a NodeStore (the `trie` table through trie-db.ts, or a buffer over it
 * for a state not sealed yet); nothing is written. Like geth's proofs, the list holds the root and every
 * node its parent references by hash; a node under 32 bytes is embedded in its parent and is not listed
 * again. A key that is not in the trie gets a proof of absence: the path up to where it leaves the trie (a
 * branch with no child at its next nibble, or a short node whose path differs). An empty trie proves every
 * key absent with no nodes. Keys are 32 bytes, already hashed (the state and storage tries hash theirs).
 */

import { RLP } from '@ethereumjs/rlp'
import { KECCAK256_RLP } from '@ethereumjs/util'
import { equalBytes } from '../primitives/hex.ts'
import { MissingTrieNode, type NodeStore } from './batch-trie.ts'
import { Lru } from '../primitives/lru.ts'
import { registerGauge } from '../primitives/memory-gauges.ts'

export interface TrieProof {
  /** RLP-encoded nodes from the root down, each one referenced by hash in the one before it. */
  readonly nodes: readonly Uint8Array[]
  /** The value at the key, or undefined when the proof shows it absent. */
  readonly value: Uint8Array | undefined
}

type Raw = Uint8Array | Raw[]

const ABSENT_EMPTY: TrieProof = { nodes: [], value: undefined }

/**
 * Nodes read and decoded, by hash, across proofs: a node is named by the hash of its encoding, so a cached one
 * can never be stale (whichever store it came from), and the upper levels of the state trie and of a busy
 * contract's storage trie, which every proof walks, are read from the database and decoded once. Neither
 * the encoding nor the decoded form is ever written (the encodings go out as the proof, read only).
 */
const decodedNodes = new Lru<string, { readonly encoded: Uint8Array; readonly decoded: Raw }>(8192)
registerGauge('proof decoded nodes', decodedNodes, (c) => c.gauge())

export async function proveKey(store: NodeStore, root: Uint8Array, key: Uint8Array): Promise<TrieProof> {
  if (key.length !== 32) throw new Error('trie keys must be 32 bytes')
  if (equalBytes(root, KECCAK256_RLP)) return ABSENT_EMPTY
  const nodes: Uint8Array[] = []
  const load = async (hash: Uint8Array): Promise<Raw> => {
    const key = Buffer.from(hash.buffer, hash.byteOffset, hash.byteLength).toString('hex')
    const known = decodedNodes.get(key)
    if (known !== undefined) {
      nodes.push(known.encoded)
      return known.decoded
    }
    const encoded = await store.get(key)
    if (encoded === undefined) throw new MissingTrieNode(hash)
    nodes.push(encoded)
    const decoded = RLP.decode(encoded) as Raw
    decodedNodes.set(key, { encoded, decoded })
    return decoded
  }
  let node = await load(root)
  let at = 0
  for (;;) {
    if (!Array.isArray(node)) throw new Error('trie node is not a list')
    let child: Raw
    if (node.length === 17) {
      if (at === 64) return { nodes, value: undefined } // fixed-length keys: branches hold no values
      child = node[nibbleAt(key, at++)]!
    } else if (node.length === 2) {
      const encodedPath = node[0] as Uint8Array
      const leaf = encodedPath[0]! >> 4 >= 2
      const odd = (encodedPath[0]! >> 4) & 1
      const length = (encodedPath.length - 1) * 2 + odd
      for (let i = 0; i < length; i++) {
        if (at + i >= 64 || pathNibble(encodedPath, i + 2 - odd) !== nibbleAt(key, at + i)) return { nodes, value: undefined }
      }
      at += length
      if (leaf) return { nodes, value: at === 64 ? (node[1] as Uint8Array) : undefined }
      child = node[1]!
    } else {
      throw new Error(`trie node with ${node.length} items`)
    }
    if (Array.isArray(child)) node = child // embedded: already inside its parent's encoding
    else if (child.length === 0) return { nodes, value: undefined }
    else node = await load(child)
  }
}

/** The i-th nibble of a 32-byte key. */
const nibbleAt = (key: Uint8Array, i: number): number => (i & 1 ? key[i >> 1]! & 15 : key[i >> 1]! >> 4)

/** Nibble `i` of a hex-prefix encoding counted from the start of its first byte (0 and 1 are the flags). */
const pathNibble = (encoded: Uint8Array, i: number): number => (i & 1 ? encoded[i >> 1]! & 15 : encoded[i >> 1]! >> 4)
