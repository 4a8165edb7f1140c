/**
 * Durability before publication, read at the very moment of announcement: whenever a flashblock becomes
 * visible (the sequencer's `flashblock` event, which `pending` reads and eth_sendRawTransactionSync's wait
 * follow, and the node's subscription listeners, which WebSocket notifications are sent from), the journal in
 * the database already holds every transaction the open block has announced, in order, each flashblock's
 * under its own index. The read is synchronous: an LMDB write not yet committed is invisible to it, so a
 * journal write made fire-and-forget, made after publishing, or skipped for some flashblocks fails here.
 * A real node (pool, sequencer, LMDB) on an injected clock, in auto mode so that seals come from ticks.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { PreconfirmedSnapshot } from '../preconf/snapshot.ts'
import { FlashblockJournal } from './journal.ts'
import { ManualScheduler } from './scheduler.ts'
import { createNode, DEFAULT_NODE_SETTINGS, DEFAULT_SEQUENCER } from '../node/create-node.ts'
import { keccak256 } from '../primitives/keccak.ts'
import { bytesToHex, equalBytes } from '../primitives/hex.ts'
import { ACCOUNTS, signedTx, testGenesis } from '../../test/support/dev-chain.ts'
import { tempDir } from '../../test/support/temp-dir.ts'

const FLASHBLOCKS_PER_BLOCK = 4
/** Transactions submitted before each tick: single ones, none, a few; ticks 4, 8, 12 seal. */
const PLAN = [1, 0, 2, 1, 3, 1, 0, 2, 0, 5, 1, 1]

test('at every announcement of a flashblock, its transactions are already in the journal on disk', async (t) => {
  const clock = new ManualScheduler(Date.now())
  const node = await createNode({
    ...DEFAULT_NODE_SETTINGS,
    dataDir: tempDir(t),
    genesis: testGenesis(),
    sequencer: { ...DEFAULT_SEQUENCER, mode: 'auto', scheduler: clock, flashblocksPerBlock: FLASHBLOCKS_PER_BLOCK, syncTimeoutMs: 60_000 },
  })
  t.after(() => node.close())
  await node.start()
  const sequencer = node.sequencer!
  const journal = new FlashblockJournal(node.chain.store.kv)

  const problems: string[] = []
  let checkedWithNew = 0
  let singleTxFlashblocks = 0
  /** What the database holds at this instant for the snapshot's block, against what the snapshot shows. */
  const check = (where: string, s: PreconfirmedSnapshot): void => {
    if (s.transactions.length === 0) return
    const onDisk = journal.read(s.header.number)
    const label = `${where}, block ${s.header.number} flashblock ${s.index}`
    if (onDisk === undefined) return void problems.push(`${label}: no journal`)
    if (!equalBytes(onDisk.parentHash, s.parent.hash())) problems.push(`${label}: journaled on another parent`)
    if (onDisk.env.timestamp !== s.header.timestamp) problems.push(`${label}: journaled with another timestamp`)
    const hashes = (raws: readonly Uint8Array[]) => raws.map((raw) => bytesToHex(keccak256(raw)))
    const announced = s.transactions.map((x) => bytesToHex(x.hash))
    const journaled = hashes(onDisk.flashblocks.flat())
    if (journaled.join() !== announced.join()) problems.push(`${label}: journal holds ${journaled.length} of ${announced.length} announced, or out of order`)
    if (s.firstNew < s.transactions.length) {
      if (where === 'sequencer event') {
        checkedWithNew++
        if (s.transactions.length - s.firstNew === 1) singleTxFlashblocks++
      }
      const own = hashes(onDisk.flashblocks[s.index - 1] ?? [])
      if (own.join() !== announced.slice(s.firstNew).join()) problems.push(`${label}: its own transactions are not under its index`)
    }
  }
  sequencer.on('flashblock', (s) => check('sequencer event', s))
  let subscriberEvents = 0
  const unsubscribe = node.api.subscribe({
    flashblock: (e) => {
      subscriberEvents++
      // The listener runs while the snapshot it describes is the newest one (nothing yields in between).
      const s = sequencer.snapshot()
      if (s.index !== e.index) problems.push(`subscriber saw flashblock ${e.index} while ${s.index} is published`)
      check('subscription listener', s)
    },
  })
  t.after(unsubscribe)

  const nonces = [0n, 0n, 0n, 0n]
  let sent = 0
  const synced: Promise<void>[] = []
  for (const [tick, count] of PLAN.entries()) {
    for (let i = 0; i < count; i++) {
      const from = sent % nonces.length
      const raw = signedTx(node, from, nonces[from]!++, { to: ACCOUNTS[(from + 1) % 4]!.address, value: 1n, gasLimit: 21_000n }).serialize()
      sent++
      if (i === 0 && tick % 3 === 0) {
        // A sync send: when its answer is ready, its transaction is on disk.
        synced.push(
          node.api.sendRawTransactionSync(raw, 60_000).then((r) => {
            const s = sequencer.snapshot()
            const onDisk = journal.read(r.context.blockNumber)
            const journaled = (onDisk?.flashblocks.flat() ?? []).map((x) => bytesToHex(keccak256(x)))
            const sealed = node.chain.store.txLocation(r.receipt.transactionHash) !== undefined
            if (!sealed && !journaled.includes(bytesToHex(r.receipt.transactionHash))) problems.push(`sync answer for a transaction not journaled (block ${s.header.number})`)
          }),
        )
        // Wait (by asking, not sleeping) until the pool holds it.
        while (!node.pool!.has(keccak256(raw))) await new Promise((resolve) => setImmediate(resolve))
      } else {
        await node.api.sendRawTransaction(raw)
      }
    }
    clock.advance(DEFAULT_SEQUENCER.flashblockIntervalMs)
    await sequencer.idle()
  }
  await Promise.all(synced)

  assert.deepEqual(problems, [])
  assert.equal(node.api.blockNumber(), 3n, 'three blocks were sealed by the clock')
  assert.equal(checkedWithNew, PLAN.filter((n) => n > 0).length, 'every flashblock that added transactions was checked')
  assert.ok(singleTxFlashblocks >= 4, 'flashblocks of a single transaction were among them')
  assert.ok(subscriberEvents >= PLAN.length, 'the subscription listener heard every flashblock')
})
