/**
 * The one-off read of a span of a sequencer's stream (what a JetStream follower fills a hole with), against a
 * real server on loopback: it answers the messages strictly between its two points as soon as the message at
 * `before` arrives, even when that is the newest one published (nothing after it is needed, or waited for);
 * a span the sequencer no longer keeps is missing, with the close code saying so.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { servedManualNode } from '../../test/support/sequencing-node.ts'
import { readStreamRange } from './stream-range.ts'

test('a span up to the newest message is read at once; a span no longer kept is missing', { timeout: 60_000 }, async (t) => {
  const { node, url } = await servedManualNode(t, {}, { stream: { historyBlocks: 1 } })
  const streamUrl = `${url.replace(/^http/, 'ws').replace(/\/$/, '')}/flashblocks`
  const published: { sequence: number; json: unknown }[] = []
  t.after(node.stream!.onPublished((m) => published.push({ sequence: m.sequence, json: JSON.parse(m.json.toString('utf8')) })))
  for (let i = 0; i < 3; i++) {
    await node.sequencer!.flashblock()
    await node.sequencer!.seal()
  }
  await node.sequencer!.flashblock()
  node.stream!.flush()
  const kept = node.stream!.messages().map((m) => m.sequence)
  const before = kept.at(-1)!
  const after = kept[0]!
  // Waiting longer than this is waiting for a message nobody will publish (the test publishes none meanwhile).
  const timeoutMs = 5_000
  const range = await readStreamRange(streamUrl, after, before, { timeoutMs, max: 100 })
  assert.deepEqual(range, { messages: published.filter((m) => m.sequence > after && m.sequence < before).map((m) => m.json) }, `the messages after ${after} and before ${before}, the newest`)

  const forgotten = published[0]!.sequence
  assert.ok(forgotten < after - 1, 'the first messages are no longer kept')
  const gone = await readStreamRange(streamUrl, forgotten, before, { timeoutMs, max: 100 })
  assert.ok('missing' in gone && /\(4000: /.test(gone.missing), `a span no longer kept: ${JSON.stringify(gone)}`)
})
