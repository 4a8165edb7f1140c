/**
 * The fenced publish against a real three-server JetStream cluster (test/support/nats-cluster.ts; skipped,
 * saying so, without nats-server), with the lease deciding the terms: leader A publishes; B takes the lease
 * over, starts after the stream's last sequence and publishes; A's next write, expecting its stale last
 * sequence, is refused as FencedOut and nothing of A's follows B's first write. Without quorum (two of three
 * servers killed) publish, acquire and renew fail as BrokerUnavailable within their bounds, and work again
 * once the servers are back.
 */

import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { jetstreamManager } from '@nats-io/jetstream'
import { connect, type NatsConnection } from '@nats-io/transport-node'
import { needsTool } from '../../test/support/debian-tool.ts'
import { startNatsCluster, type NatsCluster } from '../../test/support/nats-cluster.ts'
import { BrokerUnavailable, FencedOut, LeaseLost } from './coordination-errors.ts'
import { ensureStream, FencedPublisher } from './fenced-publisher.ts'
import { HEADER, streamConfig, streamName, subjectOf } from './jetstream-layout.ts'
import { LeaderLease, type LeaseTiming } from './leader-lease.ts'

const NATS = { ...needsTool('nats-server', 'nats-server'), timeout: 90_000 }
const TIMING: LeaseTiming = { leaseMs: 600, renewMs: 150, marginMs: 100, pollMs: 50, opTimeoutMs: 250 }
const CHAIN = 902n
const STREAM = { stream: streamName(CHAIN), subject: subjectOf(CHAIN), ackTimeoutMs: 500 }

async function client(t: TestContext, cluster: NatsCluster): Promise<NatsConnection> {
  const nc = await connect({ servers: [...cluster.urls], reconnectTimeWait: 100, maxReconnectAttempts: -1 })
  t.after(() => nc.close())
  return nc
}

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s)
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

/** What the stream holds: each message's data and term, in stream order. */
async function stored(nc: NatsConnection): Promise<{ seq: number; data: string; term: string }[]> {
  const jsm = await jetstreamManager(nc)
  const { state } = await jsm.streams.info(STREAM.stream)
  const out = []
  for (let seq = state.first_seq; seq <= state.last_seq; seq++) {
    const m = (await jsm.streams.getMessage(STREAM.stream, { seq }))!
    out.push({ seq, data: new TextDecoder().decode(m.data), term: m.header.get(HEADER.term) })
  }
  return out
}

test("fencing: after B takes over and writes, A's write with its stale last sequence is refused, and nothing of A's follows B's", NATS, async (t) => {
  const cluster = await startNatsCluster(t)
  const ncA = await client(t, cluster)
  const ncB = await client(t, cluster)
  await ensureStream(ncA, streamConfig(CHAIN, 3), 10_000)
  const a = await LeaderLease.open(ncA, { chainId: CHAIN, group: 'f', candidate: { id: 'a' }, timing: TIMING })
  const b = await LeaderLease.open(ncB, { chainId: CHAIN, group: 'f', candidate: { id: 'b' }, timing: TIMING })

  const termA = (await a.acquire()).term
  const pubA = new FencedPublisher(ncA, { ...STREAM, term: termA })
  let lastA = await pubA.lastSequence()
  assert.equal(lastA, 0)
  for (let i = 1; i <= 5; i++) lastA = await pubA.publish(bytes(`a${i}`), { expectedLastSequence: lastA, id: String(i), headers: { [HEADER.sequence]: String(i) } })
  assert.equal(lastA, 5)

  // A pauses (no renewals); B takes the lease once the broker expires A's record, and starts after A's writes.
  const termB = await (async () => {
    for (const end = performance.now() + TIMING.leaseMs + 2_000; performance.now() < end; await sleep(20)) {
      const got = await b.acquire().then((h) => h.term, () => undefined)
      if (got !== undefined) return got
    }
    throw new Error('B did not take the lease')
  })()
  assert.ok(termB > termA)
  const pubB = new FencedPublisher(ncB, { ...STREAM, term: termB })
  let lastB = await pubB.lastSequence()
  assert.equal(lastB, 5)
  // B's ids are the flashblock sequences A would have used next: the term in the message id keeps them apart.
  lastB = await pubB.publish(bytes('b6'), { expectedLastSequence: lastB, id: '6' })
  assert.equal(lastB, 6)

  // A resumes, unaware: its write expecting 5 is refused, with the sequence the stream is at.
  await assert.rejects(pubA.publish(bytes('a6'), { expectedLastSequence: lastA, id: '6' }), (err: unknown) => err instanceof FencedOut && err.expected === 5 && err.actual === 6)
  await assert.rejects(pubA.publish(bytes('a7'), { expectedLastSequence: lastA, id: '7' }), FencedOut)
  // And the lease tells A it is deposed: its renewal is refused.
  await assert.rejects(a.renew(), LeaseLost)

  // A retry of B's message (same id, same expectation) is stored once: it answers the same sequence.
  lastB = await pubB.publish(bytes('b7'), { expectedLastSequence: 6, id: '7' })
  assert.equal(await pubB.publish(bytes('b7'), { expectedLastSequence: 6, id: '7' }), lastB)

  const all = await stored(ncB)
  const firstOfB = all.findIndex((m) => m.term === String(termB))
  assert.deepEqual(all.slice(0, 5).map((m) => m.data), ['a1', 'a2', 'a3', 'a4', 'a5'])
  assert.equal(firstOfB, 5)
  assert.deepEqual(all.slice(firstOfB).map((m) => [m.data, m.term]), [['b6', String(termB)], ['b7', String(termB)]])
})

