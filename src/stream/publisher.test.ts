/**
 * The stream publisher's promises about sequence numbers, through its public interface (a manual-sealing
 * node's `stream`): the numbers go on past a restart on the same database (the reservation is durable: none
 * is handed out twice, or JetStream's de-duplication, keyed on them, would drop the new messages).
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { manualNode, unstartedManualNode } from '../../test/support/sequencing-node.ts'
import { tempDir } from '../../test/support/temp-dir.ts'
import type { FlashNode } from '../node/create-node.ts'

/** Seals `blocks` blocks of one (empty) flashblock each; every message is published when it returns. */
async function sealBlocks(node: FlashNode, blocks: number): Promise<void> {
  for (let i = 0; i < blocks; i++) {
    await node.sequencer!.flashblock()
    await node.sequencer!.seal()
  }
  node.stream!.flush()
}

test('sequence numbers go on past a restart on the same database: none is handed out twice', async (t) => {
  const dir = tempDir(t)
  const first = await manualNode(t, {}, dir)
  await sealBlocks(first, 2)
  const before = first.stream!.messages().map((m) => m.sequence)
  assert.ok(before.length > 0)
  await first.close()

  const second = await unstartedManualNode(t, {}, dir)
  const after: { sequence: number; previous: unknown }[] = []
  t.after(second.stream!.onPublished((m) => after.push({ sequence: m.sequence, previous: (m.message.payload as { metadata: { previous_sequence: unknown } }).metadata.previous_sequence })))
  await second.start()
  await sealBlocks(second, 1)
  const newestBefore = Math.max(...before)
  assert.ok(after.length > 0)
  assert.ok(
    after[0]!.sequence > newestBefore,
    `the restarted node's first message has sequence ${after[0]!.sequence}, but the first run published up to ${newestBefore}: the reserved range was not saved`,
  )
  assert.equal(after[0]!.previous, null, "a run's first message follows none (a gap after the restart, never a reuse)")
  assert.deepEqual(
    after.map((m) => m.sequence - after[0]!.sequence),
    after.map((_, i) => i),
    'then one more per message',
  )
})
