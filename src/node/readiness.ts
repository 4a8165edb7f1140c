/**
 * Whether the node should get traffic (GET /readyz, for a load balancer). A sequencing node in auto mode is
 * ready while its newest flashblock is younger than a limit (default five intervals, at least a second): a
 * sequencer whose ticks stopped serves a frozen `pending` and must be taken out. In manual mode flashblocks
 * come only when asked, and a node without a sequencer serves its stored chain: both are ready once open.
 * A reader of the feed; the clock is the sequencer's (injected in tests).
 */

import type { FeedEventSource } from '../preconf/feed.ts'

export interface ReadinessState {
  readonly ready: boolean
  readonly reason: string
}

export class FlashblockReadiness {
  private newestAt: number | undefined

  constructor(
    feed: FeedEventSource,
    private readonly now: () => number,
    private readonly maxAgeMs: number,
  ) {
    feed.on('flashblock', () => {
      this.newestAt = this.now()
    })
  }

  state(): ReadinessState {
    if (this.newestAt === undefined) return { ready: false, reason: 'no flashblock published yet' }
    const age = Math.max(0, this.now() - this.newestAt)
    return age > this.maxAgeMs
      ? { ready: false, reason: `newest flashblock is ${age} ms old (limit ${this.maxAgeMs} ms): flashblocks are late` }
      : { ready: true, reason: `newest flashblock ${age} ms ago` }
  }
}

/** The age limit when none is configured: five flashblock intervals, at least one second. */
export const defaultReadyMaxAgeMs = (flashblockIntervalMs: number): number => Math.max(1_000, 5 * flashblockIntervalMs)

/** What a follower's readiness reads. */
export interface FollowerState {
  /** Whether its stream subscription is open. */
  connected(): boolean
  /** Milliseconds since its newest flashblock (undefined before the first). */
  flashblockAge(): number | undefined
  /** Sealed blocks it lacks of what its sequencer has sealed. */
  blocksBehind(): bigint
}

/**
 * A follower is ready when it is connected to its sequencer's stream, its newest flashblock is younger than
 * `maxAgeMs` (else `pending` would be frozen: it answers `latest` then, and readiness says why), and it is
 * at most `maxBlocksBehind` sealed blocks behind.
 */
export class FollowerReadiness {
  constructor(
    private readonly follower: FollowerState,
    private readonly maxAgeMs: number,
    private readonly maxBlocksBehind: bigint,
  ) {}

  state(): ReadinessState {
    if (!this.follower.connected()) return { ready: false, reason: "not connected to the sequencer's flashblock stream (reconnecting)" }
    const behind = this.follower.blocksBehind()
    if (behind > this.maxBlocksBehind) return { ready: false, reason: `${behind} blocks behind the sequencer (limit ${this.maxBlocksBehind}): catching up` }
    const age = this.follower.flashblockAge()
    if (age === undefined) return { ready: false, reason: 'no flashblock from the sequencer yet' }
    if (age > this.maxAgeMs) return { ready: false, reason: `newest flashblock is ${age} ms old (limit ${this.maxAgeMs} ms): the stream is stalled, pending answers latest` }
    return { ready: true, reason: `following: newest flashblock ${age} ms ago, ${behind} blocks behind` }
  }
}