test('without quorum, publish, acquire and renew fail as BrokerUnavailable within their bounds; with the servers back they work', NATS, async (t) => {
  const cluster = await startNatsCluster(t)
  const nc = await client(t, cluster)
  await ensureStream(nc, streamConfig(CHAIN, 3), 10_000)
  // A longer lease here: the holder must still be valid by its own clock when the quorum is gone, however
  // slowly the machine kills the servers, so that renew reaches the broker.
  const timing = { ...TIMING, leaseMs: 4_000 }
  const lease = await LeaderLease.open(nc, { chainId: CHAIN, group: 'q', candidate: { id: 'a' }, timing })
  const standby = await LeaderLease.open(nc, { chainId: CHAIN, group: 'q2', candidate: { id: 's' }, timing })
  const { term } = await lease.acquire()
  const pub = new FencedPublisher(nc, { ...STREAM, term })
  let last = await pub.publish(bytes('1'), { expectedLastSequence: 0, id: '1' })

  await cluster.kill(1, 'SIGKILL')
  await cluster.kill(2, 'SIGKILL')
  const bound = STREAM.ackTimeoutMs + 1_000
  const timed = async (what: Promise<unknown>): Promise<number> => {
    const start = performance.now()
    await assert.rejects(what, BrokerUnavailable)
    return performance.now() - start
  }
  const renewMs = await timed(lease.renew())
  const publishMs = await timed(pub.publish(bytes('2'), { expectedLastSequence: last, id: '2' }))
  const acquireMs = await timed(standby.acquire())
  t.diagnostic(`without quorum: publish failed in ${publishMs.toFixed(0)} ms, renew ${renewMs.toFixed(0)} ms, acquire ${acquireMs.toFixed(0)} ms`)
  for (const ms of [publishMs, renewMs, acquireMs]) assert.ok(ms < bound, `${ms} ms`)

  await cluster.restart(1, 2)
  // The write that timed out may have been stored once the quorum was back: the stream says where it is.
  const recovered = await (async () => {
    for (const end = performance.now() + 30_000; performance.now() < end; await sleep(200)) {
      const at = await pub.lastSequence().catch(() => undefined)
      if (at === undefined) continue
      const got = await pub.publish(bytes('3'), { expectedLastSequence: at, id: '3' }).catch((err: unknown) => (err instanceof BrokerUnavailable || err instanceof FencedOut ? undefined : Promise.reject(err)))
      if (got !== undefined) return got
    }
    throw new Error('publishing did not recover')
  })()
  assert.ok(recovered === 2 || recovered === 3, `stored at ${recovered}`)
  last = recovered
  // The lease works again: a new term, once the old one has run out by the holder's clock (and the broker's).
  const again = await (async () => {
    for (const end = performance.now() + 15_000; performance.now() < end; await sleep(100)) {
      if (lease.isLeader()) continue
      const got = await lease.acquire().catch(() => undefined)
      if (got !== undefined) return got
    }
    throw new Error('the lease did not recover')
  })()
  assert.ok(again.term > term)
  await lease.renew()
  assert.equal(await new FencedPublisher(nc, { ...STREAM, term: again.term }).publish(bytes('4'), { expectedLastSequence: last, id: '4' }), last + 1)
})

test('a retry of a message the stream leader holds uncommitted (its followers frozen) is no acknowledgement; once they thaw it is, at its sequence', NATS, async (t) => {
  const cluster = await startNatsCluster(t)
  const nc = await client(t, cluster)
  await ensureStream(nc, streamConfig(CHAIN, 3), 10_000)
  // The publisher talks to the stream's leader itself, so its retries reach the server that staged the message.
  const leader = (await (await jetstreamManager(nc)).streams.info(STREAM.stream)).cluster?.leader
  const followers = [0, 1, 2].filter((i) => `s${i}` !== leader)
  assert.equal(followers.length, 2, `the stream's leader is one of the three (${leader})`)
  const onLeader = await connect({ servers: [cluster.urls[[0, 1, 2].find((i) => !followers.includes(i))!]!], reconnectTimeWait: 100, maxReconnectAttempts: -1 })
  t.after(() => onLeader.close())
  const publisher = new FencedPublisher(onLeader, { ...STREAM, ackTimeoutMs: 300, term: 1 })
  const first = await publisher.publish(bytes('m1'), { expectedLastSequence: 0, id: '1' })
  assert.equal(first, 1)
  // Freeze the two servers that do not lead the stream: its leader proposes, and cannot commit.
  for (const i of followers) await cluster.kill(i, 'SIGSTOP')
  const message = { expectedLastSequence: first, id: '2' }
  await assert.rejects(publisher.publish(bytes('m2'), message), BrokerUnavailable, 'the first attempt gets no answer')
  // The leader has staged the message's id: a retry must not be taken for its acknowledgement.
  for (let attempt = 0; attempt < 3; attempt++) await assert.rejects(publisher.publish(bytes('m2'), message), BrokerUnavailable, `retry ${attempt + 1}`)
  for (const i of followers) await cluster.kill(i, 'SIGCONT')
  let seq: number | undefined
  for (const end = Date.now() + 20_000; seq === undefined; ) {
    seq = await publisher.publish(bytes('m2'), message).catch((err: unknown) => {
      if (!(err instanceof BrokerUnavailable) || Date.now() > end) throw err
      return undefined
    })
  }
  assert.equal(seq, 2)
  assert.deepEqual((await stored(nc)).map((m) => m.data), ['m1', 'm2'])
})
