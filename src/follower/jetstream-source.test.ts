/**
 * The JetStream source against a real nats-server (Debian's; skipped, saying so, without it), fed by a real
 * sequencing node through the JetStream publisher: a follower that starts reading a backlog learns from the
 * broker's newest message how far the sequencer is, before it has handled any message, so it counts itself
 * behind (not ready, eth_syncing) until it has read that far, however fresh the old messages look. A hole
 * in the broker that the sequencer's stream cannot fill either makes the follower rejoin: the block is
 * fetched sealed, and the follower follows on. A broker without the stream yet is waited on, told once.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { needsTool } from '../../test/support/debian-tool.ts'
import { startNatsServer } from '../../test/support/nats-server.ts'
import { inProcessFollower, manualNode } from '../../test/support/sequencing-node.ts'
import { until } from '../../test/support/follower-kit.ts'
import { bytesToHex } from '../primitives/hex.ts'
import { JetStreamPublisher } from '../stream/jetstream-publisher.ts'
import type { Follower, Outcome } from './follower.ts'
import { JetStreamSource } from './jetstream-source.ts'
import type { Logger } from '../primitives/logger.ts'

/** A follower that holds every message it is handed until released, and records what it is told. */
function heldFollower(): { follower: Follower; handed: unknown[]; sealed: bigint[]; release: () => void } {
  const handed: unknown[] = []
  const sealed: bigint[] = []
  const waiting: ((o: Outcome) => void)[] = []
  let released = false
  const release = (): void => {
    released = true
    waiting.forEach((resolve) => resolve('applied'))
  }
  const follower = {
    sequence: null,
    rejoin: () => undefined,
    sequencerSealed: (n: bigint) => void sealed.push(n),
    receive: (message: unknown) => {
      handed.push(message)
      return released ? Promise.resolve<Outcome>('applied') : new Promise<Outcome>((resolve) => waiting.push(resolve))
    },
  } as unknown as Follower
  return { follower, handed, sealed, release }
}

test("reading a backlog, the follower is told the sequencer's newest sealed block before it handles a message", needsTool('nats-server', 'nats-server'), async (t) => {
  const broker = await startNatsServer(t)
  const node = await manualNode(t)
  const publisher = new JetStreamPublisher({ chainId: node.rules.chainId, url: broker.url })
  let handedToBroker = 0
  const stop = node.stream!.onPublished((m) => {
    handedToBroker++
    publisher.publish(m)
  })
  publisher.start()
  await publisher.whenConnected()
  for (let block = 0; block < 4; block++) {
    await node.sequencer!.flashblock()
    await node.sequencer!.seal()
  }
  node.stream!.flush()
  await until('every message acknowledged', async () => (publisher.stats().acknowledged === handedToBroker ? true : undefined))
  const sequencerHead = node.chain.head()
  assert.ok(sequencerHead >= 4n)

  const { follower, handed, sealed, release } = heldFollower()
  const source = new JetStreamSource({ url: broker.url, chainId: node.rules.chainId, head: () => 0n, fill: async () => ({ missing: 'not in this test' }) }, follower)
  source.start()
  try {
    await until('the first message handed over', async () => (handed.length > 0 ? true : undefined))
    assert.equal(handed.length, 1, 'one message at a time: the first is still being handled')
    assert.deepEqual(sealed, [sequencerHead], 'told before the backlog is read')
  } finally {
    // Stopped before the broker goes (the test's after-hooks): a client still reading it would write to a closed socket.
    release()
    await source.stop()
    stop()
    await publisher.close()
  }
})

