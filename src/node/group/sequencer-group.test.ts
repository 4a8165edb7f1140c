/**
 * The group controller against a real broker (one nats-server, the bucket with one replica): it tells each
 * candidate's roles what to play. One leads at a time; the others follow it by name; a leader that closes
 * gives the lease back and a standby leads at once (no expiry wait); a deposed leader gives it back too and
 * stands by; a takeover that fails gives it back. Roles are recorded, not simulated: the controller is the
 * thing under test. A member is the leader only once its takeover is done (taking-over until then).
 */

import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { connect, type NatsConnection } from '@nats-io/transport-node'
import { startNatsServer } from '../../../test/support/nats-server.ts'
import { needsTool } from '../../../test/support/debian-tool.ts'
import { SequencerGroup, type GroupRoles } from './sequencer-group.ts'
import type { LeaseHolder } from '../../stream/coordination-errors.ts'

interface Recorded {
  readonly events: string[]
  readonly roles: GroupRoles
}

function recorder(failLead = false): Recorded {
  const events: string[] = []
  return {
    events,
    roles: {
      async lead(term) {
        events.push(`lead ${term}`)
        if (failLead) throw new Error('takeover failed')
      },
      async follow(holder: LeaseHolder | undefined) {
        events.push(`follow ${holder?.id ?? 'nobody'}`)
      },
    },
  }
}

async function connection(t: TestContext, url: string): Promise<NatsConnection> {
  const nc = await connect({ servers: url.replace('nats://', '') })
  t.after(() => nc.close())
  return nc
}

async function until(what: string, check: () => boolean, withinMs = 5_000): Promise<void> {
  const deadline = performance.now() + withinMs
  while (!check()) {
    assert.ok(performance.now() < deadline, `${what} within ${withinMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

const options = (id: string) => ({ chainId: 7n, group: 'unit', candidate: { id, rpcUrl: `http://${id}` }, replicas: 1, timing: { leaseMs: 2_000, renewMs: 200, marginMs: 300, pollMs: 50 } })

/** Candidate a, started first, leads; b, started next, follows a. */
async function aLeadsThenB(t: TestContext, url: string): Promise<{ a: Recorded; b: Recorded; ga: SequencerGroup; gb: SequencerGroup }> {
  const a = recorder()
  const b = recorder()
  const ga = await SequencerGroup.start(await connection(t, url), options('a'), a.roles)
  t.after(() => ga.close())
  await until('a leads', () => ga.isLeader())
  const gb = await SequencerGroup.start(await connection(t, url), options('b'), b.roles)
  t.after(() => gb.close())
  await until('b follows a', () => b.events.includes('follow a'))
  return { a, b, ga, gb }
}

const NATS = needsTool('nats-server', 'nats-server')

test('one candidate leads, the other follows it by name; a leader that closes hands over without waiting for expiry', NATS, async (t) => {
  const broker = await startNatsServer(t)
  const { a, b, ga, gb } = await aLeadsThenB(t, broker.url)
  assert.equal(gb.isLeader(), false)
  assert.equal(gb.status().leader?.id, 'a')
  const termA = ga.status().leader!.term
  assert.deepEqual(a.events, [`lead ${termA}`])

  const closed = performance.now()
  await ga.close()
  await until('b leads after a closed', () => gb.isLeader())
  // The lease is 2 s: a hand-over well inside it was a release, not an expiry.
  assert.ok(performance.now() - closed < 1_500, `hand-over took ${Math.round(performance.now() - closed)} ms`)
  const termB = gb.status().leader!.term
  assert.ok(termB > termA, 'the new term is newer')
  await until('b took over', () => b.events.includes(`lead ${termB}`))
  assert.equal(gb.status().lastTakeover?.term, termB)
})

test('a deposed leader stands by and gives the lease back; a failed takeover gives it back too', NATS, async (t) => {
  const broker = await startNatsServer(t)
  const failing = recorder(true)
  const gf = await SequencerGroup.start(await connection(t, broker.url), options('f'), failing.roles)
  t.after(() => gf.close())
  await until('f tried to lead', () => failing.events.some((e) => e.startsWith('lead')))
  await until('f stood by after its takeover failed', () => failing.events.includes('follow nobody'))
  await gf.close()

  const { a, ga, gb } = await aLeadsThenB(t, broker.url)
  ga.deposed(new Error('fenced out'))
  assert.equal(ga.isLeader(), false, 'deposed: no longer leads, at once')
  await until('someone leads again', () => ga.isLeader() || gb.isLeader(), 1_500)
  await until('a stood by', () => a.events.includes('follow nobody'))
})

test('a member is the leader (GET /leader) only once its takeover is done; meanwhile its status says taking-over', NATS, async (t) => {
  const broker = await startNatsServer(t)
  let finish: (() => void) | undefined
  const leading: number[] = []
  const roles: GroupRoles = {
    lead: (term) => {
      leading.push(term)
      return new Promise<void>((resolve) => (finish = resolve))
    },
    follow: async () => undefined,
  }
  const g = await SequencerGroup.start(await connection(t, broker.url), options('a'), roles)
  t.after(() => g.close())
  await until('the takeover started', () => leading.length === 1)
  assert.equal(g.isLeader(), false, 'not the leader while taking over')
  assert.equal(g.status().role, 'taking-over')
  assert.equal(g.status().leader?.id, 'a', 'the lease is held')
  finish!()
  await until('leads once the takeover is done', () => g.isLeader())
  assert.equal(g.status().role, 'leader')
})
