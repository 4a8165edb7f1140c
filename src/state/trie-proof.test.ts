/**
 * Proofs from proveKey checked by an independent verifier (@ethereumjs/mpt's verifyMerkleProof, given the
 * expected root): every key put proves its value, keys never put prove absent, in tries whose keys share long
 * prefixes (so short nodes are embedded in their parents and must not be listed on their own); an empty trie
 * proves absence with no nodes; a node missing from the store is an error, not a proof.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { verifyMerkleProof } from '@ethereumjs/mpt'
import { KECCAK256_RLP } from '@ethereumjs/util'
import { Rng } from '../../test/support/rng.ts'
import { keccak256 } from '../primitives/keccak.ts'
import { MapNodeStore } from '../../test/support/map-node-store.ts'
import { applyTrieUpdates, MissingTrieNode, type TrieUpdate } from './batch-trie.ts'
import { proveKey } from './trie-proof.ts'


const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex')

/** Keys from a few shared 32-byte prefixes with random tails of 1, 2 or up to 32 bytes; values of 1 to 40 bytes. */
function draw(seed: number, count: number): { updates: TrieUpdate[]; makeKey: () => Uint8Array } {
  const rng = new Rng(seed)
  const byte = () => Math.floor(rng.float() * 256)
  const prefixes = Array.from({ length: 3 }, () => Uint8Array.from({ length: 32 }, byte))
  const makeKey = (): Uint8Array => {
    const key = Uint8Array.from(prefixes[Math.floor(rng.float() * prefixes.length)]!)
    const roll = rng.float()
    const tail = roll < 0.3 ? 1 : roll < 0.5 ? 2 : 1 + Math.floor(rng.float() * 32)
    for (let i = 32 - tail; i < 32; i++) key[i] = byte()
    return key
  }
  const updates: TrieUpdate[] = []
  const seen = new Set<string>()
  while (updates.length < count) {
    const key = makeKey()
    if (seen.has(hex(key))) continue
    seen.add(hex(key))
    updates.push({ key, value: Uint8Array.from({ length: 1 + Math.floor(rng.float() * 40) }, byte) })
  }
  return { updates, makeKey }
}

for (const seed of [1, 2, 3]) {
  test(`seed ${seed}: present keys prove their values, other keys prove absence, against the root`, async () => {
    const store = new MapNodeStore()
    const { updates, makeKey } = draw(seed, 300)
    const root = await applyTrieUpdates(store, KECCAK256_RLP, updates)
    for (const { key, value } of updates) {
      const proof = await proveKey(store, root, key)
      assert.deepEqual(proof.value, value)
      assert.deepEqual(keccak256(proof.nodes[0]!), root, 'the first node is the root')
      for (const node of proof.nodes.slice(1)) assert.ok(store.nodes.has(hex(keccak256(node))), 'every listed node is stored by its hash')
      assert.deepEqual(await verifyMerkleProof(key, [...proof.nodes], { root }), value)
    }
    const present = new Set(updates.map((u) => hex(u.key)))
    let absent = 0
    for (let i = 0; i < 300; i++) {
      const key = makeKey()
      if (present.has(hex(key))) continue
      absent++
      const proof = await proveKey(store, root, key)
      assert.equal(proof.value, undefined)
      assert.equal(await verifyMerkleProof(key, [...proof.nodes], { root }), null)
    }
    assert.ok(absent > 100)
  })
}

test('a leaf small enough to sit inside its branch is proved through the branch, not listed again', async () => {
  const store = new MapNodeStore()
  const key = (last: number) => Uint8Array.from({ length: 32 }, (_, i) => (i === 31 ? last : 0xab))
  const updates = [0x01, 0x02, 0x13].map((last) => ({ key: key(last), value: Uint8Array.of(last) }))
  const root = await applyTrieUpdates(store, KECCAK256_RLP, updates)
  for (const { key: k, value } of updates) {
    const proof = await proveKey(store, root, k)
    assert.deepEqual(proof.value, value)
    for (const node of proof.nodes) assert.ok(node.length >= 32, 'no embedded node listed')
    assert.deepEqual(await verifyMerkleProof(k, [...proof.nodes], { root }), value)
  }
  const missing = key(0x03)
  const proof = await proveKey(store, root, missing)
  assert.equal(proof.value, undefined)
  assert.equal(await verifyMerkleProof(missing, [...proof.nodes], { root }), null)
})

test('an empty trie proves every key absent with no nodes; a missing node is an error', async () => {
  const store = new MapNodeStore()
  assert.deepEqual(await proveKey(store, KECCAK256_RLP, new Uint8Array(32)), { nodes: [], value: undefined })
  await assert.rejects(proveKey(store, keccak256(Uint8Array.of(1)), new Uint8Array(32)), MissingTrieNode)
})
