/**
 * Per-client rate limit: one token bucket per client key (the remote IP address), refilled continuously at
 * `requestsPerSecond` up to `burst` tokens. Time comes from an injected clock (milliseconds), so tests move
 * time instead of sleeping.
 *
 * Rules:
 * - A payload costs one token per request: a single request 1, a batch one per item (notifications and
 *   invalid items included). It is admitted whole only when the bucket holds enough tokens, and then takes
 *   them all; a refused payload takes nothing. A batch larger than `burst` can therefore never pass, and
 *   its refusal says so.
 * - `retryAfterMs` is the time until the bucket holds enough tokens (for the Retry-After header).
 *
 * Memory is bounded: at most `maxClients` buckets are kept, in least-recently-used order. A new client
 * past that evicts the least recently seen one (O(1), so a flood of fresh addresses costs no sweeps); an
 * evicted client comes back with a full bucket, which is what it would have had anyway unless it was
 * active within the last `maxClients` clients.
 */

import { registerGauge } from '../../primitives/memory-gauges.ts'

export interface RateLimit {
  /** Sustained requests per second per client. */
  readonly requestsPerSecond: number
  /** Most requests a client may make at once (the bucket's size). */
  readonly burst: number
}

/** The burst when only a rate is configured: ten seconds' worth, at least 1. */
export const defaultBurst = (requestsPerSecond: number): number => Math.max(1, Math.ceil(requestsPerSecond * 10))

export type Take = { readonly ok: true } | { readonly ok: false; readonly retryAfterMs: number }

interface Bucket {
  tokens: number
  /** Clock time the tokens were counted at. */
  at: number
}

export const DEFAULT_MAX_CLIENTS = 100_000

export class RateLimiter {
  readonly limit: RateLimit
  private readonly now: () => number
  private readonly maxClients: number
  private readonly buckets = new Map<string, Bucket>()
  private readonly perMs: number

  constructor(limit: RateLimit, now: () => number = () => performance.now(), maxClients = DEFAULT_MAX_CLIENTS) {
    if (!(Number.isFinite(limit.requestsPerSecond) && limit.requestsPerSecond > 0)) {
      throw new RangeError(`rate limit requestsPerSecond must be a positive number, got ${String(limit.requestsPerSecond)}`)
    }
    if (!(Number.isSafeInteger(limit.burst) && limit.burst >= 1)) {
      throw new RangeError(`rate limit burst must be a whole number of at least 1, got ${String(limit.burst)}`)
    }
    this.limit = limit
    this.now = now
    this.maxClients = maxClients
    this.perMs = limit.requestsPerSecond / 1000
    registerGauge('rate-limit buckets', this, (r) => ({ entries: r.buckets.size, maxEntries: r.maxClients }))
  }

  /** Tokens `client` holds now (a client never seen holds a full bucket). */
  available(client: string): number {
    const bucket = this.buckets.get(client)
    return bucket === undefined ? this.limit.burst : this.refill(bucket, this.now())
  }

  /** Takes `cost` tokens from `client`'s bucket when it holds that many; otherwise takes nothing. */
  take(client: string, cost: number): Take {
    const now = this.now()
    let bucket = this.buckets.get(client)
    const tokens = bucket === undefined ? this.limit.burst : this.refill(bucket, now)
    if (tokens < cost) {
      const retryAfterMs = cost > this.limit.burst ? Number.POSITIVE_INFINITY : Math.ceil((cost - tokens) / this.perMs)
      return { ok: false, retryAfterMs }
    }
    if (bucket === undefined) {
      this.makeRoom()
      bucket = { tokens, at: now }
    } else {
      this.buckets.delete(client) // re-inserted below: the map's order is least recently used first
    }
    this.buckets.set(client, bucket)
    bucket.tokens = tokens - cost
    bucket.at = now
    return { ok: true }
  }

  /** Clients currently tracked (for tests and metrics). */
  clients(): number {
    return this.buckets.size
  }

  private refill(bucket: Bucket, now: number): number {
    const elapsed = Math.max(0, now - bucket.at)
    return Math.min(this.limit.burst, bucket.tokens + elapsed * this.perMs)
  }

  private makeRoom(): void {
    for (const client of this.buckets.keys()) {
      if (this.buckets.size < this.maxClients) return
      this.buckets.delete(client)
    }
  }
}
