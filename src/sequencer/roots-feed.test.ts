/**
 * The sequencer's blocks fed to the seal-hashing worker as flashblocks are built (OpenOptions.rootsFeed):
 * a block sealed so is the block sealed without a worker (its transactions root the library trie's), the
 * worker answered it from what it was fed, and a block the sequencer drops (deposed leader, a restart that
 * reopens the block) leaves nothing on the worker.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { RLP } from '@ethereumjs/rlp'
import type { TypedTransaction } from '@ethereumjs/tx'
import { ACCOUNTS, devNode, signedTx } from '../../test/support/dev-chain.ts'
import { SEQUENCER_TEST_SETTINGS, sequencerFor } from '../../test/support/sequencer.ts'
import { bytesToHex } from '../primitives/hex.ts'
import { SealHashing } from '../node/seal-hashing/seal-hashing.ts'
import type { CandidateIterator, PoolCandidate, SequencerPool } from './sequencer.ts'
import type { FlashNode } from '../node/create-node.ts'
import type { AnnouncementGate } from './announcement-gate.ts'
import type { RootsFeed } from '../execution/block-builder.ts'

/** Offers its transactions in order; included ones leave it. */
class ListPool implements SequencerPool {
  txs: TypedTransaction[] = []
  candidates(): CandidateIterator {
    const list = [...this.txs]
    return { next: (): PoolCandidate | undefined => { const tx = list.shift(); return tx && { tx, hash: tx.hash(), sender: tx.getSenderAddress().bytes } }, skipSender: () => undefined }
  }
  included(_b: unknown, hashes: readonly Uint8Array[]): void {
    const gone = new Set(hashes.map(bytesToHex))
    this.txs = this.txs.filter((t) => !gone.has(bytesToHex(t.hash())))
  }
  drop(): void {}
  stateChanged(): void {}
}

const transfers = (node: FlashNode, count: number): TypedTransaction[] =>
  Array.from({ length: count }, (_, i) => signedTx(node, 0, BigInt(i), { to: ACCOUNTS[1]!.address, value: BigInt(i + 1), gasLimit: 21_000n }))

async function libraryRoot(values: readonly Uint8Array[]): Promise<string> {
  const trie = new MerklePatriciaTrie()
  for (const [i, v] of values.entries()) await trie.put(RLP.encode(i), v)
  return bytesToHex(trie.root())
}

async function worker(t: Parameters<typeof devNode>[0]): Promise<SealHashing> {
  const hashing = new SealHashing()
  t.after(() => hashing.close())
  hashing.start()
  await hashing.whenReady()
  return hashing
}

/** The feed factory, counting the feeds it made and those discarded. */
function counted(hashing: SealHashing): { made: number; discarded: number; rootsFeed: () => RootsFeed } {
  const c = { made: 0, discarded: 0, rootsFeed: (): RootsFeed => {
    const feed = hashing.feed()
    c.made++
    return { update: (l) => feed.update(l), roots: (l) => feed.roots(l), discard: () => (c.discarded++, feed.discard()) }
  } }
  return c
}

const SETTINGS = { ...SEQUENCER_TEST_SETTINGS, maxTransactionsPerFlashblock: 170 }

test('a block fed flashblock by flashblock seals as the block hashed at the seal on this thread', async (t) => {
  const hashing = await worker(t)
  const sealed: { hash: string; transactionsRoot: string; receiptsRoot: string; raws: Uint8Array[] }[] = []
  for (const open of [{ rootsFeed: hashing.feed }, {}]) {
    const node = await devNode(t)
    const pool = new ListPool()
    const seq = sequencerFor(node, pool, undefined, SETTINGS, { open })
    await seq.start()
    const txs = transfers(node, 700)
    pool.txs = [...txs]
    for (let i = 0; i < 4; i++) await seq.flashblock()
    const executed = await seq.seal()
    const header = node.chain.header(node.chain.head())!
    assert.equal(executed.stored.txHashes.length, 700, 'every transfer sealed, over 5 flashblocks')
    sealed.push({ hash: bytesToHex(executed.stored.hash), transactionsRoot: bytesToHex(header.transactionsTrie), receiptsRoot: bytesToHex(header.receiptTrie), raws: txs.map((tx) => tx.serialize()) })
    await seq.stop()
  }
  assert.deepEqual(hashing.answered, { fed: 1, whole: 0, here: 0 }, 'the fed block was answered from what the worker was fed')
  assert.equal(sealed[0]!.hash, sealed[1]!.hash)
  assert.equal(sealed[0]!.receiptsRoot, sealed[1]!.receiptsRoot)
  assert.equal(sealed[0]!.transactionsRoot, await libraryRoot(sealed[0]!.raws))
})

test('a deposed sequencer drops its open block\'s feed: the worker holds nothing of it', async (t) => {
  const hashing = await worker(t)
  const node = await devNode(t)
  const pool = new ListPool()
  let refuse = false
  const gate: AnnouncementGate = { flashblock: () => (refuse ? Promise.reject(new Error('fenced out')) : Promise.resolve()), sealed: () => Promise.resolve() }
  const feeds = counted(hashing)
  const seq = sequencerFor(node, pool, undefined, { ...SETTINGS, maxTransactionsPerFlashblock: 400 }, { open: { rootsFeed: feeds.rootsFeed }, gate })
  seq.on('deposed', () => undefined)
  await seq.start()
  pool.txs = transfers(node, 700)
  await seq.flashblock()
  assert.equal(hashing.heldFeeds, 1, 'the worker holds the open block')
  refuse = true
  await assert.rejects(seq.flashblock(), /fenced out/)
  assert.deepEqual([feeds.made, feeds.discarded], [1, 1])
  assert.equal(hashing.heldFeeds, 0)
  // The worker's own count, at its next answer: nothing of the dropped block is left there.
  const next = hashing.feed()
  const lists = [Array.from({ length: 300 }, () => Uint8Array.of(1, 2, 3))]
  next.update(lists)
  await next.roots(lists)
  assert.equal(hashing.heldByWorker, 0)
})

test('a sequencer restarted on its journal drops the block it had open and seals the reopened one right', async (t) => {
  const hashing = await worker(t)
  const node = await devNode(t)
  const pool = new ListPool()
  const feeds = counted(hashing)
  const seq = sequencerFor(node, pool, undefined, { ...SETTINGS, maxTransactionsPerFlashblock: 400 }, { open: { rootsFeed: feeds.rootsFeed } })
  await seq.start()
  const all = transfers(node, 700)
  pool.txs = [...all]
  await seq.flashblock()
  await seq.stop()
  await seq.start()
  assert.deepEqual([feeds.made, feeds.discarded], [2, 1], 'the first block dropped, its transactions replayed into a second')
  assert.equal(hashing.heldFeeds, 1)
  const executed = await seq.seal()
  assert.equal(executed.stored.txHashes.length, 700)
  assert.equal(bytesToHex(node.chain.header(node.chain.head())!.transactionsTrie), await libraryRoot(all.map((tx) => tx.serialize())))
  assert.equal(hashing.heldFeeds, 0)
  assert.equal(hashing.heldByWorker, 0)
  assert.equal(hashing.answered.fed, 1)
})
