/**
 * `flashnode start --sequencer-group NAME --stream nats://A,nats://B,nats://C`: one candidate of a sequencer
 * group (issue 40; docs/scaling.md). The group's controller (node/group/sequencer-group.ts) decides the role
 * from the lease; this module makes the node play it, on one data directory and the same endpoints:
 *
 * - standby: a follower of the group's replicated stream on the broker (the one every leader publishes to,
 *   each message acknowledged before it is announced), with catch-up and forwarded transactions going to
 *   whoever leads now (the lease record says where);
 * - leader: a sequencer that publishes through the replicated stream. A takeover first lets the follower
 *   apply every message in the stream, then rebuilds the open block's journal from the stream's tail (the
 *   opening's environment, each flashblock's transactions) and starts a sequencer on it: it re-executes that
 *   block and goes on with the next flashblock of the same block. On an OP chain its user deposits are kept
 *   in the group's replicated deposit bucket (stream/replicated-deposits.ts), not in its own store.
 * A change of role closes the node and its endpoints and opens them again in the other role (same ports):
 * WebSocket subscribers and requests in flight on this member are cut once per change. A member whose
 * brokers do not answer when it starts (a cluster restarting) stands by and keeps trying to join.
 *
 * It owns the switch between roles and nothing else: never the lease (the controller's), never the order of
 * the stream (the replicated gate's fencing).
 */

import { connect, type NatsConnection } from '@nats-io/transport-node'
import { createNode, type FlashNode, type NodeConfig } from '../node/create-node.ts'
import { SequencerGroup, type GroupRoles, type SequencerGroupOptions } from '../node/group/sequencer-group.ts'
import { SequencerClient } from '../follower/sequencer-client.ts'
import { natsServers } from '../stream/nats-url.ts'
import { continuationOf, journalOf, readStreamTail, type StreamTail } from '../stream/stream-tail.ts'
import { ReplicatedStream } from '../stream/replicated-stream.ts'
import { ReplicatedDeposits } from '../stream/replicated-deposits.ts'
import { depositTransactionHash } from '../opstack/deposit-tx.ts'
import { bytesToHex } from '../primitives/hex.ts'
import { BrokerUnavailable, type LeaseHolder } from '../stream/coordination-errors.ts'
import { LmdbStore } from '../storage/db.ts'
import { FlashblockJournal } from '../sequencer/journal.ts'
import { errorFields, type Logger } from '../primitives/logger.ts'
import { serveEndpoints, type RunningEndpoint, type SharedServeOptions } from './serve.ts'
import type { EndpointConfig } from './endpoint-config.ts'
import type { SequencerConfig } from '../node/create-node.ts'
import type { GroupState } from '../node/node-status.ts'

/** How long a member whose brokers do not answer waits before trying to join its group again. */
const JOIN_RETRY_MS = 1_000

export interface GroupMemberSettings {
  readonly group: string
  /** The cluster's servers (--stream). */
  readonly stream: string
  /** Unique within the group. */
  readonly id: string
  /** Where others reach this member's JSON-RPC (forwarded transactions, catch-up). */
  readonly rpcUrl: string
  /** Replicas of the lease bucket and of the stream when this member creates them. */
  readonly replicas: number
  /** How long a standby waits for its follower to apply the stream's newest message before taking over. */
  readonly catchUpMs: number
}

export interface GroupMember {
  /** The group's controller, once the member has joined (its brokers answered). */
  group(): SequencerGroup | undefined
  /** The node playing the current role. */
  node(): FlashNode
  endpoints(): readonly RunningEndpoint[]
  close(): Promise<void>
}

interface Playing {
  readonly node: FlashNode
  readonly servers: RunningEndpoint[]
  readonly role: 'standby' | 'leader'
}

