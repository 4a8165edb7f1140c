import { test } from 'node:test'
import assert from 'node:assert/strict'
import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { ValueEncoding, type BatchDBOp, type DB } from '@ethereumjs/util'
import { applyTrieUpdates, type TrieUpdate } from './batch-trie.ts'
import { Rng } from '../../test/support/rng.ts'

class MapStore implements DB<string, Uint8Array> {
  readonly nodes = new Map<string, Uint8Array>()
  async get(key: string): Promise<Uint8Array | undefined> {
    return this.nodes.get(key)
  }
  async put(key: string, value: Uint8Array): Promise<void> {
    this.nodes.set(key, value)
  }
  async del(): Promise<void> {}
  async batch(ops: BatchDBOp<string, Uint8Array>[]): Promise<void> {
    for (const op of ops) if (op.type === 'put') this.nodes.set(op.key, op.value)
  }
  shallowCopy(): DB<string, Uint8Array> {
    return this
  }
  async open(): Promise<void> {}
}

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex')

/**
 * Keys drawn from a few shared prefixes with random tails (so leaves get short paths and small nodes get
 * embedded in their parents), values of 1 to 70 bytes; the library trie and applyTrieUpdates must agree.
 */
async function scenario(seed: number, initial: number, rounds: number, perRound: number): Promise<void> {
  const generator = new Rng(seed)
  const random = (): number => generator.float()
  const prefixes = Array.from({ length: 3 }, () => Uint8Array.from({ length: 32 }, () => Math.floor(random() * 256)))
  const makeKey = (): Uint8Array => {
    const key = Uint8Array.from(prefixes[Math.floor(random() * prefixes.length)]!)
    const tail = 1 + Math.floor(random() * (random() < 0.5 ? 2 : 32))
    for (let i = 32 - tail; i < 32; i++) key[i] = Math.floor(random() * 256)
    return key
  }
  const makeValue = (): Uint8Array => Uint8Array.from({ length: 1 + Math.floor(random() * (random() < 0.5 ? 3 : 70)) }, () => Math.floor(random() * 256))
  const store = new MapStore()
  const lib = new MerklePatriciaTrie({ db: store, useKeyHashing: false, valueEncoding: ValueEncoding.Bytes })
  const live = new Map<string, Uint8Array>()
  for (let i = 0; i < initial; i++) {
    const key = makeKey()
    await lib.put(key, makeValue())
    live.set(hex(key), key)
  }
  let root = lib.root()
  for (let r = 0; r < rounds; r++) {
    const updates: TrieUpdate[] = []
    for (let i = 0; i < perRound; i++) {
      const existing = [...live.values()]
      const pickExisting = existing.length > 0 && random() < 0.6
      const key = pickExisting ? existing[Math.floor(random() * existing.length)]! : makeKey()
      const value = random() < 0.4 ? null : makeValue()
      updates.push({ key, value })
      if (value === null) live.delete(hex(key))
      else live.set(hex(key), key)
    }
    lib.root(root)
    for (const u of updates) {
      if (u.value === null) await lib.del(u.key)
      else await lib.put(u.key, u.value)
    }
    const expected = lib.root()
    const ours = new MapStore()
    for (const [k, v] of store.nodes) ours.nodes.set(k, v)
    const got = await applyTrieUpdates(ours, root, updates)
    assert.equal(hex(got), hex(expected), `seed ${seed} round ${r}`)
    // Every key reads back from the nodes we stored, through the library.
    const check = new MerklePatriciaTrie({ db: ours, useKeyHashing: false, valueEncoding: ValueEncoding.Bytes, root: got })
    for (const u of updates) {
      const value = await check.get(u.key)
      const want = await lib.get(u.key)
      assert.equal(value === null ? null : hex(value), want === null ? null : hex(want))
    }
    root = expected
  }
}

test('batched trie updates equal the library trie: small tries, embedded nodes, emptied tries', async () => {
  for (let seed = 1; seed <= 60; seed++) await scenario(seed, seed % 4, 6, 1 + (seed % 5))
})

test('batched trie updates equal the library trie: hundreds of keys, large batches', async () => {
  for (let seed = 100; seed < 103; seed++) await scenario(seed, 300, 3, 120)
})

test('an empty batch leaves the root as it is, and an empty trie has the empty root', async () => {
  const store = new MapStore()
  const empty = new MerklePatriciaTrie({ db: store, useKeyHashing: false, valueEncoding: ValueEncoding.Bytes }).root()
  assert.equal(hex(await applyTrieUpdates(store, empty, [])), hex(empty))
  const key = new Uint8Array(32).fill(1)
  const one = await applyTrieUpdates(store, empty, [{ key, value: Uint8Array.of(1) }])
  assert.equal(hex(await applyTrieUpdates(store, one, [{ key, value: null }])), hex(empty))
})
