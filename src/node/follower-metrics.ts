/**
 * A follower's metrics (issue "Followers"; docs/operations.md lists them), registered on the node's
 * registry: what became of each stream message, gaps, re-subscriptions, seals that did not check out,
 * blocks fetched instead of streamed (and the gas per second of their re-execution), forwarded
 * transactions; and, read at scrape time, how far behind the follower is (blocks, age of its newest
 * flashblock) and whether its stream is connected.
 * Labels are bounded: `outcome` is one of the follower's outcomes, `result` accepted | refused | unreachable.
 */

import { Counter, Gauge, Histogram, type Registry } from 'prom-client'
import type { FollowerObserver } from '../follower/follower.ts'
import { GAS_PER_SECOND_BUCKETS } from './execution-stats.ts'

export interface FollowerLevels {
  connected(): boolean
  blocksBehind(): bigint
  /** Milliseconds since the newest flashblock (undefined before the first). */
  flashblockAge(): number | undefined
}

export interface FollowerMetrics {
  /** Hears the follower (Follower.observe). */
  readonly observer: FollowerObserver
  /** A (re)subscription to the stream. */
  subscribed(): void
  /** A forwarded transaction's result. */
  forwarded(result: 'accepted' | 'refused' | 'unreachable'): void
  /** A fetched sealed block re-executed: its gas used and the seconds its execution took. */
  executed(gas: number, seconds: number): void
}

export function followerMetrics(registry: Registry, levels: FollowerLevels): FollowerMetrics {
  const registers = [registry]
  const messages = new Counter({
    name: 'flashnode_follower_messages_total',
    help: 'Stream messages handled by the follower, by outcome: applied, sealed, duplicate (ignored), skipped (not applicable: its block was fetched sealed instead)',
    labelNames: ['outcome'],
    registers,
  })
  const gaps = new Counter({ name: 'flashnode_follower_gaps_total', help: 'Missed stream messages detected (the follower re-subscribed after its last one)', registers })
  const subscriptions = new Counter({ name: 'flashnode_follower_subscriptions_total', help: "Subscriptions to the sequencer's stream (the first and every reconnect)", registers })
  const mismatches = new Counter({ name: 'flashnode_follower_seal_mismatches_total', help: 'Sealed blocks that did not match what the stream said (never committed: refetched)', registers })
  const fetched = new Counter({ name: 'flashnode_follower_fetched_blocks_total', help: 'Sealed blocks fetched from the sequencer and re-executed (catch-up, refetch)', registers })
  const forwarded = new Counter({ name: 'flashnode_follower_forwarded_transactions_total', help: 'Transactions forwarded to the sequencer, by result', labelNames: ['result'], registers })
  const blockGasRate = new Histogram({
    name: 'flashnode_follower_block_gas_per_second',
    help: 'Gas per second of one sealed block fetched and re-executed (catch-up, refetch): its gas used / its execution time (transactions, roots and checks; not the write); blocks with gas only',
    buckets: [...GAS_PER_SECOND_BUCKETS],
    registers,
  })
  new Gauge({
    name: 'flashnode_follower_blocks_behind',
    help: "Sealed blocks the follower lacks of its sequencer's (as far as it knows)",
    registers,
    collect() {
      this.set(Number(levels.blocksBehind()))
    },
  })
  new Gauge({
    name: 'flashnode_follower_flashblock_age_seconds',
    help: 'Seconds since the follower applied its newest flashblock (-1 before the first)',
    registers,
    collect() {
      const age = levels.flashblockAge()
      this.set(age === undefined ? -1 : age / 1000)
    },
  })
  new Gauge({
    name: 'flashnode_follower_stream_connected',
    help: "1 while the follower's stream subscription is open",
    registers,
    collect() {
      this.set(levels.connected() ? 1 : 0)
    },
  })
  return {
    observer: {
      handled: (outcome) => messages.inc({ outcome }),
      gap: () => gaps.inc(),
      sealMismatch: () => mismatches.inc(),
      caughtUp: (blocks) => fetched.inc(blocks),
    },
    subscribed: () => subscriptions.inc(),
    forwarded: (result) => forwarded.inc({ result }),
    executed: (gas, seconds) => {
      if (gas > 0 && seconds > 0) blockGasRate.observe(gas / seconds)
    },
  }
}
