/**
 * The sequencer's announcement gate with a test double (no broker; the real gate is tested against a
 * cluster in src/stream/replicated-stream.test.ts): nothing of a flashblock, an opening or a seal is
 * announced (feed, pending reads, the pool's stateChanged) before the gate resolves, a flashblock's journal
 * write follows its announcement (the stream, not the journal, is a group's record), and a seal is gated
 * before its commit; a refusal deposes the sequencer (no further work, nothing of the refused flashblock
 * announced or journaled, the open block's journal gone, `deposed` told once), and so does a journal write
 * that failed (what was announced stays: the stream holds it).
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { PreconfirmedSnapshot } from '../preconf/snapshot.ts'
import type { SealedBlock } from '../preconf/feed.ts'
import { ACCOUNTS, devNode, signedTx } from '../../test/support/dev-chain.ts'
import { SEQUENCER_TEST_SETTINGS, sequencerFor } from '../../test/support/sequencer.ts'
import { ManualScheduler } from './scheduler.ts'
import type { FlashNode } from '../node/create-node.ts'
import { bytesToHex } from '../primitives/hex.ts'
import type { CandidateIterator, PoolCandidate, SequencerPool } from './sequencer.ts'
import { SequencerDeposed, type AnnouncementGate } from './announcement-gate.ts'
import { FlashblockJournal } from './journal.ts'
import type { TypedTransaction } from '@ethereumjs/tx'
import type { KvStore, WriteBatch } from '../storage/db.ts'

/** The node's store, with one commit made to fail on demand (a journal write that cannot be written). */
class FailingCommit implements KvStore {
  private failure: unknown
  constructor(private readonly kv: KvStore) {}
  get = (key: Uint8Array) => this.kv.get(key)
  floor = (low: Uint8Array, high: Uint8Array) => this.kv.floor(low, high)
  range = (start: Uint8Array, end: Uint8Array, limit?: number) => this.kv.range(start, end, limit)
  batch = () => this.kv.batch()
  commitAsync = (batch: WriteBatch) => this.kv.commitAsync(batch)
  close = () => this.kv.close()
  /** The next commit throws `e` (once). */
  failNext(e: unknown): void {
    this.failure = e
  }
  commit(batch: WriteBatch): void {
    const failure = this.failure
    this.failure = undefined
    if (failure !== undefined) throw failure
    this.kv.commit(batch)
  }
}

/** A gate whose every acknowledgement the test gives (or refuses) by hand. */
class HeldGate implements AnnouncementGate {
  readonly asked: { kind: 'flashblock' | 'sealed'; index: number; number: bigint; resolve: () => void; reject: (e: unknown) => void }[] = []
  private waiters: (() => void)[] = []
  flashblock(s: PreconfirmedSnapshot): Promise<void> {
    return this.ask('flashblock', s.index, s.header.number)
  }
  sealed(b: SealedBlock): Promise<void> {
    return this.ask('sealed', b.last.index + 1, b.header.number)
  }
  /** Resolves once the gate has been asked `n` times in all. */
  async asks(n: number): Promise<void> {
    while (this.asked.length < n) await new Promise<void>((r) => this.waiters.push(r))
  }
  private ask(kind: 'flashblock' | 'sealed', index: number, number: bigint): Promise<void> {
    return new Promise((resolve, reject) => {
      this.asked.push({ kind, index, number, resolve, reject })
      for (const w of this.waiters.splice(0)) w()
    })
  }
}

class ListPool implements SequencerPool {
  txs: TypedTransaction[] = []
  stateChanges = 0
  candidates(): CandidateIterator {
    const list = [...this.txs]
    return { next: (): PoolCandidate | undefined => { const tx = list.shift(); return tx && { tx, hash: tx.hash(), sender: tx.getSenderAddress().bytes } }, skipSender: () => undefined }
  }
  onIncluded?: () => void
  onStateChanged?: () => void
  included(_b: unknown, hashes: readonly Uint8Array[]): void {
    this.onIncluded?.()
    const gone = new Set(hashes.map(bytesToHex))
    this.txs = this.txs.filter((t) => !gone.has(bytesToHex(t.hash())))
  }
  drop(): void {}
  stateChanged(): void {
    this.onStateChanged?.()
    this.stateChanges++
  }
}

const transfer = (node: FlashNode, nonce: bigint) => signedTx(node, 0, nonce, { to: ACCOUNTS[3]!.address, value: 7n, gasLimit: 21_000n })

