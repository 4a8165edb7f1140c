/**
 * Sequencer failover (issue 40), as an operator would run it: three candidates (real node processes,
 * `flashnode start --sequencer-group`) on a three-server JetStream cluster (real nats-server processes), a
 * steady load of transfers and contract calls (a counter each call writes) sent with
 * eth_sendRawTransactionSync through haproxy (its writes backend checks GET /leader, so it routes to whoever
 * leads), one sender's transactions sent to each member in turn (a standby forwards them to the leader) and
 * to a plain follower of the group (`--follow` the balancer, `--stream` the cluster), and a seeded schedule
 * of faults: the leader killed (kill -9) at a random moment, the leader frozen (SIGSTOP) past its lease and then
 * thawed (the zombie must be fenced: it stands down and nothing it built after its lease is kept), one broker
 * killed and restarted, two brokers killed (no quorum: nothing is pre-confirmed, reads go on) and restarted,
 * everything killed (members and brokers) and restarted.
 *
 * After the schedule, an independent check: every pre-confirmation any client saw (sync receipts,
 * newFlashblockTransactions on every member and the follower) is in every survivor's sealed chain at the same block and index
 * with the same status and gas; every survivor's chain is identical; the replicated stream never holds two
 * different flashblocks for one (block, index). It prints faults, pre-confirmations checked, lost, divergent
 * and the takeover times (from the fault to the first flashblock the next leader publishes, heard on the
 * broker), p50 and p99.
 *
 * CI runs a short schedule. A longer one, seeded (FLASHNODE_GROUP_SEED) and shuffled: FLASHNODE_GROUP_KILLS=N,
 * FLASHNODE_GROUP_PAUSES=N, FLASHNODE_GROUP_BROKER_FAULTS=N, FLASHNODE_GROUP_RESTARTS=N; a named one: FLASHNODE_GROUP_SCHEDULE=kill-leader,…
 * (`npm run test:group -- …` is the same file).
 */

import { test } from 'node:test'
import { appendFileSync, writeFileSync } from 'node:fs'
import assert from 'node:assert/strict'
import { startNatsCluster } from '../support/nats-cluster.ts'
import { Rng } from '../support/rng.ts'
import { needsTool } from '../support/debian-tool.ts'
import { startHaproxy } from '../support/haproxy.ts'
import { call, GroupLoad, leaderOf, leaderStatus, PreconfirmationWatch, restartMember, startFollower, startMember, TermObserver, verify, type Member } from '../support/sequencer-group.ts'

type Fault = 'kill-leader' | 'pause-leader' | 'kill-broker' | 'no-quorum' | 'restart-all'

/** The short schedule CI runs: each fault at least once, the leader's death twice. */
const CI_SCHEDULE: readonly Fault[] = ['kill-leader', 'pause-leader', 'kill-broker', 'kill-leader', 'no-quorum', 'restart-all']
/**
 * The longest pause of pre-confirmations one broker's death may cause: a Raft election (≤ 9 s), the leader's
 * attempts until it gives up (1.5 s), the lease handed over and a takeover (~1–2 s), on two cores shared with
 * another test file in CI (16.3 s once there, against a 15 s bound; 0.2–9.2 s in every other run).
 */
const BROKER_PAUSE_BOUND_MS = 20_000
/** How long a frozen leader stays frozen: past its lease (1 s) and a standby's takeover. */
const PAUSE_MS = 2_500

function schedule(rng: Rng): readonly Fault[] {
  const named = process.env['FLASHNODE_GROUP_SCHEDULE']
  if (named !== undefined) return named.split(',') as Fault[]
  const count = (name: string) => Number(process.env[name] ?? 0)
  const kills = count('FLASHNODE_GROUP_KILLS')
  const pauses = count('FLASHNODE_GROUP_PAUSES')
  const brokers = count('FLASHNODE_GROUP_BROKER_FAULTS')
  const restarts = count('FLASHNODE_GROUP_RESTARTS')
  if (kills + pauses + brokers + restarts === 0) return CI_SCHEDULE
  const faults: Fault[] = [
    ...Array.from({ length: kills }, () => 'kill-leader' as const),
    ...Array.from({ length: pauses }, () => 'pause-leader' as const),
    ...Array.from({ length: brokers }, () => rng.pick(['kill-broker', 'no-quorum'] as const)),
    ...Array.from({ length: restarts }, () => 'restart-all' as const),
  ]
  // A seeded shuffle (Fisher-Yates), so a long run's order is reproducible from its seed.
  for (let i = faults.length - 1; i > 0; i--) {
    const j = rng.int(i + 1)
    ;[faults[i], faults[j]] = [faults[j]!, faults[i]!]
  }
  return faults
}

