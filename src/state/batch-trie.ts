/**
 * Applies a batch of puts and deletes to a stored Merkle-Patricia trie and hashes the result once.
 *
 * The library's trie re-encodes and re-hashes the whole path from the root to the leaf on every put, so a
 * block that touches k accounts hashes the root branch k times, its children about as often, and stores
 * every intermediate node. Here the touched paths are loaded once, changed in memory, and each changed node
 * is encoded and hashed once at the end; only the final nodes are stored. Same tries, same roots (the
 * differential test in batch-trie.test.ts checks it against the library).
 *
 * Keys are fixed-length (32-byte hashes: the state and storage tries hash their keys), so no key is a prefix
 * of another and branch nodes never hold values. Nodes whose encoding is under 32 bytes are embedded in
 * their parent; the root is always stored by its hash. Nodes are never deleted (the archive keeps every
 * historical root walkable).
 */

import { RLP } from '@ethereumjs/rlp'
import { KECCAK256_RLP } from '@ethereumjs/util'
import { keccak256 } from '../primitives/keccak.ts'
import { Lru } from '../primitives/lru.ts'
import { encodeRlp } from '../primitives/rlp-encode.ts'
import { registerGauge } from '../primitives/memory-gauges.ts'

/** Where nodes live: by unprefixed-hex hash (trie-db.ts). */
export interface NodeStore {
  get(key: string): Promise<Uint8Array | undefined>
  put(key: string, value: Uint8Array): Promise<void>
}

export interface TrieUpdate {
  /** 32 bytes (already hashed). */
  readonly key: Uint8Array
  /** The new value, or null to delete the key. */
  readonly value: Uint8Array | null
}

export class MissingTrieNode extends Error {
  constructor(hash: Uint8Array) {
    super(`missing trie node ${Buffer.from(hash).toString('hex')}`)
    this.name = 'MissingTrieNode'
  }
}

interface Branch {
  readonly t: 'branch'
  readonly children: (Ref | undefined)[]
}
interface Short {
  readonly t: 'short'
  path: number[]
  leaf: boolean
  /** The value of a leaf; the child of an extension. */
  next: Uint8Array | Ref
}
type Node = Branch | Short
/** A child: a stored node by hash (not loaded), or a node in memory. */
type Ref = Uint8Array | Node

type Raw = Uint8Array | Raw[]

const EMPTY = new Uint8Array(0)

function nibbles(key: Uint8Array): number[] {
  const out = new Array<number>(key.length * 2)
  for (let i = 0; i < key.length; i++) {
    out[2 * i] = key[i]! >> 4
    out[2 * i + 1] = key[i]! & 15
  }
  return out
}

/** Hex-prefix encoding (yellow paper, appendix C). */
function hexPrefix(path: readonly number[], leaf: boolean): Uint8Array {
  const odd = path.length % 2
  const out = new Uint8Array(1 + (path.length - odd) / 2)
  out[0] = ((leaf ? 2 : 0) + odd) << 4
  let i = 0
  if (odd) out[0]! |= path[i++]!
  for (let j = 1; i < path.length; j++, i += 2) out[j] = (path[i]! << 4) | path[i + 1]!
  return out
}

function fromHexPrefix(encoded: Uint8Array): { path: number[]; leaf: boolean } {
  const flag = encoded[0]! >> 4
  const path: number[] = []
  if (flag & 1) path.push(encoded[0]! & 15)
  for (let i = 1; i < encoded.length; i++) path.push(encoded[i]! >> 4, encoded[i]! & 15)
  return { path, leaf: flag >= 2 }
}

function fromRaw(raw: Raw): Node {
  if (!Array.isArray(raw)) throw new Error('trie node is not a list')
  if (raw.length === 17) {
    if ((raw[16] as Uint8Array).length !== 0) throw new Error('branch value in a trie with fixed-length keys')
    return { t: 'branch', children: raw.slice(0, 16).map(childFromRaw) }
  }
  if (raw.length !== 2) throw new Error(`trie node with ${raw.length} items`)
  const { path, leaf } = fromHexPrefix(raw[0] as Uint8Array)
  return { t: 'short', path, leaf, next: leaf ? (raw[1] as Uint8Array) : childFromRaw(raw[1]!)! }
}

function childFromRaw(raw: Raw): Ref | undefined {
  if (Array.isArray(raw)) return fromRaw(raw)
  return raw.length === 0 ? undefined : raw
}

/**
 * Decoded nodes by hash, the least recently used dropped first (primitives/lru.ts; a read keeps a node among the
 * recent). A node's hash fixes its content, so an entry is right for every database and never goes stale;
 * consecutive blocks share the top of the state trie and each block's new nodes are the next one's base, so a
 * seal mostly finds them here instead of reading and decoding them. Raw nodes are never mutated (fromRaw builds
 * new objects; byte strings are shared read-only).
 */
const DECODED_MAX = 8_192
const decoded = new Lru<string, Raw>(DECODED_MAX)
registerGauge('batch-trie decoded nodes', decoded, (c) => c.gauge())