async function gated(t: Parameters<typeof devNode>[0], held?: (kv: KvStore) => KvStore) {
  const node = await devNode(t)
  const pool = new ListPool()
  const gate = new HeldGate()
  const seq = sequencerFor(node, pool, undefined, undefined, { gate }, held?.(node.chain.store.kv))
  const announced: number[] = []
  seq.on('flashblock', (s) => announced.push(s.index))
  const started = seq.start()
  await gate.asks(1)
  assert.deepEqual(announced, [], 'the opening waits for its acknowledgement')
  gate.asked[0]!.resolve()
  await started
  assert.deepEqual(announced, [0])
  return { node, pool, gate, seq, announced }
}

test('with a gate, a flashblock is announced only once acknowledged, and journaled then, after the pool heard the transactions were included', async (t) => {
  const { node, pool, gate, seq, announced } = await gated(t)
  const journal = new FlashblockJournal(node.chain.store.kv)
  const tx = transfer(node, 0n)
  pool.txs.push(tx)
  const order: string[] = []
  pool.onIncluded = () => order.push('included')
  pool.onStateChanged = () => order.push(`state changed (journaled: ${journal.read(1n)?.flashblocks.length ?? 0})`)
  // What an announcement's listeners leave for the end of its microtask turn (the WebSocket server's corked
  // notifications) goes out before the journal write holds the thread.
  seq.on('flashblock', (s) => {
    if (s.index === 1) queueMicrotask(() => order.push(`end of the announcement's turn (journaled: ${journal.read(1n)?.flashblocks.length ?? 0})`))
  })
  const changesBefore = pool.stateChanges
  const built = seq.flashblock()
  await gate.asks(2)
  assert.equal(gate.asked[1]!.index, 1)
  await new Promise((resolve) => setImmediate(resolve))
  assert.equal(seq.snapshot().index, 0, 'not acknowledged: the newest snapshot is still the opening')
  assert.equal(pool.stateChanges, changesBefore, 'the pool has not heard of it')
  assert.equal(journal.read(1n)?.flashblocks.length ?? 0, 0, 'nothing journaled before the acknowledgement')
  assert.deepEqual(announced, [0])
  gate.asked[1]!.resolve()
  const snap = await built
  assert.equal(snap.index, 1)
  assert.equal(bytesToHex(snap.transactions[0]!.hash), bytesToHex(tx.hash()))
  assert.deepEqual(announced, [0, 1])
  assert.deepEqual(order, ['included', 'state changed (journaled: 0)', "end of the announcement's turn (journaled: 0)"], 'the pool lets them go as included before the new state; the journal follows the announcement and its turn')
  assert.equal(journal.read(1n)?.flashblocks[0]?.length, 1, 'journaled once announced')
})

test('a refused flashblock leaves its transactions in the pool and nothing of it in the journal', async (t) => {
  const { node, pool, gate, seq, announced } = await gated(t)
  const tx = transfer(node, 0n)
  pool.txs.push(tx)
  const built = seq.flashblock()
  await gate.asks(2)
  gate.asked[1]!.reject(new Error('fenced out'))
  await assert.rejects(built, /fenced out/)
  assert.deepEqual(announced, [0])
  assert.deepEqual(pool.txs.map((x) => bytesToHex(x.hash())), [bytesToHex(tx.hash())], 'still in the pool')
  assert.equal(new FlashblockJournal(node.chain.store.kv).read(1n), undefined)
})

test('a journal write that fails after the acknowledgement deposes a gated sequencer; what it announced stays announced', async (t) => {
  let store: FailingCommit | undefined
  const { node, pool, gate, seq, announced } = await gated(t, (kv) => (store = new FailingCommit(kv)))
  const deposed: unknown[] = []
  seq.on('deposed', (e) => deposed.push(e))
  pool.txs.push(transfer(node, 0n))
  const why = new Error('disk full')
  store!.failNext(why)
  const built = seq.flashblock()
  await gate.asks(2)
  gate.asked[1]!.resolve()
  await assert.rejects(built, (e) => e === why)
  assert.deepEqual(deposed, [why])
  assert.deepEqual(announced, [0, 1], 'acknowledged, so announced: the stream holds it')
  assert.equal(new FlashblockJournal(node.chain.store.kv).read(1n), undefined, 'the open block is not resumed from this journal')
  await assert.rejects(seq.flashblock(), SequencerDeposed)
})

