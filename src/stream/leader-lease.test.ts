/**
 * The sequencer lease against a real three-server JetStream cluster (test/support/nats-cluster.ts; skipped,
 * saying so, without nats-server): one candidate holds it, a second cannot take it until the first stops
 * renewing and the broker expires the record (also with a broker down that the quorum does not need), then
 * takes it with a higher term; renewals after the expiry are refused; a candidate whose own clock says its
 * validity ran out is deposed without asking the broker; a release hands over at once; watchers see each
 * holder and the expiry. Leases are short (under a second) so every wait on the broker's clock stays short.
 */

import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { jetstreamManager } from '@nats-io/jetstream'
import { connect, type NatsConnection } from '@nats-io/transport-node'
import { needsTool } from '../../test/support/debian-tool.ts'
import { startNatsCluster, type NatsCluster } from '../../test/support/nats-cluster.ts'
import { BrokerUnavailable, LeaseHeld, LeaseLost } from './coordination-errors.ts'
import { LeaderLease, type LeaseHolder, type LeaseTiming } from './leader-lease.ts'

const NATS = { ...needsTool('nats-server', 'nats-server'), timeout: 60_000 }
const TIMING: LeaseTiming = { leaseMs: 800, renewMs: 200, marginMs: 150, pollMs: 50, opTimeoutMs: 250 }
const CHAIN = 901n

async function client(t: TestContext, cluster: NatsCluster): Promise<NatsConnection> {
  const nc = await connect({ servers: [...cluster.urls], reconnectTimeWait: 100, maxReconnectAttempts: -1 })
  t.after(() => nc.close())
  return nc
}

/** A candidate on its own connection. */
async function candidate(t: TestContext, cluster: NatsCluster, id: string, group: string, now?: () => number): Promise<LeaderLease> {
  return LeaderLease.open(await client(t, cluster), { chainId: CHAIN, group, candidate: { id, rpcUrl: `http://${id}.test:8545`, wsUrl: `ws://${id}.test:8546` }, timing: TIMING, ...(now === undefined ? {} : { now }) })
}

