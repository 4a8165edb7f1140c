/**
 * trie-root.ts against the library's Merkle-Patricia trie (@ethereumjs/mpt): the same entries give the same
 * root, for empty, single, tiny (embedded nodes) and larger tries, with 32-byte and 20-byte-hashed keys.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { createMPT } from '@ethereumjs/mpt'
import { bytesToHex } from '../../src/primitives/hex.ts'
import { trieRoot, EMPTY_TRIE_ROOT, type TrieEntry } from './trie-root.ts'

async function libraryRoot(entries: readonly TrieEntry[]): Promise<string> {
  const trie = await createMPT()
  for (const e of entries) await trie.put(e.key, e.value)
  return bytesToHex(trie.root())
}

function randomEntries(n: number, valueLength: () => number): TrieEntry[] {
  return Array.from({ length: n }, () => ({ key: new Uint8Array(randomBytes(32)), value: new Uint8Array(randomBytes(valueLength())) }))
}

test('the empty trie has the empty root', async () => {
  assert.equal(bytesToHex(trieRoot([])), bytesToHex(EMPTY_TRIE_ROOT))
  assert.equal(bytesToHex(trieRoot([])), await libraryRoot([]))
})

test('roots equal the library trie for 1 to 300 random entries', async () => {
  for (const n of [1, 2, 3, 5, 17, 64, 300]) {
    const entries = randomEntries(n, () => 1 + Math.floor(Math.random() * 40))
    assert.equal(bytesToHex(trieRoot(entries)), await libraryRoot(entries), `${n} entries`)
  }
})

test('short values and keys sharing long prefixes (embedded nodes, extensions)', async () => {
  const base = new Uint8Array(randomBytes(32))
  const entries: TrieEntry[] = []
  for (let i = 0; i < 20; i++) {
    const key = base.slice()
    key[31] = i * 7
    if (i % 3 === 0) key[30] = key[30]! ^ 0x10
    entries.push({ key, value: Uint8Array.of(i + 1) })
  }
  assert.equal(bytesToHex(trieRoot(entries)), await libraryRoot(entries))
})

test('duplicate keys are refused', () => {
  const key = new Uint8Array(32)
  assert.throws(() => trieRoot([{ key, value: Uint8Array.of(1) }, { key, value: Uint8Array.of(2) }]), /duplicate/)
})
