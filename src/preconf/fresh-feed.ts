/**
 * A feed as its readers should see it when its producer can stall without knowing it (a follower whose
 * stream stopped): the newest snapshot only while it is younger than `maxAgeMs`; older, none, so `pending`
 * answers as `latest` (node/block-resolver.ts) instead of a frozen pre-confirmed state. Events pass through.
 * The age is counted from when the snapshot was published here, on the injected clock.
 */

import type { FeedEvents, FeedListener, PreconfirmedFeed } from './feed.ts'
import type { PreconfirmedSnapshot } from './snapshot.ts'
import type { StateReader } from '../state/state-reader.ts'

export class FreshFeed implements PreconfirmedFeed {
  private publishedAt: number | undefined

  constructor(
    private readonly feed: PreconfirmedFeed,
    private readonly now: () => number,
    readonly maxAgeMs: number,
  ) {
    feed.on('flashblock', () => {
      this.publishedAt = this.now()
    })
  }

  /** Milliseconds since the newest snapshot was published (undefined before the first). */
  age(): number | undefined {
    return this.publishedAt === undefined ? undefined : Math.max(0, this.now() - this.publishedAt)
  }

  snapshot(): PreconfirmedSnapshot | undefined {
    const age = this.age()
    return age === undefined || age > this.maxAgeMs ? undefined : this.feed.snapshot()
  }

  state(snapshot: PreconfirmedSnapshot): StateReader {
    return this.feed.state(snapshot)
  }

  on<K extends keyof FeedEvents>(event: K, listener: FeedListener<K>): unknown {
    return this.feed.on(event, listener)
  }

  off<K extends keyof FeedEvents>(event: K, listener: FeedListener<K>): unknown {
    return this.feed.off(event, listener)
  }

  listenerCount(event: keyof FeedEvents): number {
    return this.feed.listenerCount(event)
  }
}