class BatchTrie {
  constructor(private readonly store: NodeStore) {}

  async load(ref: Ref): Promise<Node> {
    if (!(ref instanceof Uint8Array)) return ref
    const hash = Buffer.from(ref).toString('hex')
    let raw = decoded.get(hash)
    if (raw === undefined) {
      const encoded = await this.store.get(hash)
      if (encoded === undefined) throw new MissingTrieNode(ref)
      raw = RLP.decode(encoded) as Raw
      decoded.set(hash, raw)
    }
    return fromRaw(raw)
  }

  async put(ref: Ref | undefined, key: readonly number[], at: number, value: Uint8Array): Promise<Node> {
    if (ref === undefined) return { t: 'short', path: key.slice(at), leaf: true, next: value }
    const node = await this.load(ref)
    if (node.t === 'branch') {
      node.children[key[at]!] = await this.put(node.children[key[at]!], key, at + 1, value)
      return node
    }
    let c = 0
    while (c < node.path.length && node.path[c] === key[at + c]) c++
    if (c === node.path.length) {
      if (node.leaf) {
        node.next = value
        return node
      }
      node.next = await this.put(node.next as Ref, key, at + c, value)
      return node
    }
    // Split at the first differing nibble: a branch holding the old remainder and the new leaf.
    const branch: Branch = { t: 'branch', children: new Array<Ref | undefined>(16).fill(undefined) }
    const rest = node.path.slice(c + 1)
    branch.children[node.path[c]!] = !node.leaf && rest.length === 0 ? (node.next as Ref) : { t: 'short', path: rest, leaf: node.leaf, next: node.next }
    branch.children[key[at + c]!] = { t: 'short', path: key.slice(at + c + 1), leaf: true, next: value }
    return c === 0 ? branch : { t: 'short', path: node.path.slice(0, c), leaf: false, next: branch }
  }

  async del(ref: Ref | undefined, key: readonly number[], at: number): Promise<Ref | undefined> {
    if (ref === undefined) return undefined
    const node = await this.load(ref)
    if (node.t === 'short') {
      for (let i = 0; i < node.path.length; i++) if (node.path[i] !== key[at + i]) return ref
      if (node.leaf) return undefined
      const child = await this.del(node.next as Ref, key, at + node.path.length)
      if (child === undefined) return undefined
      return this.join(node.path, child)
    }
    const k = key[at]!
    node.children[k] = await this.del(node.children[k], key, at + 1)
    let only = -1
    for (let i = 0; i < 16; i++) {
      if (node.children[i] === undefined) continue
      if (only !== -1) return node
      only = i
    }
    if (only === -1) return undefined
    // One child left: the branch folds into its child.
    return this.join([only], node.children[only]!)
  }

  /** `path` followed by `child`, as one node (an extension never points at another short node). */
  private async join(path: number[], child: Ref): Promise<Node> {
    const node = await this.load(child)
    if (node.t === 'short') return { t: 'short', path: [...path, ...node.path], leaf: node.leaf, next: node.next }
    return { t: 'short', path, leaf: false, next: node }
  }

  /** The raw form of `ref` as its parent holds it: a hash, or the node itself when under 32 bytes. */
  async reference(ref: Ref): Promise<Raw> {
    if (ref instanceof Uint8Array) return ref
    const raw = await this.raw(ref)
    const encoded = encodeRlp(raw)
    if (encoded.length < 32) return raw
    const hash = keccak256(encoded)
    const key = Buffer.from(hash).toString('hex')
    await this.store.put(key, encoded)
    decoded.set(key, raw)
    return hash
  }

  private async raw(node: Node): Promise<Raw> {
    if (node.t === 'short') {
      return [hexPrefix(node.path, node.leaf), node.leaf ? (node.next as Uint8Array) : await this.reference(node.next as Ref)]
    }
    const out: Raw[] = []
    for (const child of node.children) out.push(child === undefined ? EMPTY : await this.reference(child))
    out.push(EMPTY)
    return out
  }

  async root(ref: Ref | undefined): Promise<Uint8Array> {
    if (ref === undefined) return KECCAK256_RLP
    if (ref instanceof Uint8Array) return ref
    const raw = await this.raw(ref)
    const encoded = encodeRlp(raw)
    const hash = keccak256(encoded)
    const key = Buffer.from(hash).toString('hex')
    await this.store.put(key, encoded)
    decoded.set(key, raw)
    return hash
  }
}

function equal(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/** The root after applying `updates` to the trie at `root`; the new nodes go to `store`. */
export async function applyTrieUpdates(store: NodeStore, root: Uint8Array, updates: readonly TrieUpdate[]): Promise<Uint8Array> {
  if (updates.length === 0) return root
  const trie = new BatchTrie(store)
  let top: Ref | undefined = equal(root, KECCAK256_RLP) ? undefined : root
  for (const { key, value } of updates) {
    if (key.length !== 32) throw new Error('trie keys must be 32 bytes')
    const path = nibbles(key)
    top = value === null ? await trie.del(top, path, 0) : await trie.put(top, path, 0, value)
  }
  return trie.root(top)
}
