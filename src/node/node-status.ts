/**
 * The document of `GET /status` (and the live view's poll): a read-only snapshot of the node as an
 * operator sees it, in plain JSON values (numbers, 0x-hex strings), built when asked from what the node
 * already holds: the chain head, the open block (the feed's newest snapshot), the pool's levels, the
 * stream's subscribers and the live recorder's recent flashblocks, seals and latencies (live-status.ts).
 * Pieces a node does not have are null (a read-only node has no open block, no pool, no stream); the
 * document for an endpoint without pre-confirmations leaves out what is pre-confirmed (the open block, the
 * flashblocks, the latencies), as that endpoint's methods do. A member of a sequencer group also shows the
 * group as its controller sees it (its role, who leads in which term, its last takeover).
 */

import { bytesToHex } from '../primitives/hex.ts'
import type { PreconfirmedFeed } from '../preconf/feed.ts'
import type { ChainReader } from './chain-reader.ts'
import type { LiveStatus, LiveStatusView } from './live-status.ts'

/** A sequencer group's state as its controller tells it (node/group/sequencer-group.ts `status()`). */
export interface GroupState {
  readonly group: string
  readonly id: string
  readonly role: string
  readonly leader: { readonly id: string; readonly term: number; readonly rpcUrl?: string } | undefined
  /** `at`: wall-clock ms; `ms`: from the lease acquired to sequencing. */
  readonly lastTakeover: { readonly term: number; readonly at: number; readonly ms: number } | undefined
}

export interface StatusSources {
  readonly chainId: bigint
  readonly clientVersion: string
  readonly chain: ChainReader
  readonly sequencer?: { readonly mode: 'auto' | 'manual'; readonly flashblockIntervalMs: number; readonly flashblocksPerBlock: number }
  readonly feed?: PreconfirmedFeed
  readonly pool?: { stats(): { pending: number; queued: number }; readonly capacity: { pending: number; queued: number } }
  readonly stream?: { subscriberCount(): number }
  readonly live?: LiveStatus
  /** Node clock, ms. */
  readonly now: () => number
  /** False: the document of an endpoint that serves sealed state only. */
  readonly preconfirmations: boolean
  /** Present on a member of a sequencer group. */
  readonly group?: () => GroupState
}

export interface NodeStatus {
  readonly node: {
    readonly chainId: number
    readonly client: string
    readonly sealing: 'auto' | 'manual' | null
    readonly flashblockIntervalMs: number | null
    readonly flashblocksPerBlock: number | null
  }
  readonly time: number
  readonly head: { readonly number: number; readonly hash: string; readonly timestamp: number; readonly gasUsed: number; readonly gasLimit: number }
  readonly open: { readonly number: number; readonly flashblocks: number; readonly transactions: number; readonly gasUsed: number; readonly gasLimit: number } | null
  readonly pool: { readonly pending: number; readonly queued: number; readonly capacity: { readonly pending: number; readonly queued: number } } | null
  readonly stream: { readonly subscribers: number } | null
  readonly flashblocks: LiveStatusView['flashblocks']
  readonly sealed: LiveStatusView['sealed']
  readonly latency: LiveStatusView['latency'] | null
  readonly group: {
    readonly name: string
    readonly id: string
    readonly role: string
    readonly leader: { readonly id: string; readonly term: number; readonly rpcUrl: string | null } | null
    readonly lastTakeover: { readonly term: number; readonly at: number; readonly ms: number } | null
  } | null
}

export function nodeStatus(s: StatusSources): NodeStatus {
  const head = s.chain.header(s.chain.head())!
  const open = s.preconfirmations ? s.feed?.snapshot() : undefined
  const live = s.live?.status()
  const pool = s.pool?.stats()
  const group = s.group?.()
  return {
    node: {
      chainId: Number(s.chainId),
      client: s.clientVersion,
      sealing: s.sequencer?.mode ?? null,
      flashblockIntervalMs: s.sequencer?.flashblockIntervalMs ?? null,
      flashblocksPerBlock: s.sequencer?.flashblocksPerBlock ?? null,
    },
    time: s.now(),
    head: {
      number: Number(head.number),
      hash: bytesToHex(head.hash()),
      timestamp: Number(head.timestamp),
      gasUsed: Number(head.gasUsed),
      gasLimit: Number(head.gasLimit),
    },
    open:
      open === undefined
        ? null
        : { number: Number(open.header.number), flashblocks: open.index, transactions: open.transactions.length, gasUsed: Number(open.gasUsed), gasLimit: Number(open.header.gasLimit) },
    pool: pool === undefined ? null : { pending: pool.pending, queued: pool.queued, capacity: s.pool!.capacity },
    stream: s.stream === undefined ? null : { subscribers: s.stream.subscriberCount() },
    flashblocks: s.preconfirmations ? live?.flashblocks ?? [] : [],
    sealed: live?.sealed ?? [],
    latency: s.preconfirmations ? live?.latency ?? null : null,
    group:
      group === undefined
        ? null
        : {
            name: group.group,
            id: group.id,
            role: group.role,
            leader: group.leader === undefined ? null : { id: group.leader.id, term: group.leader.term, rpcUrl: group.leader.rpcUrl ?? null },
            lastTakeover: group.lastTakeover === undefined ? null : { term: group.lastTakeover.term, at: group.lastTakeover.at, ms: Math.round(group.lastTakeover.ms) },
          },
  }
}