/** A clock a test moves by hand. */
function manualClock(): { now: () => number; advance(ms: number): void } {
  let at = 1_000
  return { now: () => at, advance: (ms) => void (at += ms) }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

async function until<T>(what: string, limitMs: number, check: () => Promise<T | undefined>): Promise<T> {
  const end = performance.now() + limitMs
  for (;;) {
    const got = await check()
    if (got !== undefined) return got
    if (performance.now() > end) throw new Error(`timed out (${limitMs} ms) waiting for ${what}`)
    await sleep(10)
  }
}

test('one candidate holds the lease; a second takes it after the first stops renewing, with a broker down, and a higher term', NATS, async (t) => {
  const cluster = await startNatsCluster(t)
  const a = await candidate(t, cluster, 'a', 'g1')
  const b = await candidate(t, cluster, 'b', 'g1')
  // b stands by as a standby would: it takes the lease when its watch says nobody holds it (once armed).
  const seen: (LeaseHolder | undefined)[] = []
  let armed = false
  let resolveTakeover: (h: LeaseHolder) => void = () => undefined
  const takeover = new Promise<LeaseHolder>((resolve) => (resolveTakeover = resolve))
  const watch = await b.watch((h) => {
    seen.push(h)
    if (armed && h === undefined) void b.acquire().then(resolveTakeover, () => undefined)
  })
  t.after(() => watch.stop())
  await until("the watch's first report", 1_000, async () => (seen.length > 0 ? true : undefined))

  const first = await a.acquire()
  assert.deepEqual(first, { id: 'a', rpcUrl: 'http://a.test:8545', wsUrl: 'ws://a.test:8546', term: first.term })
  assert.equal(a.term, first.term)
  await assert.rejects(b.acquire(), (err: unknown) => err instanceof LeaseHeld && err.holder?.id === 'a' && err.holder.term === first.term)
  for (let i = 0; i < 3; i++) {
    await sleep(TIMING.renewMs)
    await a.renew()
  }
  // Renewals keep the term; the record names its holder for followers and forwarding.
  assert.deepEqual(await b.current(), first)
  await assert.rejects(b.acquire(), LeaseHeld)

  // A broker the quorum does not need goes down (not the bucket's stream leader: its loss costs an election).
  const nc = await client(t, cluster)
  const info = await (await jetstreamManager(nc)).streams.info(`KV_${a.bucket}`)
  const down = [0, 1, 2].find((i) => `s${i}` !== info.cluster?.leader)!
  await cluster.kill(down, 'SIGKILL')

  // A request in flight when the client's own server dies is lost (it ends by timeout); the next one goes through.
  let renewedAt = 0
  await until('a renewal through the remaining brokers', TIMING.leaseMs, async () => {
    renewedAt = performance.now()
    return a.renew().then(() => true, (err: unknown) => (err instanceof BrokerUnavailable ? undefined : Promise.reject(err)))
  })
  // a stops renewing (it died, or it paused); b's watch sees the broker's expiry, and b takes over.
  armed = true
  const second = await Promise.race([takeover, sleep(TIMING.leaseMs + 1_500).then(() => Promise.reject(new Error('b did not take over')))])
  const tookMs = performance.now() - renewedAt
  t.diagnostic(`takeover ${tookMs.toFixed(0)} ms after the last renewal was sent (lease ${TIMING.leaseMs} ms)`)
  assert.ok(tookMs >= TIMING.leaseMs - 20, `the broker kept the record its lease (${tookMs} ms)`)
  assert.ok(tookMs <= TIMING.leaseMs + 2 * TIMING.pollMs + 300, `b took over ${tookMs} ms after a's last renewal`)
  assert.equal(second.id, 'b')
  assert.ok(second.term > first.term, `term ${second.term} after ${first.term}`)
  assert.equal(a.isLeader(), false)
  await assert.rejects(a.renew(), (err: unknown) => err instanceof LeaseLost && err.reason === 'expired-locally' && err.term === first.term)

  // The watcher saw a, then nobody (the expiry, which the broker does not announce), then b.
  await until('the watcher to see b', 1_000, async () => (seen.at(-1)?.id === 'b' ? true : undefined))
  assert.deepEqual(seen.map((h) => h?.id), [undefined, 'a', undefined, 'b'])
  assert.deepEqual(seen.at(-1), second)
})

test('a renewal after the broker expired the record is refused; a paused holder is deposed by its own clock', NATS, async (t) => {
  const cluster = await startNatsCluster(t)
  // A clock that does not move: the holder believes it is valid; only the broker can tell it otherwise.
  const frozen = manualClock()
  const a = await candidate(t, cluster, 'a', 'g2', frozen.now)
  const { term } = await a.acquire()
  await until('the broker to expire the record', TIMING.leaseMs + 1_000, async () => ((await a.current()) === undefined ? true : undefined))
  assert.equal(a.isLeader(), true)
  await assert.rejects(a.renew(), (err: unknown) => err instanceof LeaseLost && err.reason === 'refused' && err.term === term)
  assert.equal(a.isLeader(), false)

  // A holder paused past its local validity: deposed by its clock, though the broker still has its record.
  const clock = manualClock()
  const p = await candidate(t, cluster, 'p', 'g2', clock.now)
  const b = await candidate(t, cluster, 'b', 'g2')
  const held = await p.acquire()
  assert.ok(held.term > term)
  clock.advance(TIMING.leaseMs - TIMING.marginMs - 1)
  assert.equal(p.isLeader(), true)
  assert.equal(p.validForMs(), 1)
  clock.advance(1)
  assert.equal(p.isLeader(), false)
  assert.equal(p.term, undefined)
  await assert.rejects(p.renew(), (err: unknown) => err instanceof LeaseLost && err.reason === 'expired-locally')
  assert.equal((await b.current())?.id, 'p', "the broker's record outlives the holder's belief")
  await assert.rejects(b.acquire(), LeaseHeld)
})

test('a release hands over at once; a holder that keeps renewing keeps the lease; release of a lost lease is harmless', NATS, async (t) => {
  const cluster = await startNatsCluster(t)
  const a = await candidate(t, cluster, 'a', 'g3')
  const b = await candidate(t, cluster, 'b', 'g3')
  const first = await a.acquire()
  const lost: LeaseLost[] = []
  const stop = a.keepRenewing((err) => lost.push(err))
  await sleep(TIMING.leaseMs * 3)
  assert.equal(a.isLeader(), true)
  assert.deepEqual(lost, [])
  await assert.rejects(b.acquire(), LeaseHeld)
  stop()

  const releasedAt = performance.now()
  await a.release()
  assert.equal(a.isLeader(), false)
  const second = await b.acquire()
  assert.ok(performance.now() - releasedAt < TIMING.leaseMs / 2, 'no wait for the expiry')
  assert.ok(second.term > first.term)
  await a.release()
  await assert.rejects(a.renew(), (err: unknown) => err instanceof LeaseLost && err.reason === 'not-held')

  // keepRenewing on a lease taken away (the record deleted behind the holder's back) reports the loss once.
  const c = await candidate(t, cluster, 'c', 'g3')
  await b.release()
  await c.acquire()
  const lostC: LeaseLost[] = []
  c.keepRenewing((err) => lostC.push(err))
  const nc = await client(t, cluster)
  const { Kvm } = await import('@nats-io/kv')
  await (await new Kvm(nc).open(c.bucket)).purge('leader')
  await until('c to notice', TIMING.leaseMs * 2, async () => (lostC.length > 0 ? true : undefined))
  assert.equal(lostC.length, 1)
  assert.equal(lostC[0]!.reason, 'refused')
})

test('the bucket refuses a candidate whose lease duration differs from the group', NATS, async (t) => {
  const cluster = await startNatsCluster(t)
  await candidate(t, cluster, 'a', 'g4')
  const nc = await client(t, cluster)
  await assert.rejects(LeaderLease.open(nc, { chainId: CHAIN, group: 'g4', candidate: { id: 'x' }, timing: { ...TIMING, leaseMs: 2_000 } }), /one lease duration/)
  await assert.rejects(LeaderLease.open(nc, { chainId: CHAIN, group: 'no spaces', candidate: { id: 'x' } }), RangeError)
})