const quantile = (xs: readonly number[], q: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? NaN
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const SEED = Number(process.env['FLASHNODE_GROUP_SEED'] ?? (Math.random() * 2 ** 32) >>> 0)
const FAULTS = schedule(new Rng(SEED))

// Bounded by the schedule: a minute to start and check, and a generous 15 s per fault.
test('a sequencer group loses no pre-confirmation and never forks a flashblock across leader deaths, frozen leaders and broker losses', { skip: needsTool('nats-server', 'nats-server').skip || needsTool('haproxy', 'haproxy').skip, timeout: 60_000 + 15_000 * FAULTS.length }, async (t) => {
  const seed = SEED
  const rng = new Rng(seed + 1)
  const faults = FAULTS
  const cluster = await startNatsCluster(t)
  const members: Member[] = []
  for (let i = 0; i < 3; i++) members.push(await startMember(t, cluster.urls.join(',')))
  const first = await leaderOf(members)
  // The group as /readyz and the metrics tell it: who leads, its term.
  for (const m of members) {
    const ready = (await (await fetch(`${m.url}/readyz`)).json()) as { group: { role: string; leader: { id: string; term: number } | null } }
    const leads = m === first
    assert.equal(ready.group.role, leads ? 'leader' : 'standby')
    const metrics = await (await fetch(`${m.url}/metrics`)).text()
    assert.match(metrics, new RegExp(`^flashnode_group_leader ${leads ? 1 : 0}$`, 'm'))
    if (ready.group.leader !== null) assert.match(metrics, new RegExp(`^flashnode_group_term ${ready.group.leader.term}$`, 'm'))
    // The live view's document shows the same group.
    const status = (await (await fetch(`${m.url}/status`)).json()) as { group: { role: string; leader: { id: string; term: number } | null } | null }
    assert.equal(status.group?.role, ready.group.role)
    assert.deepEqual(status.group?.leader && { id: status.group.leader.id, term: status.group.leader.term }, ready.group.leader && { id: ready.group.leader.id, term: ready.group.leader.term })
  }
  // FLASHNODE_GROUP_DUMP=DIR: each member's log is written there at the end (for reading a failure).
  const dump = process.env['FLASHNODE_GROUP_DUMP']
  if (dump !== undefined) t.after(() => members.forEach((m, i) => writeFileSync(`${dump}/member-${i}.log`, m.process.stderr())))
  const watch = new PreconfirmationWatch()
  t.after(() => watch.stop())
  for (const m of members) watch.watch(m)
  const terms = await TermObserver.start(cluster.urls)
  t.after(() => terms.stop())
  // Writes go through haproxy, which sends them to whoever answers GET /leader 200.
  const lb = await startHaproxy(t, { name: 'writes', check: '/leader', servers: Object.fromEntries(members.map((m, i) => [`m${i}`, Number(new URL(m.url).port)])), fall: 1, rise: 1 })
  // A plain follower of the group, its upstream the balancer; it is checked with the members.
  const follower = await startFollower(t, lb.url, cluster.urls.join(','))
  watch.watch(follower)
  // One sender's transactions go to each member in turn (a standby forwards them) and to the follower.
  const load = new GroupLoad(members, lb.url, [...members, follower])
  load.start()
  // Stopped however the test ends: a failed assertion must not leave its senders running (the file would
  // never exit).
  t.after(() => load.stop())
  const takeovers: number[] = []
  /** Per broker fault: the longest time without a pre-confirmation from the kill until they flow again. */
  const brokerPauses: number[] = []
  /** Per restart of everything: from the kills to the first pre-confirmation after it. */
  const restarts: number[] = []
  const done: string[] = []

  for (const fault of faults) {
    // Every fault lands at a random moment of a block: anywhere within two block times of load.
    await sleep(500 + rng.int(4_000))
    const leader = await leaderOf(members)
    const at = performance.now()
    if (fault === 'kill-leader') {
      await leader.process.kill9()
      takeovers.push((await terms.nextTermAfter(at)) - at)
      await load.firstReceiptAfter(at, leader)
      await restartMember(t, leader)
      watch.watch(leader)
    } else if (fault === 'pause-leader') {
      leader.process.child.kill('SIGSTOP')
      const next = await leaderOf(members, leader)
      takeovers.push((await terms.nextTermAfter(at)) - at)
      await load.firstReceiptAfter(at, leader)
      await sleep(Math.max(0, PAUSE_MS - (performance.now() - at)))
      leader.process.child.kill('SIGCONT')
      // Thawed, the zombie must not lead: its lease ran out by its own clock and its writes are fenced.
      await sleep(1_500)
      assert.equal(await leaderStatus(leader.url), 503, 'the thawed leader stood down')
      assert.equal(await leaderStatus(next.url), 200, 'the new leader still leads')
    } else if (fault === 'kill-broker') {
      const broker = rng.int(3)
      await cluster.kill(broker)
      await sleep(1_000)
      await cluster.restart(broker)
      await load.firstReceiptAfter(performance.now(), undefined)
      brokerPauses.push(load.longestGap(at, performance.now()))
      // A server that held the stream's Raft leadership leaves it leaderless until its followers' election
      // timeout (nats-server: 4-9 s), then a takeover follows: bounded, though not short.
      assert.ok(brokerPauses.at(-1)! < BROKER_PAUSE_BOUND_MS, `pre-confirmations paused ${Math.round(brokerPauses.at(-1)!)} ms after one broker was killed`)
    } else if (fault === 'restart-all') {
      // Everything at once: every member and every broker killed (kill -9), then the brokers started on
      // their stores and the members on their data directories; the plain follower stays and follows.
      await Promise.all(members.map((m) => m.process.kill9()))
      for (let i = 0; i < 3; i++) await cluster.kill(i)
      await cluster.restart(0, 1, 2)
      for (const m of members) {
        await restartMember(t, m)
        watch.watch(m)
      }
      restarts.push((await load.firstReceiptAfter(performance.now(), undefined, 30_000)) - at)
    } else {
      const [a, b] = rng.chance(0.5) ? [0, 1] : [1, 2]
      const receiptsBefore = load.receipts.length
      await cluster.kill(a!)
      await cluster.kill(b!)
      // Without quorum nothing is pre-confirmed for long: the leader's gate refuses within its bound (2 s),
      // so the receipts stop (a quiet second), well within 8 s.
      const quietBy = performance.now() + 8_000
      for (let count = -1; count !== load.receipts.length; ) {
        assert.ok(performance.now() < quietBy, `pre-confirmations went on without a quorum (${load.receipts.length - receiptsBefore} since)`)
        count = load.receipts.length
        await sleep(1_000)
      }
      await cluster.restart(a!, b!)
      const back = performance.now()
      await load.firstReceiptAfter(back, undefined, 30_000)
    }
    done.push(fault)
    const took = fault === 'kill-leader' || fault === 'pause-leader' ? ` takeover ${Math.round(takeovers.at(-1)!)} ms` : fault === 'kill-broker' ? ` pause ${Math.round(brokerPauses.at(-1)!)} ms` : fault === 'restart-all' ? ` again after ${Math.round(restarts.at(-1)!)} ms` : ''
    if (dump !== undefined) appendFileSync(`${dump}/progress.log`, `${done.length}/${faults.length} ${fault}${took}\n`)
  }
  await sleep(1_000)
  await load.stop()
  watch.stop()
  const verdict = await verify([...members, follower], [...load.seen, ...watch.seen], cluster.urls)
  console.log(
    `group chaos (seed ${seed}): faults ${done.join(', ')}; pre-confirmations checked ${verdict.checked}, lost ${verdict.lost}, divergent ${verdict.divergent}, ` +
      `forked flashblocks ${verdict.forkedFlashblocks}, blocks ${verdict.highest}, contract calls ${load.contractCalls}, sent through a standby or the follower ${load.relayed}; takeover p50 ${Math.round(quantile(takeovers, 0.5))} ms, p99 ${Math.round(quantile(takeovers, 0.99))} ms (${takeovers.length} takeovers); ` +
      (restarts.length === 0 ? '' : `everything restarted: pre-confirming again after ${restarts.map((ms) => `${Math.round(ms)} ms`).join(', ')}; `) +
      (brokerPauses.length === 0 ? '' : `one broker killed: longest pause of pre-confirmations p50 ${Math.round(quantile(brokerPauses, 0.5))} ms, max ${Math.round(Math.max(...brokerPauses))} ms (${brokerPauses.length}); `) +
      `sends refused ${load.failures}`,
  )
  assert.ok(verdict.checked > 50, `the load was pre-confirmed (${verdict.checked})`)
  assert.ok(load.contractCalls > 10, `the load called its contract (${load.contractCalls})`)
  assert.ok(load.relayed > 10, `sends through standbys and the follower were pre-confirmed (${load.relayed})`)
  assert.equal(verdict.lost, 0, 'lost pre-confirmations')
  assert.equal(verdict.divergent, 0, 'divergent pre-confirmations')
  assert.equal(verdict.forkedFlashblocks, 0, 'two flashblocks for one (block, index)')
})

test('a member whose brokers have no quorum at its start stands by, serving, and leads once they are back', { skip: needsTool('nats-server', 'nats-server').skip, timeout: 120_000 }, async (t) => {
  const cluster = await startNatsCluster(t)
  await cluster.kill(1)
  await cluster.kill(2)
  const member = await startMember(t, cluster.urls.join(','))
  assert.equal(await leaderStatus(member.url), 503, 'it does not lead without its brokers')
  const ready = (await (await fetch(`${member.url}/readyz`)).json()) as { group: { role: string } }
  assert.equal(ready.group.role, 'starting')
  assert.match(await call<string>(member.url, 'eth_blockNumber'), /^0x/, 'it serves reads meanwhile')
  await cluster.restart(1, 2)
  // The cluster elects its Raft leaders (seconds each), then the member joins, takes the lease and leads.
  assert.equal(await leaderOf([member], undefined, 60_000), member)
})
