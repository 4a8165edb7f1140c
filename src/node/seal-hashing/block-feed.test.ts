/**
 * A block's roots fed to the seal-hashing worker as it grows (SealHashing.feed): the roots are the library
 * trie's (@ethereumjs/mpt, an independent oracle) whatever the block's size and however its items arrive,
 * and stay right when the worker is not there, dies, is closed mid-block or forgets the block; a discarded
 * block's state goes.
 */

import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Worker } from 'node:worker_threads'
import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { RLP } from '@ethereumjs/rlp'
import { bytesToHex } from '../../primitives/hex.ts'
import { FEED_CHUNK, MAX_FEEDS, SealHashing } from './seal-hashing.ts'
import type { RootsFeed } from '../../execution/block-builder.ts'

const oracle = new Map<string, string>()

/** The library trie's root of RLP(i) → values[i] (memoized by the list's seed and size). */
async function libraryRoot(values: readonly Uint8Array[], key: string): Promise<string> {
  const known = oracle.get(key)
  if (known !== undefined) return known
  const trie = new MerklePatriciaTrie()
  for (const [i, v] of values.entries()) await trie.put(RLP.encode(i), v)
  const root = bytesToHex(trie.root())
  oracle.set(key, root)
  return root
}

function random(seed: number): () => number {
  let x = seed | 1
  return () => ((x ^= x << 13), (x ^= x >>> 17), (x ^= x << 5), x >>> 0)
}

/** A block's two lists of `count` items of random lengths (1..maxLength bytes), deterministic. */
function block(count: number, seed: number, maxLength = 160): Uint8Array[][] {
  const next = random(seed)
  const list = (): Uint8Array[] => Array.from({ length: count }, () => Uint8Array.from({ length: 1 + (next() % maxLength) }, () => next() & 255))
  return [list(), list()]
}

async function expected(lists: readonly Uint8Array[][], seed: number): Promise<string[]> {
  return Promise.all(lists.map((l, k) => libraryRoot(l, `${seed}/${l.length}/${k}`)))
}

/** Grows the block's lists in chunks of `chunk` items, telling the feed after each item as the builder does. */
function feedAll(feed: RootsFeed, lists: readonly Uint8Array[][], chunk: number, upTo = lists[0]!.length, grown: Uint8Array[][] = lists.map(() => [])): Uint8Array[][] {
  for (let i = grown[0]!.length; i < upTo; i++) {
    lists.forEach((l, k) => grown[k]!.push(l[i]!))
    if ((i + 1) % chunk === 0 || i + 1 === upTo) feed.update(grown)
  }
  return grown
}

async function loaded(t: { after(fn: () => Promise<void>): void }): Promise<SealHashing> {
  const hashing = new SealHashing()
  t.after(() => hashing.close())
  hashing.start()
  await hashing.whenReady()
  return hashing
}

const SIZES = [0, 1, 2, 127, 128, 129, 255, 256, 257, 511, 512, 513, 1000]

test('fed block by block, in chunks of every size, the roots are the library trie\'s', async (t) => {
  const hashing = await loaded(t)
  const next = random(7)
  const sizes = [...SIZES, ...Array.from({ length: 3 }, () => next() % 3_000)]
  for (const count of sizes) {
    const lists = block(count, count + 1)
    const want = await expected(lists, count + 1)
    for (const chunk of [1, 2, 7, 100, FEED_CHUNK - 1, FEED_CHUNK, FEED_CHUNK + 1, 700, 4_000]) {
      const feed = hashing.feed()
      const grown = feedAll(feed, lists, chunk)
      assert.deepEqual((await feed.roots(grown)).map(bytesToHex), want, `${count} items, told every ${chunk}`)
    }
  }
  assert.equal(hashing.heldFeeds, 0, 'every sealed block is forgotten')
  assert.equal(hashing.heldByWorker, 0, 'on the worker too')
  const fedBlocks = sizes.filter((n) => n >= FEED_CHUNK).length * 9
  assert.deepEqual(hashing.answered, { fed: fedBlocks, whole: sizes.length * 9 - fedBlocks, here: 0 }, 'blocks of a chunk or more were fed, the rest sent whole')
})

