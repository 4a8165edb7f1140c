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
