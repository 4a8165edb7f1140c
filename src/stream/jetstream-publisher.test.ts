/**
 * The JetStream publisher against a real nats-server (Debian's; skipped, saying so, without it), fed by a
 * real sequencing node's stream: every message lands in the chain's stream in order, as the same bytes, with
 * its sequence and block in the headers, and is acknowledged; the listener never waits, so a burst past the
 * in-flight bound and every message while the broker is away are dropped and counted, not queued; a stream
 * holding another history (newer sequences) is left alone, with an error.
 */

import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { jetstreamManager } from '@nats-io/jetstream'
import { connect } from '@nats-io/transport-node'
import type { FlashNode } from '../node/create-node.ts'
import type { Logger } from '../primitives/logger.ts'
import { needsTool } from '../../test/support/debian-tool.ts'
import { startNatsServer } from '../../test/support/nats-server.ts'
import { manualNode } from '../../test/support/sequencing-node.ts'
import { HEADER, streamName, subjectOf } from './jetstream-layout.ts'
import { JetStreamPublisher, type JetStreamPublisherOptions } from './jetstream-publisher.ts'
import type { PublishedMessage } from './publisher.ts'

const NATS = needsTool('nats-server', 'nats-server')

/** A publisher attached to the node's stream, as createNode attaches it; the messages it was handed. */
async function attach(t: TestContext, node: FlashNode, options: Omit<JetStreamPublisherOptions, 'chainId'>): Promise<{ publisher: JetStreamPublisher; handed: PublishedMessage[] }> {
  const publisher = new JetStreamPublisher({ chainId: node.rules.chainId, ...options })
  const handed: PublishedMessage[] = []
  const stop = node.stream!.onPublished((m) => {
    handed.push(m)
    publisher.publish(m)
  })
  t.after(async () => {
    stop()
    await publisher.close()
  })
  publisher.start()
  return { publisher, handed }
}

async function until<T>(what: string, check: () => T | undefined | Promise<T | undefined>, limitMs = 20_000): Promise<T> {
  const end = Date.now() + limitMs
  for (;;) {
    const got = await check()
    if (got !== undefined) return got
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 10))
  }
}

/** What the broker's stream holds: each message's data and headers, in stream order. */
async function stored(url: string, chainId: bigint): Promise<{ data: Buffer; sequence: string; block: string }[]> {
  const nc = await connect({ servers: url })
  try {
    const jsm = await jetstreamManager(nc)
    const { state } = await jsm.streams.info(streamName(chainId))
    const out = []
    for (let seq = state.first_seq; seq <= state.last_seq; seq++) {
      const m = (await jsm.streams.getMessage(streamName(chainId), { seq }))!
      assert.equal(m.subject, subjectOf(chainId))
      out.push({ data: Buffer.from(m.data), sequence: m.header.get(HEADER.sequence), block: m.header.get(HEADER.block) })
    }
    return out
  } finally {
    await nc.close()
  }
}

const expected = (handed: readonly PublishedMessage[]) => handed.map((m) => ({ data: m.json, sequence: String(m.sequence), block: String(m.message.blockNumber) }))

test('every stream message lands in JetStream in order, as the same bytes, acknowledged', NATS, async (t) => {
  const broker = await startNatsServer(t)
  const node = await manualNode(t)
  const { publisher, handed } = await attach(t, node, { url: broker.url })
  await publisher.whenConnected()
  for (let i = 0; i < 3; i++) await node.sequencer!.flashblock()
  await node.sequencer!.seal()
  await node.sequencer!.flashblock()
  node.stream!.flush()
  await until('acknowledgements', () => (publisher.stats().acknowledged === handed.length ? true : undefined))
  assert.ok(handed.length >= 6)
  assert.deepEqual(await stored(broker.url, node.rules.chainId), expected(handed))
  assert.deepEqual({ ...publisher.stats(), acknowledged: 0 }, { acknowledged: 0, dropped: 0, failed: 0, inFlight: 0, connected: true })
})

