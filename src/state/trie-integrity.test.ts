/**
 * What applyTrieUpdates refuses rather than hashing a wrong root: a node the store does not have (named by
 * its hash), a stored node that is not a trie node of fixed-length keys (not a list, a list of neither 2
 * nor 17 items, a branch holding a value), and a key that is not 32 bytes.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { RLP } from '@ethereumjs/rlp'
import { KECCAK256_RLP } from '@ethereumjs/util'
import { applyTrieUpdates, MissingTrieNode } from './batch-trie.ts'
import { keccak256 } from '../primitives/keccak.ts'
import { MapNodeStore } from '../../test/support/map-node-store.ts'

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex')


const key = (b: number) => new Uint8Array(32).fill(b)
const update = [{ key: key(1), value: Uint8Array.of(1) }]

/** A store holding one node with the given encoding, and that node's hash as the root. */
function storeWith(encoded: Uint8Array): { store: MapNodeStore; root: Uint8Array } {
  const store = new MapNodeStore()
  const root = keccak256(encoded)
  store.nodes.set(hex(root), encoded)
  return { store, root }
}

test('a root the store does not hold is a missing trie node, named by its hash', async () => {
  const root = new Uint8Array(32).fill(0x5a)
  await assert.rejects(applyTrieUpdates(new MapNodeStore(), root, update), (e: unknown) => {
    assert.ok(e instanceof MissingTrieNode)
    assert.equal(e.name, 'MissingTrieNode')
    assert.match(e.message, new RegExp(hex(root)))
    return true
  })
})

test('stored nodes that are no trie node of 32-byte keys are refused', async () => {
  const leaf = [Uint8Array.of(0x20, ...key(1)), Uint8Array.of(1)]
  const branchWithValue = [...Array.from({ length: 16 }, () => new Uint8Array(0)), Uint8Array.of(7)]
  for (const [what, encoded, message] of [
    ['a byte string', RLP.encode(Uint8Array.of(1, 2, 3)), /not a list/],
    ['a list of 3', RLP.encode([...leaf, Uint8Array.of(0)]), /3 items/],
    ['a branch with a value', RLP.encode(branchWithValue), /branch value/],
  ] as const) {
    const { store, root } = storeWith(encoded)
    await assert.rejects(applyTrieUpdates(store, root, update), message, what)
  }
  const { store, root } = storeWith(RLP.encode(leaf))
  await applyTrieUpdates(store, root, update) // a well-formed leaf is read
})

test('keys must be 32 bytes', async () => {
  await assert.rejects(applyTrieUpdates(new MapNodeStore(), KECCAK256_RLP, [{ key: new Uint8Array(31), value: Uint8Array.of(1) }]), /32 bytes/)
  await assert.rejects(applyTrieUpdates(new MapNodeStore(), KECCAK256_RLP, [{ key: new Uint8Array(33), value: null }]), /32 bytes/)
})
