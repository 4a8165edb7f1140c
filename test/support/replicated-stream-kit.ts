/**
 * Test kit for the replicated stream's tests (src/stream/replicated-stream.test.ts, op-takeover.test.ts):
 * a NATS client on a test's cluster, every message the stream holds with its term, and the open block's
 * journal rebuilt from the stream's tail as a taking-over group member rebuilds it (cli/group-member.ts), and
 * the whole takeover of an unstarted node in that order.
 */

import type { TestContext } from 'node:test'
import { jetstreamManager } from '@nats-io/jetstream'
import { connect, type NatsConnection } from '@nats-io/transport-node'
import { HEADER, streamName } from '../../src/stream/jetstream-layout.ts'
import type { FlashblocksPayloadV1 } from '../../src/stream/payload.ts'
import { storedJson } from '../../src/stream/stored-payload.ts'
import { continuationOf, journalOf, readStreamTail, type StreamTail } from '../../src/stream/stream-tail.ts'
import { ReplicatedStream, type ReplicatedStreamOptions } from '../../src/stream/replicated-stream.ts'
import { FlashblockJournal } from '../../src/sequencer/journal.ts'
import type { KvStore } from '../../src/storage/db.ts'
import type { FlashNode } from '../../src/node/create-node.ts'

/** A client of the cluster's servers in the given order (no randomizing), reconnecting; closed after the test. */
export async function streamClient(t: TestContext, urls: readonly string[]): Promise<NatsConnection> {
  const nc = await connect({ servers: [...urls], noRandomize: true, reconnectTimeWait: 100, maxReconnectAttempts: -1 })
  t.after(() => nc.close())
  return nc
}

/**
 * Waits until the chain's stream has a leader and every replica is current (none offline or lagging), up to
 * `withinMs`; throws when it has not settled by then. A server restarted a moment ago may otherwise answer for
 * the stream with the state it held when it went down.
 */
export async function untilStreamSettled(nc: NatsConnection, chainId: bigint, withinMs: number): Promise<void> {
  const jsm = await jetstreamManager(nc)
  const end = performance.now() + withinMs
  let last = 'no answer'
  while (performance.now() < end) {
    try {
      const { cluster } = await jsm.streams.info(streamName(chainId))
      const replicas = cluster?.replicas ?? []
      if (cluster?.leader !== undefined && replicas.length > 0 && replicas.every((r) => r.current && r.offline !== true)) return
      last = `leader ${cluster?.leader ?? 'none'}, replicas ${JSON.stringify(replicas.map((r) => ({ name: r.name, current: r.current, offline: r.offline })))}`
    } catch (err) {
      last = String(err)
    }
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error(`the stream did not settle within ${withinMs} ms (${last})`)
}

/** Every message the chain's stream holds, in stream order, with its term and its stored encoding ('' as it is). */
export async function storedMessages(nc: NatsConnection, chainId: bigint): Promise<{ term: number; encoding: string; message: FlashblocksPayloadV1 }[]> {
  const jsm = await jetstreamManager(nc)
  const name = streamName(chainId)
  const { state } = await jsm.streams.info(name)
  const out = []
  for (let seq = state.first_seq; seq <= state.last_seq && state.messages > 0; seq++) {
    const m = (await jsm.streams.getMessage(name, { seq }))!
    out.push({ term: Number(m.header.get(HEADER.term)), encoding: m.header.get(HEADER.encoding), message: JSON.parse(new TextDecoder().decode(storedJson(m.data, m.header.get(HEADER.encoding)))) as FlashblocksPayloadV1 })
  }
  return out
}

/** Replaces the journal of block `next` with the open block of the stream's tail (its opening's deposits included). */
export function journalFromTail(kv: KvStore, tail: StreamTail, next: bigint): void {
  const journal = new FlashblockJournal(kv)
  const batch = kv.batch()
  journal.discard(batch, next)
  if (tail.open !== undefined) {
    const j = journalOf(tail.open)
    journal.writeOpen(batch, j.number, j.parentHash, j.env, j.deposits)
    j.flashblocks.forEach((raws, i) => journal.writeFlashblock(batch, j.number, i + 1, raws))
  }
  kv.commit(batch)
}

export interface Leading {
  readonly node: FlashNode
  readonly gate: ReplicatedStream
  /** What the sequencer was deposed by, in order. */
  readonly deposed: unknown[]
  /** The index of every flashblock it announced, in order. */
  readonly announced: number[]
}

/**
 * Makes an unstarted manual-sealing `node` lead term `term` as a taking-over member does: the gate opened,
 * the stream's tail read, the open block's journal rebuilt from it, the gate continued from it, then started.
 */
export async function takeOver(t: TestContext, nc: NatsConnection, node: FlashNode, term: number, options: Partial<ReplicatedStreamOptions> = {}): Promise<Leading> {
  const chainId = node.rules.chainId
  const gate = await ReplicatedStream.open(nc, { chainId, term, publisher: node.stream!, replicas: 3, ...options })
  t.after(() => gate.close())
  const tail = await readStreamTail(nc, chainId, 5_000)
  journalFromTail(node.chain.store.kv, tail, node.chain.head() + 1n)
  const continuation = continuationOf(tail)
  if (continuation !== undefined) gate.continueFrom(continuation)
  const deposed: unknown[] = []
  const announced: number[] = []
  node.sequencer!.useGate(gate)
  node.sequencer!.on('deposed', (e) => deposed.push(e))
  node.sequencer!.on('flashblock', (s) => announced.push(s.index))
  await node.start()
  return { node, gate, deposed, announced }
}