test('past the in-flight bound and while the broker is away, messages are dropped and counted, never queued', NATS, async (t) => {
  const broker = await startNatsServer(t)
  const node = await manualNode(t)
  const warnings: string[] = []
  const log: Logger = { debug: () => undefined, info: () => undefined, warn: (_f, m) => warnings.push(m), error: (_f, m) => warnings.push(m) }
  const { publisher, handed } = await attach(t, node, { url: broker.url, maxInFlight: 1, log })
  await publisher.whenConnected()
  // A burst handed over in one synchronous step: the first goes out, the rest find the bound reached.
  for (let i = 0; i < 3; i++) {
    await node.sequencer!.flashblock()
    node.stream!.flush()
    await until('the acknowledgement', () => (publisher.stats().inFlight === 0 ? true : undefined))
  }
  assert.deepEqual({ ...publisher.stats(), connected: true }, { acknowledged: handed.length, dropped: 0, failed: 0, inFlight: 0, connected: true })
  const burst = node.stream!.messages().slice(-3)
  for (const m of burst) publisher.publish(m)
  assert.deepEqual({ dropped: publisher.stats().dropped, inFlight: publisher.stats().inFlight }, { dropped: 2, inFlight: 1 })
  await until('the acknowledgement', () => (publisher.stats().inFlight === 0 ? true : undefined))
  assert.equal(publisher.stats().acknowledged, handed.length, 'the one handed over again was a duplicate (same Nats-Msg-Id): stored once')
  assert.deepEqual(await stored(broker.url, node.rules.chainId), expected(handed))

  await broker.stop()
  await until('the publisher to see the broker gone', () => (publisher.stats().connected ? undefined : true))
  const before = { dropped: publisher.stats().dropped, handed: handed.length }
  await node.sequencer!.flashblock()
  await node.sequencer!.seal()
  node.stream!.flush()
  assert.ok(handed.length > before.handed)
  assert.equal(publisher.stats().dropped, before.dropped + handed.length - before.handed, 'each message while away dropped')
  assert.equal(publisher.stats().inFlight, 0, 'none waiting on a broker that is away')
  assert.ok(warnings.some((w) => /dropping messages from the broker path/.test(w)))

  await broker.restart()
  await publisher.whenConnected()
  const resumedAt = handed.length
  await node.sequencer!.flashblock()
  node.stream!.flush()
  await until('the acknowledgement after the restart', () => (publisher.stats().acknowledged === before.handed + handed.length - resumedAt ? true : undefined))
  assert.deepEqual(await stored(broker.url, node.rules.chainId), expected([...handed.slice(0, before.handed), ...handed.slice(resumedAt)]), 'a hole where the broker was away, in order')
})

test('a stream holding another history (newer sequences) is not published into', NATS, async (t) => {
  const broker = await startNatsServer(t)
  const first = await manualNode(t)
  const { publisher: one, handed } = await attach(t, first, { url: broker.url })
  await one.whenConnected()
  await first.sequencer!.flashblock()
  await first.sequencer!.flashblock()
  first.stream!.flush()
  await until('acknowledgements', () => (one.stats().acknowledged === handed.length ? true : undefined))
  // A second node of the same chain id on a new data directory: its sequences start again from the beginning.
  const second = await manualNode(t)
  const errors: string[] = []
  const log: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: (_f, m) => errors.push(m) }
  const { publisher: two, handed: secondHanded } = await attach(t, second, { url: broker.url, log })
  await two.whenConnected()
  await second.sequencer!.flashblock()
  second.stream!.flush()
  assert.ok(secondHanded.length > 0 && secondHanded.at(-1)!.sequence <= handed.at(-1)!.sequence)
  assert.equal(two.stats().dropped, secondHanded.length)
  assert.match(errors.join('\n'), /another history/)
  assert.deepEqual(await stored(broker.url, first.rules.chainId), expected(handed))
})
