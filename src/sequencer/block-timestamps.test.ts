/**
 * Each block the sequencer opens takes its timestamp from the sequencer's clock when it opens, in whole
 * seconds, and is always later than its parent: when the clock has not moved past the parent's second, one
 * second later. It keeps that timestamp until it is sealed.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { ManualScheduler } from './scheduler.ts'
import { manualNode, rpc } from '../../test/support/sequencing-node.ts'

test('blocks take the clock\'s second, or their parent\'s plus one when the clock is not ahead of it', async (t) => {
  const clock = new ManualScheduler(1_800_000_000_900)
  const node = await manualNode(t, { scheduler: clock })
  const time = async (tag: string): Promise<bigint> => BigInt((await rpc(node, 'eth_getBlockByNumber', [tag, false])).timestamp)

  assert.equal(await time('pending'), 1_800_000_000n, 'the clock\'s second, rounded down')
  await node.api.mine()
  assert.equal(await time('latest'), 1_800_000_000n)
  assert.equal(await time('pending'), 1_800_000_001n, 'the clock has not moved: one past the parent')
  await node.api.mine()
  clock.advance(100) // the clock's second is now 1_800_000_001: not past block 3's
  await node.api.mine()
  assert.equal(await time('latest'), 1_800_000_002n)
  assert.equal(await time('pending'), 1_800_000_003n)
  clock.advance(7_000)
  await node.api.mine()
  assert.equal(await time('latest'), 1_800_000_003n, 'a block keeps the timestamp it was opened with')
  assert.equal(await time('pending'), 1_800_000_008n, 'the clock is ahead again: its second')
})