test('with a gate, a seal is acknowledged before its commit, and the next opening before it is announced', async (t) => {
  const { node, gate, seq, announced } = await gated(t)
  const sealedHeard: bigint[] = []
  seq.on('sealed', (b) => sealedHeard.push(b.header.number))
  const sealing = seq.seal()
  await gate.asks(2)
  gate.asked[1]!.resolve() // the last flashblock
  await gate.asks(3)
  assert.equal(gate.asked[2]!.kind, 'sealed')
  assert.equal(node.chain.head(), 0n, 'not committed before the acknowledgement')
  gate.asked[2]!.resolve()
  await gate.asks(4)
  assert.equal(node.chain.head(), 1n, 'committed once acknowledged')
  assert.deepEqual(sealedHeard, [1n])
  assert.equal(gate.asked[3]!.index, 0)
  assert.equal(gate.asked[3]!.number, 2n)
  assert.equal(seq.snapshot().header.number, 1n, 'the next opening is not announced yet')
  gate.asked[3]!.resolve()
  await sealing
  assert.equal(seq.snapshot().header.number, 2n)
  assert.deepEqual(announced, [0, 1, 0])
})

test('a refusal deposes the sequencer: nothing of it announced, no more work, its journal gone', async (t) => {
  const { node, pool, gate, seq, announced } = await gated(t)
  pool.txs.push(transfer(node, 0n))
  const first = seq.flashblock()
  await gate.asks(2)
  gate.asked[1]!.resolve()
  await first
  pool.txs.push(transfer(node, 1n))
  const deposed: unknown[] = []
  seq.on('deposed', (e) => deposed.push(e))
  const refused = seq.flashblock()
  await gate.asks(3)
  const why = new Error('fenced out')
  gate.asked[2]!.reject(why)
  await assert.rejects(refused, (e) => e === why)
  assert.deepEqual(deposed, [why])
  assert.equal(seq.deposedBy, why)
  assert.deepEqual(announced, [0, 1], 'the refused flashblock was not announced')
  assert.equal(seq.snapshot().index, 1)
  assert.equal(new FlashblockJournal(node.chain.store.kv).read(1n), undefined, 'the open block is not resumed from this journal')
  await assert.rejects(seq.flashblock(), SequencerDeposed)
  await assert.rejects(seq.seal(), SequencerDeposed)
  assert.equal(gate.asked.length, 3, 'nothing more asked of the gate')
  assert.equal(node.chain.head(), 0n)
  await seq.stop()
})

test('a refused seal is never committed', async (t) => {
  const { node, gate, seq } = await gated(t)
  const deposed: unknown[] = []
  seq.on('deposed', (e) => deposed.push(e))
  const sealing = seq.seal()
  await gate.asks(2)
  gate.asked[1]!.resolve()
  await gate.asks(3)
  gate.asked[2]!.reject(new Error('no quorum'))
  await assert.rejects(sealing, /no quorum/)
  assert.equal(node.chain.head(), 0n)
  assert.equal(deposed.length, 1)
})

test('a gated sequencer that resumes an open block builds its next flashblock at once; a fresh block and an ungated resume keep the cadence', async (t) => {
  const { node, pool, gate, seq } = await gated(t)
  pool.txs.push(transfer(node, 0n))
  const first = seq.flashblock()
  await gate.asks(2)
  gate.asked[1]!.resolve()
  await first
  await seq.stop()

  const auto = { ...SEQUENCER_TEST_SETTINGS, mode: 'auto' as const }
  const resumes = async (withGate: boolean) => {
    const clock = new ManualScheduler()
    const next = new HeldGate()
    const resumed = sequencerFor(node, new ListPool(), clock, auto, withGate ? { gate: next } : {})
    const built: number[] = []
    resumed.on('flashblock', (s) => built.push(s.index))
    await resumed.start()
    assert.deepEqual(built, [0, 1], 'the journaled flashblocks are resumed, not asked of the gate')
    clock.advance(0)
    // A tick that fired waits for its acknowledgement (gated) or finishes (ungated); none leaves it idle.
    await Promise.race([next.asks(1), resumed.idle()])
    const atOnce = withGate ? next.asked.map((a) => a.index) : built.slice(2)
    for (const a of next.asked) a.resolve()
    await resumed.stop()
    return atOnce
  }
  assert.deepEqual(await resumes(true), [2], 'a takeover: the next flashblock at once')
  assert.deepEqual(await resumes(false), [], 'a single node restarted: the next flashblock at the next tick')
})
