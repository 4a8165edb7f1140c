/**
 * The follower's subscription against a real sequencer's stream over a real WebSocket: through a TCP relay
 * the test cuts, while the sequencer seals past what its stream keeps (one sealed block here). Reopened,
 * the follower's resume point is gone (close 4000): it subscribes afresh, takes the next message as a new
 * start instead of asking to resume again (which would loop), fetches the blocks it lacks, and follows.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createNode, DEFAULT_NODE_SETTINGS } from '../node/create-node.ts'
import { bytesToHex } from '../primitives/hex.ts'
import { manualNode, rpc } from '../../test/support/sequencing-node.ts'
import { signedTx, testGenesis } from '../../test/support/dev-chain.ts'
import { tempDir } from '../../test/support/temp-dir.ts'
import { serve } from '../cli/serve.ts'
import { startTcpRelay } from '../../test/support/tcp-relay.ts'
import { SequencerClient } from './sequencer-client.ts'
import { DEFAULT_STREAM_CLIENT } from './stream-client.ts'

const RECEIVER = `0x${'77'.repeat(20)}`
/** Subscriptions a follower may take to get back in step (its resume refused with 4000, then a fresh one), with room to spare; a loop takes more within seconds. */
const MAX_RESUBSCRIPTIONS = 4

test('a follower whose resume point the sequencer no longer keeps subscribes afresh and catches up', { timeout: 120_000 }, async (t) => {
  const sequencer = await manualNode(t, {}, tempDir(t), { stream: { historyBlocks: 1 } })
  const server = await serve(sequencer, { host: '127.0.0.1', port: 0, revertCode: -32000, debug: false, allowedHosts: ['localhost'] })
  t.after(() => server.close())
  const relay = await startTcpRelay(t, Number(new URL(server.url).port))
  const sequencerUrl = server.url.replace(/\/$/, '')
  const follower = await createNode({
    ...DEFAULT_NODE_SETTINGS,
    dataDir: tempDir(t),
    genesis: testGenesis(),
    follow: { sealed: new SequencerClient(sequencerUrl), streamUrl: `ws://127.0.0.1:${relay.port}/flashblocks`, maxAgeMs: 600_000 },
  })
  t.after(() => follower.close())
  await follower.start()
  let nonce = 0n
  const block = async () => {
    await rpc(sequencer, 'eth_sendRawTransaction', [bytesToHex(signedTx(sequencer, 1, nonce++, { to: RECEIVER, value: 1n, gasLimit: 21_000n }).serialize())])
    await sequencer.sequencer!.flashblock()
    await sequencer.sequencer!.seal()
  }
  const subscriptions = () => follower.metrics!.exposition().then((e) => Number(/flashnode_follower_subscriptions_total (\d+)/.exec(e.body)?.[1]))
  /**
   * Waits until the follower holds the sequencer's head and its newest message. A follower stuck re-subscribing
   * (its resume point gone, never taken afresh; or taken afresh, then asking to resume again) fails here at
   * once, by its count of subscriptions, not by the test's timeout; one that never gets there, past `limitMs`.
   */
  const caughtUp = async (what: string, limitMs = 30_000) => {
    const target = sequencer.chain.head()
    const newest = () => sequencer.stream!.messages().at(-1)!.sequence
    const from = await subscriptions()
    const end = Date.now() + limitMs
    while (follower.chain.head() < target || follower.follower!.sequence !== newest()) {
      const state = `block ${follower.chain.head()} of ${target}, sequence ${follower.follower!.sequence} of ${newest()}`
      const again = (await subscriptions()) - from
      assert.ok(again <= MAX_RESUBSCRIPTIONS, `${what}: ${again} subscriptions and still at ${state}: a loop (back-off ${DEFAULT_STREAM_CLIENT.retryMs.min} ms, doubling), not a resume`)
      assert.ok(Date.now() < end, `${what}: not caught up within ${limitMs} ms (${state}, ${again} subscriptions)`)
      await new Promise((r) => setTimeout(r, 10))
    }
  }
  await block()
  await caughtUp('the first block')

  await relay.cut()
  for (let i = 0; i < 3; i++) await block()
  await relay.reopen()
  await caughtUp('after the link came back, its resume point gone')
  assert.equal(bytesToHex(follower.chain.header(follower.chain.head())!.hash()), bytesToHex(sequencer.chain.header(sequencer.chain.head())!.hash()))
  await block()
  await caughtUp('the next block')
  assert.equal(follower.chain.head(), sequencer.chain.head(), 'and it follows on')
})
