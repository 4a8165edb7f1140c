/**
 * The root of a Merkle-Patricia trie keyed by RLP(index), as blocks commit to their transactions and
 * receipts, built in one pass over the sorted keys: every node is encoded and hashed exactly once.
 *
 * The library's trie inserts key by key, walking and re-hashing the path each time (about a second for
 * 2,000 transactions); this is the same construction a stack trie does, written recursively: a single
 * remaining entry is a leaf, a shared nibble prefix is an extension, otherwise a 16-way branch. Nodes
 * whose encoding is under 32 bytes are embedded in their parent, as the yellow paper requires.
 */

import { RLP } from '@ethereumjs/rlp'
import { keccak_256 as keccak256 } from '@noble/hashes/sha3.js'
import { encodeRlp as encode } from '../state/rlp-encode.ts'

type Node = Uint8Array | Node[]

interface Entry {
  readonly nibbles: Uint8Array
  readonly value: Uint8Array
}

const EMPTY_ROOT = keccak256(RLP.encode(new Uint8Array(0)))

function toNibbles(key: Uint8Array): Uint8Array {
  const out = new Uint8Array(key.length * 2)
  for (let i = 0; i < key.length; i++) {
    out[2 * i] = key[i]! >> 4
    out[2 * i + 1] = key[i]! & 15
  }
  return out
}

/** Hex-prefix encoding of a nibble path (yellow paper, appendix C). */
function hexPrefix(nibbles: Uint8Array, from: number, to: number, leaf: boolean): Uint8Array {
  const len = to - from
  const odd = len % 2
  const out = new Uint8Array(1 + (len - odd) / 2)
  out[0] = ((leaf ? 2 : 0) + odd) << 4
  let i = from
  if (odd) out[0]! |= nibbles[i++]!
  for (let j = 1; i < to; j++, i += 2) out[j] = (nibbles[i]! << 4) | nibbles[i + 1]!
  return out
}

/** How a child is referenced from its parent: embedded when short, else by hash. */
function reference(node: Node): Node {
  const encoded = encode(node)
  return encoded.length < 32 ? node : keccak256(encoded)
}

function build(entries: readonly Entry[], lo: number, hi: number, depth: number): Node {
  const first = entries[lo]!
  if (hi - lo === 1) return [hexPrefix(first.nibbles, depth, first.nibbles.length, true), first.value]
  const last = entries[hi - 1]!
  let shared = 0
  while (depth + shared < first.nibbles.length && depth + shared < last.nibbles.length && first.nibbles[depth + shared] === last.nibbles[depth + shared]) {
    shared++
  }
  if (shared > 0) {
    return [hexPrefix(first.nibbles, depth, depth + shared, false), reference(build(entries, lo, hi, depth + shared))]
  }
  const branch: Node[] = new Array(17).fill(new Uint8Array(0))
  let i = lo
  if (first.nibbles.length === depth) {
    branch[16] = first.value
    i++
  }
  while (i < hi) {
    const nibble = entries[i]!.nibbles[depth]!
    let j = i + 1
    while (j < hi && entries[j]!.nibbles[depth] === nibble) j++
    branch[nibble] = reference(build(entries, i, j, depth + 1))
    i = j
  }
  return branch
}

function compareNibbles(a: Entry, b: Entry): number {
  const n = Math.min(a.nibbles.length, b.nibbles.length)
  for (let i = 0; i < n; i++) if (a.nibbles[i] !== b.nibbles[i]) return a.nibbles[i]! - b.nibbles[i]!
  return a.nibbles.length - b.nibbles.length
}

/** Root of the trie mapping RLP(i) to values[i]. */
export function orderedTrieRoot(values: readonly Uint8Array[]): Uint8Array {
  if (values.length === 0) return EMPTY_ROOT
  const entries = values.map((value, i) => ({ nibbles: toNibbles(RLP.encode(i)), value }))
  entries.sort(compareNibbles)
  return keccak256(encode(build(entries, 0, entries.length, 0)))
}
