import { test } from 'node:test'
import assert from 'node:assert/strict'
import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { RLP } from '@ethereumjs/rlp'
import { indexKey, OrderedTrieStream } from './ordered-trie-stream.ts'
import { orderedTrieRoot } from './ordered-trie.ts'
import { bytesToHex } from '../primitives/hex.ts'

/** The library's trie (an independent oracle): RLP(i) → values[i], inserted one by one. */
async function libraryRoot(values: readonly Uint8Array[]): Promise<string> {
  const trie = new MerklePatriciaTrie()
  for (const [i, v] of values.entries()) await trie.put(RLP.encode(i), v)
  return bytesToHex(trie.root())
}

/** Deterministic pseudo-random numbers (xorshift), so failures reproduce. */
function random(seed: number): () => number {
  let x = seed | 1
  return () => ((x ^= x << 13), (x ^= x >>> 17), (x ^= x << 5), x >>> 0)
}

/** `count` values of random lengths 1..maxLength (short ones make nodes under 32 bytes: embedded). */
function values(count: number, seed: number, maxLength: number): Uint8Array[] {
  const next = random(seed)
  return Array.from({ length: count }, () => Uint8Array.from({ length: 1 + (next() % maxLength) }, () => next() & 255))
}

function streamRoot(v: readonly Uint8Array[]): string {
  const s = new OrderedTrieStream()
  for (const value of v) s.push(value)
  assert.equal(s.length, v.length)
  return bytesToHex(s.root())
}

const EDGES = [0, 1, 2, 3, 15, 16, 17, 127, 128, 129, 130, 255, 256, 257, 300, 1100]

test('keys are RLP(index) in nibbles', () => {
  for (const i of [0, 1, 15, 127, 128, 255, 256, 65_535, 65_536, 16_777_216]) {
    assert.deepEqual([...indexKey(i)], [...RLP.encode(i)].flatMap((b) => [b >> 4, b & 15]), `index ${i}`)
  }
})

test('streamed, the root is the library trie\'s, for sizes around every key-length and branching edge', async () => {
  for (const count of EDGES) {
    for (const maxLength of [1, 30, 200]) {
      const v = values(count, count * 31 + maxLength, maxLength)
      assert.equal(streamRoot(v), await libraryRoot(v), `${count} values of up to ${maxLength} bytes`)
    }
  }
})

test('streamed, the root is the library trie\'s for random sizes up to a few thousand', async () => {
  const next = random(2026)
  for (let k = 0; k < 6; k++) {
    const count = next() % 3_000
    const v = values(count, count + k, 1 + (next() % 150))
    assert.equal(streamRoot(v), await libraryRoot(v), `${count} values`)
  }
})

test('streamed, the root is orderedTrieRoot\'s past the two-byte keys (65,536 and more values)', () => {
  const v = values(66_000, 9, 40)
  assert.equal(streamRoot(v), bytesToHex(orderedTrieRoot(v)))
})

test('the root ends the stream', () => {
  const s = new OrderedTrieStream()
  s.push(Uint8Array.of(1))
  s.root()
  assert.throws(() => s.push(Uint8Array.of(2)), /ended/)
  assert.throws(() => s.root(), /ended/)
})
