/**
 * After a seal, the sealed block's journal entries are gone: the journal holds at most the open block, so it
 * does not grow with the chain. The database's journal table is read directly after each seal, across blocks
 * whose flashblocks are empty or not (the seal's own last flashblock included), and across a restart that
 * resumed a block from the journal.
 */

import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { createNode, DEFAULT_NODE_SETTINGS, DEFAULT_SEQUENCER, type FlashNode } from '../node/create-node.ts'
import { keys, readU32, readU64 } from '../storage/keys.ts'
import { ManualScheduler } from './scheduler.ts'
import { ACCOUNTS, signedTx, testGenesis } from '../../test/support/dev-chain.ts'
import { tempDir } from '../../test/support/temp-dir.ts'

async function manualNode(t: TestContext, dataDir: string): Promise<FlashNode> {
  const node = await createNode({
    ...DEFAULT_NODE_SETTINGS,
    dataDir,
    genesis: testGenesis(),
    sequencer: { ...DEFAULT_SEQUENCER, mode: 'manual', scheduler: new ManualScheduler(Date.now()) },
  })
  t.after(() => node.close())
  await node.start()
  return node
}

/** Every key of the journal table, as "block/index". */
function journalEntries(node: FlashNode): string[] {
  const start = keys.journal()
  const end = Uint8Array.of(start[0]! + 1)
  return [...node.chain.store.kv.range(start, end)].map(({ key }) => `${readU64(key, 1)}/${readU32(key, 9)}`)
}

test('a seal deletes its block\'s journal entries, whichever of its flashblocks were empty', async (t) => {
  const dir = tempDir(t)
  let node = await manualNode(t, dir)
  const nonces = [0n, 0n, 0n, 0n]
  const send = async (count: number) => {
    for (let i = 0; i < count; i++) {
      const from = i % 4
      await node.api.sendRawTransaction(signedTx(node, from, nonces[from]!++, { to: ACCOUNTS[3]!.address, value: 1n, gasLimit: 21_000n }).serialize())
    }
  }
  const flashblock = async (count: number) => {
    await send(count)
    await node.sequencer!.flashblock()
  }
  const seal = async (count: number) => {
    await send(count)
    await node.sequencer!.seal()
  }

  // Block 1: flashblocks of 1, 0 and 2 transactions, and the seal's own flashblock of 1.
  await flashblock(1)
  await flashblock(0)
  await flashblock(2)
  assert.deepEqual(journalEntries(node), ['1/0', '1/1', '1/3'], 'the environment and the non-empty flashblocks are journaled')
  await seal(1)
  assert.deepEqual(journalEntries(node), [], 'block 1 sealed')

  // Block 2: nothing at all.
  await flashblock(0)
  await seal(0)
  assert.deepEqual(journalEntries(node), [], 'block 2 sealed')

  // Block 3: transactions only in the seal's flashblock.
  await seal(3)
  assert.deepEqual(journalEntries(node), [], 'block 3 sealed')

  // Block 4: a flashblock of 1, then empty ones up to the seal.
  await flashblock(1)
  await flashblock(0)
  await seal(0)
  assert.deepEqual(journalEntries(node), [], 'block 4 sealed')

  // Block 5 is resumed from the journal after a restart, then sealed.
  await flashblock(2)
  await flashblock(0)
  await flashblock(1)
  assert.deepEqual(journalEntries(node), ['5/0', '5/1', '5/3'])
  await node.close()
  node = await manualNode(t, dir)
  assert.equal(node.sequencer!.snapshot().transactions.length, 3, 'the restarted node resumed block 5')
  await seal(0)
  assert.deepEqual(journalEntries(node), [], 'the resumed block 5 sealed')
  assert.equal(node.api.blockNumber(), 5n)
  assert.equal((await node.api.getBlockReceipts({ kind: 'number', number: 5n }))!.length, 3)
})
