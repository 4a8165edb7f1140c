/**
 * The stream publisher's promises about sequence numbers and resume points, through its public interface (a
 * manual-sealing node's `stream`, subscribers as sinks): the numbers go on past a restart on the same
 * database (the reservation is durable: none is handed out twice, or JetStream's de-duplication, keyed on
 * them, would drop the new messages); a subscriber resuming after the message just before the oldest kept
 * one gets every kept message and then the live ones, one resuming any earlier is told its point is too old.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { manualNode, unstartedManualNode } from '../../test/support/sequencing-node.ts'
import { tempDir } from '../../test/support/temp-dir.ts'
import type { FlashNode } from '../node/create-node.ts'
import { CLOSE, type StreamSink } from './publisher.ts'

/** A subscriber that reads everything at once: the sequences it was sent, and how it was closed. */
function recordingSink(): StreamSink & { readonly sequences: number[]; closed?: { code: number; reason: string } } {
  const sink = {
    compressed: false,
    sequences: [] as number[],
    closed: undefined as { code: number; reason: string } | undefined,
    send(data: Buffer) {
      sink.sequences.push((JSON.parse(data.toString('utf8')) as { metadata: { sequence: number } }).metadata.sequence)
    },
    queuedBytes: () => 0,
    close(code: number, reason: string) {
      sink.closed = { code, reason }
    },
  }
  return sink
}

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
  t.after(second.stream!.onPublished((m) => after.push({ sequence: m.sequence, previous: (JSON.parse(m.json.toString()) as { metadata: { previous_sequence: unknown } }).metadata.previous_sequence })))
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

test('a resume after the message just before the oldest kept one gets every kept message; an older point is too old', async (t) => {
  const node = await manualNode(t, {}, tempDir(t), { stream: { historyBlocks: 1 } })
  const published: number[] = []
  t.after(node.stream!.onPublished((m) => published.push(m.sequence)))
  await sealBlocks(node, 3)
  const kept = node.stream!.messages().map((m) => m.sequence)
  const oldest = kept[0]!
  assert.ok(published.includes(oldest - 1), `messages before the oldest kept (${oldest}) were published and forgotten: ${published.join(',')}`)

  const resumed = recordingSink()
  assert.equal(node.stream!.subscribe(resumed, oldest - 1), true, `resume after ${oldest - 1}, the message just before the oldest kept: ${resumed.closed?.reason ?? ''}`)
  await new Promise((resolve) => setImmediate(resolve))
  assert.equal(resumed.closed, undefined, 'the subscriber is not closed')
  assert.deepEqual(resumed.sequences, kept, 'every kept message, in order')
  await sealBlocks(node, 1)
  assert.equal(resumed.closed, undefined, 'and it stays subscribed')
  assert.deepEqual(resumed.sequences.slice(kept.length), published.filter((s) => s > kept.at(-1)!), 'then the live messages')

  const old = recordingSink()
  const oldest2 = node.stream!.messages()[0]!.sequence
  assert.equal(node.stream!.subscribe(old, oldest2 - 2), false)
  assert.equal(old.closed?.code, CLOSE.tooOld, `resume after ${oldest2 - 2}: ${old.closed?.reason ?? 'not closed'}`)
  assert.deepEqual(old.sequences, [])
})
