/**
 * How the sequencer fills and announces flashblocks: at most `maxTransactionsPerFlashblock` each (the rest
 * waits for the next); a transaction whose fee cap is below the open block's base fee waits in the pool
 * instead of being tried and dropped; an unexpected error fails the flashblock (reported as an `error` event
 * in auto mode, the clock ticking on) instead of dropping the transaction; and a newly opened block's first
 * snapshot is announced like every flashblock.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { TypedTransaction } from '@ethereumjs/tx'
import { ACCOUNTS, devNode, signedTx } from '../../test/support/dev-chain.ts'
import { manualNode } from '../../test/support/sequencing-node.ts'
import { EMPTY_POOL, SEQUENCER_TEST_SETTINGS, sequencerFor } from '../../test/support/sequencer.ts'
import { Sequencer, type CandidateIterator, type SequencerPool } from './sequencer.ts'
import { ManualScheduler } from './scheduler.ts'
import type { PreconfirmedSnapshot } from '../preconf/snapshot.ts'
import type { FlashNode } from '../node/create-node.ts'
import { PENDING } from '../primitives/block-id.ts'

const to = ACCOUNTS[3]!.address

test('a flashblock takes at most its maximum of transactions; the rest go into the next', async (t) => {
  const node = await manualNode(t, { maxTransactionsPerFlashblock: 2 })
  for (let i = 0; i < 3; i++) await node.api.sendRawTransaction(signedTx(node, 0, BigInt(i), { to, value: 1n }).serialize())
  await node.api.flashblock()
  assert.equal((await node.api.getBlockReceipts(PENDING))!.length, 2)
  await node.api.flashblock()
  assert.equal((await node.api.getBlockReceipts(PENDING))!.length, 3)
})

test('a transaction whose fee cap is below the base fee waits in the pool', async (t) => {
  const node = await manualNode(t)
  const baseFee = node.sequencer!.snapshot().header.baseFeePerGas!
  const cheap = signedTx(node, 0, 0n, { to, value: 1n, maxFeePerGas: baseFee - 1n, maxPriorityFeePerGas: 1n })
  await node.api.sendRawTransaction(cheap.serialize())
  await node.api.flashblock()
  assert.equal((await node.api.getBlockReceipts(PENDING))!.length, 0)
  const found = await node.api.getTransactionByHash(cheap.hash())
  assert.ok(found !== null && found.placement === null, 'still pooled, not dropped')
})

/** A pool offering, once, a candidate whose transaction cannot even be read (an internal fault, not a rule). */
class FaultyPool implements SequencerPool {
  dropped: string[] = []
  private given = false
  constructor(private readonly tx: TypedTransaction) {}
  candidates(): CandidateIterator {
    const tx = this.tx
    return {
      next: () => {
        if (this.given) return undefined
        this.given = true
        return {
          hash: tx.hash(),
          sender: tx.getSenderAddress().bytes,
          get tx(): TypedTransaction {
            throw new Error('disk on fire')
          },
        }
      },
      skipSender: () => undefined,
    }
  }
  included(): void {}
  drop(_hash: Uint8Array, reason: string): void {
    this.dropped.push(reason)
  }
  stateChanged(): void {}
}

/** The node's chain under a sequencer of the test's own, at most 100 transactions a flashblock. */
const build = (node: FlashNode, pool: SequencerPool, clock: ManualScheduler, mode: 'auto' | 'manual'): Sequencer =>
  sequencerFor(node, pool, clock, { ...SEQUENCER_TEST_SETTINGS, mode, maxTransactionsPerFlashblock: 100 })

test('an unexpected error fails the flashblock instead of dropping the transaction', async (t) => {
  const node = await devNode(t)
  const pool = new FaultyPool(signedTx(node, 0, 0n, { to, value: 1n }))
  const seq = build(node, pool, new ManualScheduler(), 'manual')
  await seq.start()
  await assert.rejects(seq.flashblock(), /disk on fire/)
  assert.deepEqual(pool.dropped, [])
})

test('in auto mode a failed tick is reported as an error event and the clock ticks on', async (t) => {
  const node = await devNode(t)
  const pool = new FaultyPool(signedTx(node, 0, 0n, { to, value: 1n }))
  const clock = new ManualScheduler()
  const seq = build(node, pool, clock, 'auto')
  const errors: unknown[] = []
  seq.on('error', (e) => errors.push(e))
  await seq.start()
  t.after(() => seq.stop())
  clock.advance(200)
  await seq.idle()
  assert.equal(errors.length, 1)
  assert.match(String(errors[0]), /disk on fire/)
  clock.advance(200)
  await seq.idle()
  assert.equal(seq.snapshot().index, 1, 'the next tick built an (empty) flashblock')
})

test('a newly opened block\'s first snapshot is announced', async (t) => {
  const node = await manualNode(t)
  const seen: PreconfirmedSnapshot[] = []
  node.sequencer!.on('flashblock', (s) => seen.push(s))
  await node.api.mine()
  assert.deepEqual(seen.map((s) => [s.header.number, s.index]), [[1n, 1n], [2n, 0]].map(([n, i]) => [n, Number(i)]))
})

test('in manual mode the clock builds nothing', async (t) => {
  const clock = new ManualScheduler(Date.now())
  const node = await manualNode(t, { scheduler: clock })
  clock.advance(5_000)
  await node.sequencer!.idle()
  assert.equal(node.sequencer!.snapshot().index, 0)
})

test('in auto mode a tick that finds the previous one running is skipped, and after stop nothing ticks', async (t) => {
  const node = await devNode(t)
  const clock = new ManualScheduler()
  const pool = EMPTY_POOL
  const seq = build(node, pool, clock, 'auto')
  await seq.start()
  t.after(() => seq.stop())
  clock.advance(400) // two ticks at once: the second finds the first still building
  await seq.idle()
  assert.equal(seq.snapshot().index, 1)
  clock.advance(200)
  await seq.idle()
  assert.equal(seq.snapshot().index, 2, 'ticking on')
  await seq.stop()
  clock.advance(1_000)
  await seq.idle()
  assert.equal(seq.snapshot().index, 2, 'stopped')
})

test('a sequencer stopped while it is still starting never ticks', async (t) => {
  const node = await devNode(t)
  const clock = new ManualScheduler()
  const pool = EMPTY_POOL
  const seq = build(node, pool, clock, 'auto')
  const starting = seq.start()
  await seq.stop()
  await starting
  clock.advance(1_000)
  await seq.idle()
  assert.equal(seq.snapshot().index, 0)
})
