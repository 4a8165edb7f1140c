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
import { keccak256 } from '../primitives/keccak.ts'
import { encodeRlp as encode } from '../primitives/rlp-encode.ts'

export type Node = Uint8Array | Node[]

interface Entry {
  readonly nibbles: Uint8Array
  readonly value: Uint8Array
}

export const EMPTY_ROOT = keccak256(RLP.encode(new Uint8Array(0)))

function toNibbles(key: Uint8Array): Uint8Array {
  const out = new Uint8Array(key.length * 2)
  for (let i = 0; i < key.length; i++) {
    out[2 * i] = key[i]! >> 4
    out[2 * i + 1] = key[i]! & 15
  }
  return out
}

/** Hex-prefix encoding of a nibble path (yellow paper, appendix C). */
export function hexPrefix(nibbles: Uint8Array, from: number, to: number, leaf: boolean): Uint8Array {
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
export function reference(node: Node): Node {
  const encoded = encode(node)
  return encoded.length < 32 ? node : keccak256(encoded)
}

/** The node over entries[lo, hi) at `depth`, before its children are built. */
type Shape =
  | { readonly kind: 'leaf' }
  | { readonly kind: 'extension'; readonly shared: number }
  | { readonly kind: 'branch'; readonly valueAt: number | undefined; readonly children: readonly Child[] }

/** A branch's child: its nibble and the entries [lo, hi) under it. */
interface Child {
  readonly nibble: number
  readonly lo: number
  readonly hi: number
}

function shapeOf(entries: readonly Entry[], lo: number, hi: number, depth: number): Shape {
  const first = entries[lo]!
  if (hi - lo === 1) return { kind: 'leaf' }
  const last = entries[hi - 1]!
  let shared = 0
  while (depth + shared < first.nibbles.length && depth + shared < last.nibbles.length && first.nibbles[depth + shared] === last.nibbles[depth + shared]) {
    shared++
  }
  if (shared > 0) return { kind: 'extension', shared }
  let i = lo
  let valueAt: number | undefined
  if (first.nibbles.length === depth) valueAt = i++
  const children: Child[] = []
  while (i < hi) {
    const nibble = entries[i]!.nibbles[depth]!
    let j = i + 1
    while (j < hi && entries[j]!.nibbles[depth] === nibble) j++
    children.push({ nibble, lo: i, hi: j })
    i = j
  }
  return { kind: 'branch', valueAt, children }
}

function leaf(entries: readonly Entry[], lo: number, depth: number): Node {
  const entry = entries[lo]!
  return [hexPrefix(entry.nibbles, depth, entry.nibbles.length, true), entry.value]
}

function branchOf(entries: readonly Entry[], valueAt: number | undefined, children: readonly Child[], refs: readonly Node[]): Node {
  const branch: Node[] = new Array(17).fill(new Uint8Array(0))
  if (valueAt !== undefined) branch[16] = entries[valueAt]!.value
  children.forEach((child, k) => (branch[child.nibble] = refs[k]!))
  return branch
}

function build(entries: readonly Entry[], lo: number, hi: number, depth: number): Node {
  const shape = shapeOf(entries, lo, hi, depth)
  if (shape.kind === 'leaf') return leaf(entries, lo, depth)
  if (shape.kind === 'extension') {
    return [hexPrefix(entries[lo]!.nibbles, depth, depth + shape.shared, false), reference(build(entries, lo, hi, depth + shape.shared))]
  }
  const refs = shape.children.map((child) => reference(build(entries, child.lo, child.hi, depth + 1)))
  return branchOf(entries, shape.valueAt, shape.children, refs)
}

/** Subtrees up to this many entries are built in one go (a few ms of hashing); larger ones yield between parts. */
const SLICE = 256

/** As `build`, awaiting `pause` after each slice of at most SLICE entries. */
async function buildInTurns(entries: readonly Entry[], lo: number, hi: number, depth: number, pause: () => Promise<void>): Promise<Node> {
  if (hi - lo <= SLICE) {
    const node = build(entries, lo, hi, depth)
    await pause()
    return node
  }
  const shape = shapeOf(entries, lo, hi, depth)
  if (shape.kind === 'leaf') return leaf(entries, lo, depth)
  if (shape.kind === 'extension') {
    const child = await buildInTurns(entries, lo, hi, depth + shape.shared, pause)
    return [hexPrefix(entries[lo]!.nibbles, depth, depth + shape.shared, false), reference(child)]
  }
  const refs: Node[] = []
  for (const child of shape.children) refs.push(reference(await buildInTurns(entries, child.lo, child.hi, depth + 1, pause)))
  return branchOf(entries, shape.valueAt, shape.children, refs)
}

function compareNibbles(a: Entry, b: Entry): number {
  const n = Math.min(a.nibbles.length, b.nibbles.length)
  for (let i = 0; i < n; i++) if (a.nibbles[i] !== b.nibbles[i]) return a.nibbles[i]! - b.nibbles[i]!
  return a.nibbles.length - b.nibbles.length
}

function sortedEntries(values: readonly Uint8Array[]): Entry[] {
  const entries = values.map((value, i) => ({ nibbles: toNibbles(RLP.encode(i)), value }))
  return entries.sort(compareNibbles)
}

/** Root of the trie mapping RLP(i) to values[i]. */
export function orderedTrieRoot(values: readonly Uint8Array[]): Uint8Array {
  if (values.length === 0) return EMPTY_ROOT
  const entries = sortedEntries(values)
  return keccak256(encode(build(entries, 0, entries.length, 0)))
}

/**
 * The same root, awaiting `pause` (e.g. the next turn of the event loop) after every few hundred entries,
 * so that a large block's roots do not hold the thread for their whole computation (~150 ms for 6,000
 * receipts) while requests wait.
 */
export async function orderedTrieRootInTurns(values: readonly Uint8Array[], pause: () => Promise<void>): Promise<Uint8Array> {
  if (values.length <= SLICE) return orderedTrieRoot(values)
  const entries = sortedEntries(values)
  return keccak256(encode(await buildInTurns(entries, 0, entries.length, 0, pause)))
}
