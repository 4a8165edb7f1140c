import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { TypedTransaction } from '@ethereumjs/tx'
import type { CandidateIterator, PoolCandidate, SequencerPool } from './sequencer.ts'
import { ManualScheduler } from './scheduler.ts'
import type { FlashNode } from '../node/create-node.ts'
import { ACCOUNTS, devNode, signedTx, testGenesis } from '../../test/support/dev-chain.ts'
import { createNode, DEFAULT_NODE_SETTINGS } from '../node/create-node.ts'
import { tempDir } from '../../test/support/temp-dir.ts'
import { SEQUENCER_TEST_SETTINGS, sequencerFor } from '../../test/support/sequencer.ts'
import { bytesToHex, hexToBytes } from '../primitives/hex.ts'
import { LATEST } from '../primitives/block-id.ts'
import type { WriteBatch } from '../storage/db.ts'

/** A list-backed pool: enough to drive the sequencer; the real pool has its own tests. */
class ListPool implements SequencerPool {
  txs: TypedTransaction[] = []
  dropped: { hash: string; reason: string }[] = []
  candidates(): CandidateIterator {
    const skipped = new Set<string>()
    const list = [...this.txs]
    return {
      next: (): PoolCandidate | undefined => {
        for (;;) {
          const tx = list.shift()
          if (tx === undefined) return undefined
          const sender = tx.getSenderAddress().bytes
          if (!skipped.has(bytesToHex(sender))) return { tx, hash: tx.hash(), sender }
        }
      },
      skipSender: (sender) => skipped.add(bytesToHex(sender)),
    }
  }
  included(_batch: WriteBatch, hashes: readonly Uint8Array[]): void {
    const gone = new Set(hashes.map((h) => bytesToHex(h)))
    this.txs = this.txs.filter((t) => !gone.has(bytesToHex(t.hash())))
  }
  drop(hash: Uint8Array, reason: string): void {
    this.dropped.push({ hash: bytesToHex(hash), reason })
    this.txs = this.txs.filter((t) => bytesToHex(t.hash()) !== bytesToHex(hash))
  }
  stateChanged(): void {}
}

const SETTINGS = SEQUENCER_TEST_SETTINGS

/** A ListPool that counts the candidates the sequencer asked it for. */
class CountingPool extends ListPool {
  asked = 0
  override candidates(): CandidateIterator {
    const inner = super.candidates()
    return {
      next: () => {
        this.asked++
        return inner.next()
      },
      skipSender: (sender) => inner.skipSender(sender),
    }
  }
}


const transfer = (node: FlashNode, from: number, nonce: bigint, value = 1n) =>
  signedTx(node, from, nonce, { to: ACCOUNTS[3]!.address, value, gasLimit: 21_000n })

test('a flashblock publishes its transactions in a new snapshot and leaves the old one as it was', async (t) => {
  const node = await devNode(t)
  const pool = new ListPool()
  const seq = sequencerFor(node, pool)
  await seq.start()
  const opened = seq.snapshot()
  assert.equal(opened.index, 0)
  assert.equal(opened.header.number, 1n)
  pool.txs.push(transfer(node, 0, 0n, 5n), transfer(node, 0, 1n, 6n))
  const first = await seq.flashblock()
  assert.equal(first.index, 1)
  assert.equal(first.transactions.length, 2)
  const receiver = hexToBytes(ACCOUNTS[3]!.address)
  const base = 10n ** 22n
  assert.equal(seq.pendingState(first).getAccount(receiver)!.balance, base + 11n)
  assert.equal(seq.pendingState(opened).getAccount(receiver)!.balance, base, 'the earlier snapshot is unchanged')
  assert.equal(node.api.blockNumber(), 0n, 'nothing is sealed yet')
})

test('sealing writes the pre-confirmed transactions in order with the same receipts, then opens the next block', async (t) => {
  const node = await devNode(t)
  const pool = new ListPool()
  const seq = sequencerFor(node, pool)
  await seq.start()
  pool.txs.push(transfer(node, 0, 0n), transfer(node, 1, 0n))
  const pre = await seq.flashblock()
  pool.txs.push(transfer(node, 0, 1n))
  await seq.seal()
  assert.equal(node.api.blockNumber(), 1n)
  const sealed = await node.api.getBlockReceipts(LATEST)
  const preHashes = [...pre.transactions.map((x) => bytesToHex(x.hash))]
  assert.deepEqual(sealed!.slice(0, 2).map((r) => bytesToHex(r.receipt.transactionHash)), preHashes)
  assert.equal(sealed!.length, 3)
  for (let i = 0; i < 2; i++) {
    assert.equal(sealed![i]!.receipt.cumulativeGasUsed, pre.transactions[i]!.receipt.cumulativeGasUsed)
    assert.equal(sealed![i]!.receipt.gasUsed, pre.transactions[i]!.receipt.gasUsed)
  }
  const next = seq.snapshot()
  assert.equal(next.header.number, 2n)
  assert.equal(next.index, 0)
})

