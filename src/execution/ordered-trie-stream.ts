/**
 * An ordered trie's root (keys RLP(index), as ordered-trie.ts), built while its values arrive in index order:
 * every node that no later value can change is encoded and hashed as soon as that is known, so that `root()`
 * has only the right spine (the path to the newest key) left to hash.
 *
 * Sorted, the keys run 1..127, 0, 128, 129, …: apart from index 0 they arrive in key order. Index 0's value
 * (known from the first push) is held back and inserted in its key's turn, just before index 128 (or at
 * `root()` in a block of fewer). No key is a prefix of another (a key's first byte says its length), so no
 * branch ever holds a value.
 *
 * Insertion keeps a stack of the branches on the path to the newest key, shallowest first. A new key leaves
 * that path at the depth where it stops sharing nibbles with the newest: every branch deeper than that, and
 * the newest key's leaf, can receive nothing more and are folded into their parents' references. A branch's
 * depth is known when it is made (the depth two keys part at), so a folded child's encoding (its leaf path
 * or the extension above it) is final.
 *
 * Owns only its own state; never changes orderedTrieRoot's construction, and gives the same root for the
 * same values. `root()` ends it: pushing afterwards throws.
 */

import { keccak256 } from '../primitives/keccak.ts'
import { encodeRlp as encode } from '../primitives/rlp-encode.ts'
import { EMPTY_ROOT, hexPrefix, reference, type Node } from './ordered-trie.ts'

/** A branch on the path to the newest key: its depth (in nibbles), a key below it, its 17 slots. */
interface Branch {
  readonly depth: number
  readonly key: Uint8Array
  readonly slots: Node[]
}

/** What is folded into a parent: a leaf (its key, its value) or a finished branch. */
type Subtree = { readonly key: Uint8Array; readonly value: Uint8Array } | Branch

const EMPTY = new Uint8Array(0)

/** The nibbles of RLP(index). */
export function indexKey(index: number): Uint8Array {
  if (index > 0 && index < 128) return Uint8Array.of(index >> 4, index & 15)
  if (index === 0) return Uint8Array.of(8, 0)
  const bytes: number[] = []
  for (let n = index; n > 0; n = Math.floor(n / 256)) bytes.unshift(n % 256)
  const out = new Uint8Array(2 + bytes.length * 2)
  out[0] = (0x80 + bytes.length) >> 4
  out[1] = (0x80 + bytes.length) & 15
  bytes.forEach((b, i) => {
    out[2 + 2 * i] = b >> 4
    out[3 + 2 * i] = b & 15
  })
  return out
}

/** The subtree's node as the child of a branch at `parentDepth` (-1: the root). */
function nodeUnder(sub: Subtree, parentDepth: number): Node {
  if ('value' in sub) return [hexPrefix(sub.key, parentDepth + 1, sub.key.length, true), sub.value]
  if (sub.depth === parentDepth + 1) return sub.slots
  return [hexPrefix(sub.key, parentDepth + 1, sub.depth, false), reference(sub.slots)]
}

export class OrderedTrieStream {
  private count = 0
  /** Index 0's value, until its key's turn. */
  private first: Uint8Array | undefined
  private readonly path: Branch[] = []
  /** The newest key inserted and its value (its leaf's place is not known until the next key). */
  private newest: { readonly key: Uint8Array; readonly value: Uint8Array } | undefined
  private ended = false

  /** How many values have been pushed. */
  get length(): number {
    return this.count
  }

  /** Appends the value of the next index. */
  push(value: Uint8Array): void {
    if (this.ended) throw new Error('the ordered trie stream has ended')
    const index = this.count++
    if (index === 0) {
      this.first = value
      return
    }
    if (index === 128) this.insertFirst()
    this.insert(indexKey(index), value)
  }

  /** The root of every value pushed; ends the stream. */
  root(): Uint8Array {
    if (this.ended) throw new Error('the ordered trie stream has ended')
    this.ended = true
    if (this.count === 0) return EMPTY_ROOT
    if (this.count <= 128) this.insertFirst()
    const newest = this.newest!
    let sub: Subtree = newest
    for (let b = this.path.pop(); b !== undefined; b = this.path.pop()) {
      b.slots[newest.key[b.depth]!] = reference(nodeUnder(sub, b.depth))
      sub = b
    }
    return keccak256(encode(nodeUnder(sub, -1)))
  }

  private insertFirst(): void {
    this.insert(indexKey(0), this.first!)
    this.first = undefined
  }

  private insert(key: Uint8Array, value: Uint8Array): void {
    const newest = this.newest
    this.newest = { key, value }
    if (newest === undefined) return
    const prev = newest.key
    let parts = 0
    while (parts < prev.length && parts < key.length && prev[parts] === key[parts]) parts++
    if (parts === prev.length || parts === key.length || prev[parts]! > key[parts]!) throw new Error('ordered trie keys out of order')
    // Everything deeper than where the new key parts from the newest is final: fold it into its parent.
    let sub: Subtree = newest
    const path = this.path
    while (path.length > 0 && path[path.length - 1]!.depth > parts) {
      const b = path.pop()!
      b.slots[prev[b.depth]!] = reference(nodeUnder(sub, b.depth))
      sub = b
    }
    let parent = path[path.length - 1]
    if (parent === undefined || parent.depth < parts) {
      parent = { depth: parts, key: prev, slots: new Array<Node>(17).fill(EMPTY) }
      path.push(parent)
    }
    parent.slots[prev[parts]!] = reference(nodeUnder(sub, parts))
  }
}
