import { test } from 'node:test'
import assert from 'node:assert/strict'
import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { RLP } from '@ethereumjs/rlp'
import { orderedTrieRoot, orderedTrieRootInTurns } from './ordered-trie.ts'
import { bytesToHex } from '../primitives/hex.ts'

async function libraryRoot(values: Uint8Array[]): Promise<string> {
  const trie = new MerklePatriciaTrie()
  for (const [i, v] of values.entries()) await trie.put(RLP.encode(i), v)
  return bytesToHex(trie.root())
}

/** Deterministic pseudo-random bytes (xorshift), so failures reproduce. */
function values(count: number, seed: number): Uint8Array[] {
  let x = seed
  const next = () => ((x ^= x << 13), (x ^= x >>> 17), (x ^= x << 5), x >>> 0)
  return Array.from({ length: count }, () => Uint8Array.from({ length: 1 + (next() % 120) }, () => next() & 255))
}

test('matches the library trie for sizes around every key-length and branching edge', async () => {
  for (const count of [0, 1, 2, 3, 15, 16, 17, 127, 128, 129, 255, 256, 257, 300, 1100]) {
    const v = values(count, count + 7)
    assert.equal(bytesToHex(orderedTrieRoot(v)), await libraryRoot(v), `${count} values`)
  }
})

test('short values (embedded nodes) give the library root too', async () => {
  for (const count of [1, 2, 5, 20, 200]) {
    const v = Array.from({ length: count }, (_, i) => Uint8Array.of(i & 255))
    assert.equal(bytesToHex(orderedTrieRoot(v)), await libraryRoot(v), `${count} one-byte values`)
  }
})

test('built in turns, the root is the same, and the thread is given back between slices of a large trie', async () => {
  for (const count of [0, 1, 256, 257, 1100, 5000]) {
    const v = values(count, count + 3)
    let pauses = 0
    const root = await orderedTrieRootInTurns(v, async () => {
      pauses++
    })
    assert.equal(bytesToHex(root), bytesToHex(orderedTrieRoot(v)), `${count} values`)
    if (count > 256) assert.ok(pauses >= Math.floor(count / 256), `${count} values: ${pauses} pauses`)
    else assert.equal(pauses, 0)
  }
  const big = values(1100, 1)
  assert.equal(bytesToHex(await orderedTrieRootInTurns(big, async () => {})), await libraryRoot(big))
})