test('a block of 300 items told in chunks of every size from 1 to 300 gives the library\'s roots each time', async (t) => {
  const hashing = await loaded(t)
  const lists = block(300, 5)
  const want = await expected(lists, 5)
  for (let chunk = 1; chunk <= 300; chunk++) {
    const feed = hashing.feed()
    assert.deepEqual((await feed.roots(feedAll(feed, lists, chunk))).map(bytesToHex), want, `told every ${chunk}`)
  }
  assert.deepEqual(hashing.answered, { fed: 300, whole: 0, here: 0 })
})

test('short items (embedded nodes) and one-byte items give the library\'s roots too', async (t) => {
  const hashing = await loaded(t)
  for (const count of [129, 300, 1_300]) {
    const lists = block(count, count + 2, 3)
    const feed = hashing.feed()
    assert.deepEqual((await feed.roots(feedAll(feed, lists, 1))).map(bytesToHex), await expected(lists, count + 2))
  }
  assert.deepEqual(hashing.answered, { fed: 2, whole: 1, here: 0 })
})

test('a block begun before the worker has loaded is right (it starts the worker), and so is the next, fed', async (t) => {
  const hashing = new SealHashing()
  t.after(() => hashing.close())
  const lists = block(700, 11)
  const feed = hashing.feed()
  const grown = feedAll(feed, lists, 1)
  assert.equal(hashing.running, true, 'a block large enough starts the worker')
  assert.deepEqual((await feed.roots(grown)).map(bytesToHex), await expected(lists, 11))
  await hashing.whenReady()
  const second = hashing.feed()
  const again = feedAll(second, lists, 1)
  assert.equal(hashing.heldFeeds, 1, 'the loaded worker holds the second block')
  const before = hashing.answered
  assert.deepEqual((await second.roots(again)).map(bytesToHex), await expected(lists, 11))
  assert.deepEqual(hashing.answered, { ...before, fed: before.fed + 1 })
})

test('a worker that dies mid-block, or is closed, leaves the block\'s roots right (computed here)', async (t) => {
  for (const end of ['dies', 'closed'] as const) {
    const hashing = await loaded(t)
    const lists = block(900, 12)
    const feed = hashing.feed()
    const grown = feedAll(feed, lists, 1, 600)
    assert.equal(hashing.heldFeeds, 1)
    if (end === 'dies') await (hashing as unknown as { lane: { worker: Worker } }).lane.worker.terminate()
    else await hashing.close()
    feedAll(feed, lists, 1, 900, grown)
    assert.deepEqual((await feed.roots(grown)).map(bytesToHex), await expected(lists, 12), `worker ${end}`)
    assert.deepEqual(hashing.answered, { fed: 0, whole: 0, here: 1 })
  }
})

test('a worker that dies while the seal waits for it leaves the roots right', async (t) => {
  const hashing = await loaded(t)
  const lists = block(900, 13)
  const feed = hashing.feed()
  const grown = feedAll(feed, lists, 1)
  const roots = feed.roots(grown)
  await (hashing as unknown as { lane: { worker: Worker } }).lane.worker.terminate()
  assert.deepEqual((await roots).map(bytesToHex), await expected(lists, 13))
})

test('a discarded block is forgotten; the worker holds at most MAX_FEEDS blocks, and an evicted one is still right', async (t) => {
  const hashing = await loaded(t)
  const discarded = hashing.feed()
  feedAll(discarded, block(600, 14), 1)
  assert.equal(hashing.heldFeeds, 1)
  discarded.discard()
  assert.equal(hashing.heldFeeds, 0)
  const open = Array.from({ length: MAX_FEEDS + 2 }, (_, i) => ({ feed: hashing.feed(), lists: block(300 + i, 20 + i) }))
  const grown = open.map(({ feed, lists }) => feedAll(feed, lists, 1, 290))
  assert.equal(hashing.heldFeeds, MAX_FEEDS)
  for (const [i, { feed, lists }] of open.entries()) {
    feedAll(feed, lists, 1, lists[0]!.length, grown[i])
    assert.deepEqual((await feed.roots(grown[i]!)).map(bytesToHex), await expected(lists, 20 + i), `block ${i}`)
  }
  assert.equal(hashing.heldFeeds, 0)
  assert.deepEqual(hashing.answered, { fed: MAX_FEEDS, whole: 2, here: 0 }, 'the two evicted blocks were sent whole')
  assert.equal(hashing.heldByWorker, 0, 'the worker holds nothing of the discarded, evicted and sealed blocks')
})