test('a transaction that can never run is dropped with a reason and does not stall the rest', async (t) => {
  const node = await devNode(t)
  const pool = new ListPool()
  const seq = sequencerFor(node, pool)
  await seq.start()
  const stale = transfer(node, 0, 7n)
  pool.txs.push(stale, transfer(node, 1, 0n))
  const snap = await seq.flashblock()
  assert.equal(snap.transactions.length, 1)
  assert.equal(pool.dropped.length, 1)
  assert.equal(pool.dropped[0]!.hash, bytesToHex(stale.hash()))
  assert.match(pool.dropped[0]!.reason, /nonce/)
})

test('after a crash, the restarted sequencer resumes the open block with the same transactions in the same order', async (t) => {
  const dir = tempDir(t)
  const first = await devNode(t, dir)
  const pool = new ListPool()
  const seq = sequencerFor(first, pool)
  await seq.start()
  pool.txs.push(transfer(first, 0, 0n), transfer(first, 1, 0n))
  await seq.flashblock()
  pool.txs.push(transfer(first, 2, 0n))
  const before = await seq.flashblock()
  await first.close() // no seal: the process "dies" here

  const second = await devNode(t, dir)
  const resumed = sequencerFor(second, new ListPool())
  await resumed.start()
  const after = resumed.snapshot()
  assert.equal(after.header.number, before.header.number)
  assert.equal(after.header.timestamp, before.header.timestamp)
  assert.deepEqual(after.transactions.map((x) => bytesToHex(x.hash)), before.transactions.map((x) => bytesToHex(x.hash)))
  assert.deepEqual(after.transactions.map((x) => x.receipt.cumulativeGasUsed), before.transactions.map((x) => x.receipt.cumulativeGasUsed))
  await resumed.seal()
  const receipts = await second.api.getBlockReceipts(LATEST)
  assert.deepEqual(receipts!.map((r) => bytesToHex(r.receipt.transactionHash)), before.transactions.map((x) => bytesToHex(x.hash)))
})

test('empty flashblocks write nothing, yet a restart replays the journal with the same flashblock numbering', async (t) => {
  const dir = tempDir(t)
  const first = await devNode(t, dir)
  const kv = first.chain.store.kv
  const commit = kv.commit.bind(kv)
  let commits = 0
  kv.commit = (batch) => {
    commits++
    commit(batch)
  }
  const pool = new ListPool()
  const seq = sequencerFor(first, pool)
  await seq.start()
  await seq.flashblock() // 1: empty
  assert.equal(commits, 0, 'opening the block and an empty flashblock sync nothing to disk')
  pool.txs.push(transfer(first, 0, 0n))
  await seq.flashblock() // 2: one transaction
  assert.equal(commits, 1)
  await seq.flashblock() // 3: empty
  pool.txs.push(transfer(first, 1, 0n))
  const before = await seq.flashblock() // 4: one transaction
  assert.equal(commits, 2)
  await seq.flashblock() // 5: empty, not replayed: nothing was pre-confirmed in it
  await first.close()

  const second = await devNode(t, dir)
  const resumed = sequencerFor(second, new ListPool())
  await resumed.start()
  const after = resumed.snapshot()
  assert.equal(after.index, before.index)
  assert.equal(after.header.timestamp, before.header.timestamp)
  assert.deepEqual(after.transactions.map((x) => bytesToHex(x.hash)), before.transactions.map((x) => bytesToHex(x.hash)))
})

test('in auto mode the clock drives flashblocks and seals a block every N of them', async (t) => {
  const node = await devNode(t)
  const pool = new ListPool()
  const clock = new ManualScheduler()
  const seq = sequencerFor(node, pool, clock, { ...SETTINGS, mode: 'auto', flashblocksPerBlock: 4 })
  const sealed: bigint[] = []
  seq.on('sealed', (e) => sealed.push(e.executed.stored.number))
  await seq.start()
  t.after(() => seq.stop())
  pool.txs.push(transfer(node, 0, 0n))
  for (let i = 1; i <= 3; i++) {
    clock.advance(200)
    await seq.idle()
    assert.equal(seq.snapshot().index, i)
  }
  assert.deepEqual(sealed, [], 'no seal before the Nth flashblock')
  clock.advance(200)
  await seq.idle()
  assert.deepEqual(sealed, [1n])
  assert.equal(seq.snapshot().index, 0, 'the next block is open')
  assert.equal(node.api.blockNumber(), 1n)
  assert.equal((await node.api.getBlockReceipts(LATEST))!.length, 1)
})

test("a block with exactly a transfer's gas left takes one more transfer; a full block asks the pool for no more", async (t) => {
  const node = await createNode({ ...DEFAULT_NODE_SETTINGS, dataDir: tempDir(t), genesis: testGenesis({ gasLimit: 3n * 21_000n }) })
  t.after(() => node.close())
  const pool = new CountingPool()
  const seq = sequencerFor(node, pool)
  await seq.start()
  pool.txs.push(transfer(node, 0, 0n), transfer(node, 0, 1n), transfer(node, 0, 2n), transfer(node, 0, 3n))
  const flashblock = await seq.flashblock()
  assert.equal(flashblock.transactions.length, 3, 'the third fits exactly')
  assert.equal(flashblock.gasUsed, 3n * 21_000n)
  assert.equal(pool.asked, 3, 'the fourth was never asked for: no transaction fits in a full block')
  assert.equal(pool.txs.length, 1, 'and it waits in the pool')
})
