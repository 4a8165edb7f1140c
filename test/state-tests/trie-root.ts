/**
 * The root of a Merkle-Patricia trie over fixed-length keys (the state and storage tries, whose keys are
 * 32-byte hashes), built in one pass over the sorted keys: a lone entry is a leaf, a shared nibble prefix an
 * extension, anything else a 16-way branch (never with a value: no key is a prefix of another). A node
 * whose encoding is under 32 bytes is embedded in its parent. Checked against @ethereumjs/mpt in
 * trie-root.test.ts.
 */

import { KECCAK256_RLP } from '@ethereumjs/util'
import { keccak256 } from '../../src/primitives/keccak.ts'
import { encodeRlp, type RlpItem } from '../../src/primitives/rlp-encode.ts'

export interface TrieEntry {
  /** All keys of one trie have the same length. */
  readonly key: Uint8Array
  /** Non-empty (an empty value is an absent key). */
  readonly value: Uint8Array
}

export const EMPTY_TRIE_ROOT: Uint8Array = KECCAK256_RLP

const EMPTY = new Uint8Array(0)

function nibbleAt(key: Uint8Array, i: number): number {
  const byte = key[i >> 1]!
  return i & 1 ? byte & 15 : byte >> 4
}

/** Hex-prefix encoding of the nibbles [from, to) of a key. */
function hexPrefix(key: Uint8Array, from: number, to: number, leaf: boolean): Uint8Array {
  const len = to - from
  const odd = len & 1
  const out = new Uint8Array(1 + (len >> 1))
  out[0] = ((leaf ? 2 : 0) + odd) << 4
  let i = from
  if (odd) out[0] |= nibbleAt(key, i++)
  for (let j = 1; i < to; j++, i += 2) out[j] = (nibbleAt(key, i) << 4) | nibbleAt(key, i + 1)
  return out
}

function reference(node: RlpItem): RlpItem {
  const encoded = encodeRlp(node)
  return encoded.length < 32 ? node : keccak256(encoded)
}

/** The node over sorted entries [lo, hi), all sharing their first `depth` nibbles. */
function build(entries: readonly TrieEntry[], lo: number, hi: number, depth: number): RlpItem {
  const first = entries[lo]!
  const nibbles = first.key.length * 2
  if (hi - lo === 1) return [hexPrefix(first.key, depth, nibbles, true), first.value]
  const last = entries[hi - 1]!
  let shared = 0
  while (depth + shared < nibbles && nibbleAt(first.key, depth + shared) === nibbleAt(last.key, depth + shared)) shared++
  if (shared > 0) return [hexPrefix(first.key, depth, depth + shared, false), reference(build(entries, lo, hi, depth + shared))]
  const branch: RlpItem[] = new Array<RlpItem>(17).fill(EMPTY)
  let i = lo
  while (i < hi) {
    const nibble = nibbleAt(entries[i]!.key, depth)
    let j = i + 1
    while (j < hi && nibbleAt(entries[j]!.key, depth) === nibble) j++
    branch[nibble] = reference(build(entries, i, j, depth + 1))
    i = j
  }
  return branch
}

function compareKeys(a: TrieEntry, b: TrieEntry): number {
  const x = a.key
  const y = b.key
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i]! - y[i]!
  return 0
}

/** The root of the trie holding `entries` (distinct keys of one length, in any order). */
export function trieRoot(entries: readonly TrieEntry[]): Uint8Array {
  if (entries.length === 0) return EMPTY_TRIE_ROOT
  const sorted = [...entries].sort(compareKeys)
  for (let i = 1; i < sorted.length; i++) if (compareKeys(sorted[i - 1]!, sorted[i]!) === 0) throw new Error('duplicate trie key')
  return keccak256(encodeRlp(build(sorted, 0, sorted.length, 0)))
}
