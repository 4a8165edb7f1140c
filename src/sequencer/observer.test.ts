/**
 * The sequencer's reports to its observer (metrics): one build per flashblock with its time and gas, one
 * seal per sealed block, and a skipped tick when the clock fires while the previous tick still runs. Auto
 * mode on an injected clock.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { ACCOUNTS, devNode, signedTx } from '../../test/support/dev-chain.ts'
import { EMPTY_POOL, SEQUENCER_TEST_SETTINGS, sequencerFor } from '../../test/support/sequencer.ts'
import { ManualScheduler } from './scheduler.ts'
import type { SequencerObserver, SequencerPool } from './sequencer.ts'

class Recorder implements SequencerObserver {
  readonly built: number[] = []
  readonly gas: number[] = []
  readonly journaled: number[] = []
  readonly seals: number[] = []
  skipped = 0
  flashblockBuilt(seconds: number, gas: number): void {
    this.built.push(seconds)
    this.gas.push(gas)
  }
  journalWritten(seconds: number): void {
    this.journaled.push(seconds)
  }
  sealed(seconds: number): void {
    this.seals.push(seconds)
  }
  tickSkipped(): void {
    this.skipped++
  }
}

test('the observer hears each build, each seal and each skipped tick', async (t) => {
  const node = await devNode(t)
  const clock = new ManualScheduler()
  const observer = new Recorder()
  const seq = sequencerFor(node, EMPTY_POOL, clock, { ...SEQUENCER_TEST_SETTINGS, mode: 'auto', flashblocksPerBlock: 2 }, { observer })
  await seq.start()
  t.after(() => seq.stop())
  clock.advance(400) // two ticks at once: the second finds the first still building
  await seq.idle()
  assert.equal(observer.built.length, 1)
  assert.equal(observer.skipped, 1)
  clock.advance(200)
  await seq.idle()
  assert.equal(observer.built.length, 2)
  assert.equal(observer.seals.length, 1, 'the second flashblock sealed the block')
  assert.ok([...observer.built, ...observer.seals].every((s) => s >= 0 && s < 60), 'times in seconds')
  assert.deepEqual(observer.journaled, [], 'empty flashblocks are not journaled')
})

test('the times the observer hears are the operations\' own: positive, and no longer than the call that ran them', async (t) => {
  const node = await devNode(t)
  const tx = signedTx(node, 0, 0n, { to: ACCOUNTS[3]!.address, value: 1n, gasLimit: 21_000n })
  let offered = false
  const pool: SequencerPool = {
    ...EMPTY_POOL,
    candidates: () => ({
      next: () => (offered ? undefined : ((offered = true), { tx, hash: tx.hash(), sender: tx.getSenderAddress().bytes })),
      skipSender: () => undefined,
    }),
  }
  const observer = new Recorder()
  const seq = sequencerFor(node, pool, new ManualScheduler(), SEQUENCER_TEST_SETTINGS, { observer })
  await seq.start()
  t.after(() => seq.stop())
  const timed = async (run: () => Promise<unknown>): Promise<number> => {
    const started = performance.now()
    await run()
    return (performance.now() - started) / 1000
  }
  const flashblockSeconds = await timed(() => seq.flashblock())
  const sealSeconds = await timed(() => seq.seal())
  assert.equal(observer.journaled.length, 1, 'the flashblock with a transaction was journaled')
  const within = (what: string, xs: number[], limit: number) => assert.ok(xs.length > 0 && xs.every((s) => s > 0 && s <= limit), `${what}: ${xs.join(', ')} s, the call took ${limit} s`)
  within('journal write', observer.journaled, flashblockSeconds)
  within('flashblock build', observer.built.slice(0, 1), flashblockSeconds)
  within('seal', observer.seals, sealSeconds)
  assert.ok(observer.journaled[0]! <= observer.built[0]!, 'the journal write is part of the build')
  assert.equal(observer.gas[0], 21_000, 'the flashblock\'s gas: its one transfer')
  await seq.flashblock()
  assert.equal(observer.gas.at(-1), 0, 'an empty flashblock: no gas')
})

test('the gas the observer hears for a flashblock is that of its own new transactions, not the block\'s so far', async (t) => {
  const node = await devNode(t)
  const txs = [0n, 1n].map((nonce) => signedTx(node, 0, nonce, { to: ACCOUNTS[3]!.address, value: 1n, gasLimit: 21_000n }))
  let calls = 0
  const pool: SequencerPool = {
    ...EMPTY_POOL,
    candidates: () => {
      const tx = txs[calls++] // one transaction for each of the first two flashblocks
      let offered = tx === undefined
      return {
        next: () => (offered ? undefined : ((offered = true), { tx: tx!, hash: tx!.hash(), sender: tx!.getSenderAddress().bytes })),
        skipSender: () => undefined,
      }
    },
  }
  const observer = new Recorder()
  const seq = sequencerFor(node, pool, new ManualScheduler(), SEQUENCER_TEST_SETTINGS, { observer })
  await seq.start()
  t.after(() => seq.stop())
  await seq.flashblock()
  await seq.flashblock()
  await seq.flashblock()
  assert.equal(seq.snapshot().transactions.length, 2, 'both transfers are in the open block')
  assert.deepEqual(observer.gas, [21_000, 21_000, 0])
})