export async function startGroupMember(
  settings: GroupMemberSettings,
  base: NodeConfig,
  sequencer: SequencerConfig,
  endpointConfigs: readonly EndpointConfig[],
  shared: SharedServeOptions,
  log: Logger,
): Promise<GroupMember> {
  const servers = natsServers(settings.stream)
  if (servers instanceof Error) throw servers
  const nc: NatsConnection = await connect({ servers, name: `flashnode ${settings.id}`, reconnect: true, maxReconnectAttempts: -1, reconnectTimeWait: 250, pingInterval: 2_000 })
  let leader: LeaseHolder | undefined
  const leaderClient = new SequencerClient(() => leader?.rpcUrl, 2_000)
  // After the first start, an endpoint on port 0 keeps the port it got, so a change of role keeps it.
  let endpoints = [...endpointConfigs]
  let group: SequencerGroup | undefined
  const groupState = (): GroupState => group?.status() ?? { group: settings.group, id: settings.id, role: 'starting', leader: undefined, lastTakeover: undefined }
  const leaderState = () => {
    const status = group?.status()
    return { leading: group?.isLeader() === true, body: status === undefined ? { role: 'starting' } : { ...status, leader: status.leader ?? null } }
  }

  // The leader publishes only through the replicated gate, never through the unacknowledged fan-out.
  const { streamBroker: _fanOut, ...withoutFanOut } = base
  const plain: NodeConfig = { ...withoutFanOut, group: groupState }
  const standbyConfig = (): NodeConfig => ({
    ...plain,
    streamBroker: settings.stream,
    follow: { sealed: leaderClient, sequencer: leaderClient },
  })
  /** The gate of the term this member leads (closed with the leader's node: it holds a connection). */
  let gate: ReplicatedStream | undefined
  /** An OP chain leader's user deposits, kept on the brokers (closed with the leader's node). */
  let deposits: ReplicatedDeposits | undefined
  /**
   * The sequencer publishes through the replicated stream, going on from its tail; on an OP chain its user
   * deposits are kept in the replicated bucket, those the chain holds already (sealed, or in the tail's open
   * block, which this leader continues) dropped.
   */
  const gated = (term: number, tail: StreamTail) => async (node: FlashNode): Promise<void> => {
    gate = await ReplicatedStream.open(nc, { chainId: node.api.chainId, term, publisher: node.stream!, replicas: settings.replicas, servers })
    const continuation = continuationOf(tail)
    if (continuation !== undefined) gate.continueFrom(continuation)
    node.sequencer!.useGate(gate)
    if (node.rules.op === undefined) return
    const continued = new Set((tail.open === undefined ? [] : journalOf(tail.open).deposits ?? []).map((d) => bytesToHex(depositTransactionHash(d))))
    const included = (hash: Uint8Array): boolean => continued.has(bytesToHex(hash)) || node.chain.store.txLocation(hash) !== undefined
    deposits = await ReplicatedDeposits.open(nc, { chainId: node.api.chainId, term, replicas: settings.replicas, included })
    node.sequencer!.useDepositKeeping(deposits)
  }

  const play = async (config: NodeConfig, role: Playing['role'], prepare?: (node: FlashNode) => Promise<void>): Promise<Playing> => {
    const node = await createNode(config)
    try {
      await prepare?.(node)
      // Fenced out or without quorum: the sequencer has stopped and dropped its journal; stand by.
      node.sequencer?.on('deposed', (err) => group?.deposed(err))
      node.sequencer?.on('error', (err) => {
        log.error(errorFields(err), 'sequencer failed: standing down')
        group?.deposed(err)
      })
      await node.start()
      const running = await serveEndpoints(node, endpoints, { ...shared, leader: leaderState })
      endpoints = endpoints.map((e, i) => ({ ...e, port: running[i]!.port }))
      return { node, servers: running, role }
    } catch (err) {
      await node.close()
      await gate?.close()
      gate = undefined
      deposits?.close()
      deposits = undefined
      throw err
    }
  }
  const stop = async (p: Playing): Promise<void> => {
    await Promise.all(p.servers.map((s) => s.close()))
    await p.node.close()
    await gate?.close()
    gate = undefined
    deposits?.close()
    deposits = undefined
  }

  let playing = await play(standbyConfig(), 'standby')
  const chainId = playing.node.api.chainId

  /** Waits (bounded) until the standby's follower has applied the stream's newest message. */
  const caughtUp = async (tail: StreamTail): Promise<void> => {
    const follower = playing.node.follower
    const target = tail.lastSequence
    if (follower === undefined || target === undefined) return
    const deadline = performance.now() + settings.catchUpMs
    while ((follower.sequence ?? 0) < target) {
      if (performance.now() > deadline) throw new Error(`the follower applied message ${follower.sequence} of ${target} within ${settings.catchUpMs} ms: not taking over behind the stream`)
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
  }

  const roles: GroupRoles = {
    async lead(term) {
      const tail = await readStreamTail(nc, chainId)
      await caughtUp(tail)
      const head = playing.node.chain.head()
      await stop(playing)
      try {
        await rewriteJournal(base.dataDir, head, tail)
        playing = await play({ ...plain, sequencer }, 'leader', gated(term, tail))
      } catch (err) {
        // The takeover failed with the standby already closed: stand by again before the lease goes back.
        playing = await play(standbyConfig(), 'standby')
        throw err
      }
    },
    async follow(holder) {
      leader = holder
      if (playing.role === 'standby') return
      await stop(playing)
      playing = await play(standbyConfig(), 'standby')
    },
  }
  const options: SequencerGroupOptions = { chainId, group: settings.group, candidate: { id: settings.id, rpcUrl: settings.rpcUrl }, replicas: settings.replicas, log }

  // The group's brokers may not answer yet (a cluster restarting elects its Raft leaders first): this member
  // then stands by, serving what it has, and keeps trying in the background. Anything else (a wrong setting)
  // fails the start.
  let closed = false
  let joining: Promise<void> = Promise.resolve()
  const waitAndJoin = async (): Promise<void> => {
    while (!closed) {
      await new Promise((resolve) => setTimeout(resolve, JOIN_RETRY_MS))
      if (closed) return
      try {
        const joined = await SequencerGroup.start(nc, options, roles)
        if (closed) await joined.close()
        else group = joined
        return
      } catch (err) {
        if (!(err instanceof BrokerUnavailable)) return log.error(errorFields(err), 'this member cannot join its sequencer group')
        log.warn(errorFields(err), "the group's brokers still do not answer: standing by, trying again")
      }
    }
  }
  try {
    group = await SequencerGroup.start(nc, options, roles)
  } catch (err) {
    if (!(err instanceof BrokerUnavailable)) {
      await stop(playing)
      await nc.close()
      throw err
    }
    log.warn(errorFields(err), "the group's brokers do not answer: standing by, trying again")
    joining = waitAndJoin()
  }

  return {
    group: () => group,
    node: () => playing.node,
    endpoints: () => playing.servers,
    async close() {
      closed = true
      await joining
      await group?.close()
      await stop(playing)
      await nc.close()
    },
  }
}

/**
 * This member's journal of the block after `head` becomes the stream's: whatever it held (a flashblock this
 * member journaled as an earlier leader and never got acknowledged) goes, and the open block of the stream's
 * tail, if any, is written in its place, so that its sequencer resumes exactly what the group pre-confirmed.
 */
async function rewriteJournal(dataDir: string, head: bigint, tail: StreamTail): Promise<void> {
  const block = tail.open === undefined ? undefined : journalOf(tail.open)
  if (tail.sealed !== undefined && tail.sealed !== head) {
    throw new Error(`the stream's newest block is ${tail.sealed}, but this member's head is ${head}: not taking over out of step`)
  }
  if (block !== undefined && block.number !== head + 1n) {
    throw new Error(`the stream's open block is ${block.number}, but this member's head is ${head}: not taking over out of step`)
  }
  const kv = new LmdbStore(dataDir)
  try {
    const journal = new FlashblockJournal(kv)
    const batch = kv.batch()
    journal.discard(batch, head + 1n)
    if (block !== undefined) {
      journal.writeOpen(batch, block.number, block.parentHash, block.env, block.deposits)
      block.flashblocks.forEach((raws, i) => journal.writeFlashblock(batch, block.number, i + 1, raws))
    }
    kv.commit(batch)
  } finally {
    await kv.close()
  }
}