test('a hole in the broker that the sequencer cannot fill either: the follower rejoins, fetches that block sealed and follows on', needsTool('nats-server', 'nats-server'), async (t) => {
  const broker = await startNatsServer(t)
  const node = await manualNode(t)
  const publisher = new JetStreamPublisher({ chainId: node.rules.chainId, url: broker.url })
  const published: number[] = []
  let lost: number | undefined
  const stop = node.stream!.onPublished((m) => {
    published.push(m.sequence)
    // Block 2's first flashblock after its opening never reaches the broker.
    if (lost === undefined && m.message.blockNumber === 2n && (JSON.parse(m.json.toString()) as { index: number }).index === 1) lost = m.sequence
    else publisher.publish(m)
  })
  publisher.start()
  await publisher.whenConnected()
  const follower = await inProcessFollower(t, node)
  let gaps = 0
  t.after(follower.follower!.observe({ gap: () => gaps++ }))
  const fills: [number, number][] = []
  const source = new JetStreamSource(
    { url: broker.url, chainId: node.rules.chainId, head: () => follower.chain.head(), fill: async (after, before) => (fills.push([after, before]), { missing: 'not kept by the sequencer either' }) },
    follower.follower!,
  )
  source.start()
  try {
    for (let block = 0; block < 3; block++) {
      for (let f = 0; f < 2; f++) await node.sequencer!.flashblock()
      await node.sequencer!.seal()
    }
    node.stream!.flush()
    assert.ok(lost !== undefined)
    const newest = published.at(-1)!
    // A follower that does not rejoin answers every later message with a gap: it fails here at the next one.
    const end = Date.now() + 20_000
    while (follower.follower!.sequence !== newest) {
      const state = `sequence ${follower.follower!.sequence} of ${newest}, block ${follower.chain.head()} of ${node.chain.head()}, ${gaps} gaps, holes ${JSON.stringify(source.holes)}`
      assert.ok(gaps <= 2, `one hole, reported twice (before and after the fill), then a rejoin; got ${state}`)
      assert.ok(Date.now() < end, `not caught up in 20 s: ${state}`)
      await new Promise((r) => setTimeout(r, 10))
    }
    assert.deepEqual(fills, [[lost - 1, lost + 1]], 'the span around the lost message was asked of the sequencer')
    assert.deepEqual(source.holes, { filled: 0, rejoined: 1 })
    assert.equal(follower.chain.head(), node.chain.head())
    assert.equal(bytesToHex(follower.chain.header(2n)!.hash()), bytesToHex(node.chain.header(2n)!.hash()), 'block 2, fetched sealed')
  } finally {
    await source.stop()
    stop()
    await publisher.close()
  }
})

test('a broker without the stream yet: the source says so once, not at every attempt, and reads it once it appears', needsTool('nats-server', 'nats-server'), async (t) => {
  const broker = await startNatsServer(t)
  const node = await manualNode(t)
  const said: { level: string; message: string }[] = []
  const log = Object.fromEntries(['debug', 'info', 'warn', 'error'].map((level) => [level, (_: unknown, message: string) => void said.push({ level, message })])) as unknown as Logger
  const { follower, handed, release } = heldFollower()
  release()
  const source = new JetStreamSource({ url: broker.url, chainId: node.rules.chainId, head: () => 0n, fill: async () => ({ missing: 'not in this test' }), retryMs: { min: 10, max: 20 }, log }, follower)
  source.start()
  const publisher = new JetStreamPublisher({ chainId: node.rules.chainId, url: broker.url })
  try {
    await until('several attempts on the absent stream', async () => (said.filter((s) => s.level === 'info').length > 0 ? true : undefined))
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setTimeout(resolve, 10)) // ~10 retries at 10-20 ms
    assert.equal(said.filter((s) => /no such stream/.test(s.message)).length, 1, `told once: ${JSON.stringify(said)}`)
    assert.deepEqual(said.filter((s) => s.level === 'warn' || s.level === 'error'), [])
    const stop = node.stream!.onPublished((m) => publisher.publish(m))
    publisher.start()
    await publisher.whenConnected()
    await node.sequencer!.flashblock()
    node.stream!.flush()
    await until('the stream read once it exists', async () => (handed.length > 0 ? true : undefined))
    stop()
  } finally {
    await source.stop()
    await publisher.close()
  }
})
