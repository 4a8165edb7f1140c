/**
 * The sequencer lease of a group of candidates (issue 40): which one of them sequences the chain now. It
 * lives in a JetStream key-value bucket per chain and group (`FLASHNODE_GROUP_<chainId>_<group>`, replicated
 * by the cluster's Raft), under one key, and the broker, not the candidates, decides:
 *
 * - acquire = create the key only if it is absent (or deleted). The record names the holder (its id, its
 *   advertised RPC and WebSocket URLs) and a token of this acquisition. The **term** is the bucket revision of
 *   that create: the bucket's stream sequence, so it only grows, across holders, expiries and restarts (as
 *   long as the bucket itself is never deleted).
 * - renew = update with the last revision (compare-and-set); refused = another candidate holds it now.
 * - expiry = the bucket's maximum age equals the lease duration: a record nobody renews is removed by the
 *   broker's clock. The broker does not announce that removal to watchers, so `watch` also polls.
 * - release = delete with the last revision, so a successor need not wait for the expiry.
 *
 * And one local rule, by this process's own monotonic clock (injected): the lease is valid for
 * `leaseMs - marginMs` after the *sending* of the last renewal that succeeded (the broker timed the record at
 * or after that moment, so its expiry is later than this one). Once that runs out, or a renewal is refused,
 * the term is over for good: `isLeader()` stays false and a new term needs a new `acquire`. A process that
 * was paused therefore never resumes as leader on stale belief; the stream fencing (fenced-publisher.ts)
 * refuses its writes besides.
 *
 * A write that timed out may have been stored: acquire and renew read the record back and recognise their own
 * token, so an unknown outcome never leaves two holders or loses a lease that is still held.
 * It owns the lease record and nothing else: no connection (the caller's), no flashblocks, no logging.
 */

import { randomUUID } from 'node:crypto'
import { jetstream } from '@nats-io/jetstream'
import { Kvm, type KV, type KvEntry } from '@nats-io/kv'
import type { NatsConnection } from '@nats-io/transport-node'
import { whilePlacing } from './placement.ts'
import { BrokerUnavailable, isWrongLastSequence, LeaseHeld, type LeaseHolder, LeaseLost, type LeaseLostReason, unavailableOr } from './coordination-errors.ts'

export type { LeaseHolder } from './coordination-errors.ts'

/** The lease's timing; the defaults and why are in DEFAULT_LEASE_TIMING. */
export interface LeaseTiming {
  /** How long a record lives unrenewed (the bucket's maximum age). */
  readonly leaseMs: number
  /** How often the holder renews (keepRenewing). */
  readonly renewMs: number
  /** How much earlier than the broker the holder gives up, by its own clock. */
  readonly marginMs: number
  /** How often `watch` reads the record, to see an expiry the broker does not announce. */
  readonly pollMs: number
  /** The bound on each request to the broker. */
  readonly opTimeoutMs: number
}

/**
 * Takeover after a holder dies is at worst leaseMs (the record outlives the last renewal by that) + the
 * broker's expiry timer + pollMs (a standby sees it) + one create and one stream read; plus at most one
 * flashblock interval before the new holder's first flashblock. These values keep that within the issue's
 * bound; the holder renews several times per lease, so it survives a few lost renewals in a row.
 */
export const DEFAULT_LEASE_TIMING: LeaseTiming = { leaseMs: 1_000, renewMs: 250, marginMs: 200, pollMs: 100, opTimeoutMs: 250 }

/** What a candidate says about itself in the record. */
export interface Candidate {
  /** Unique within the group. */
  readonly id: string
  readonly rpcUrl?: string
  readonly wsUrl?: string
}

export interface LeaderLeaseOptions {
  readonly chainId: bigint
  /** The group's name: letters, digits, '-' and '_'. */
  readonly group: string
  readonly candidate: Candidate
  /** The bucket's replicas when this creates it (3 in a cluster; 1 on a single server). */
  readonly replicas?: number
  readonly timing?: Partial<LeaseTiming>
  /** A monotonic clock in milliseconds (performance.now by default; a test injects its own). */
  readonly now?: () => number
  /** The bound on opening (creating) the bucket. */
  readonly setupTimeoutMs?: number
}

export const DEFAULT_SETUP_TIMEOUT_MS = 10_000

/** A watch's handle. */
export interface LeaseWatch {
  stop(): void
}

/** The bucket name of a chain's group. */
export function leaseBucketName(chainId: bigint, group: string): string {
  if (!/^[A-Za-z0-9_-]+$/.test(group)) throw new RangeError(`a sequencer group's name is letters, digits, '-' and '_' (got ${JSON.stringify(group)})`)
  return `FLASHNODE_GROUP_${chainId}_${group}`
}

/** The one key of the bucket. */
export const LEASE_KEY = 'leader'

/** The record's JSON: the candidate, its acquisition's token, and its term once known (renewals carry it). */
interface Record extends Candidate {
  readonly token: string
  readonly term?: number
}

interface Held {
  readonly term: number
  readonly token: string
  /** The bucket revision of the holder's last write. */
  revision: number
  /** When (local clock) the last successful write was sent. */
  sentAt: number
}

const encoder = new TextEncoder()

function holderOf(entry: KvEntry | null): { holder: LeaseHolder; token: string } | undefined {
  if (entry === null || entry.operation !== 'PUT') return undefined
  const r = entry.json<Record>()
  const holder: LeaseHolder = { id: r.id, term: r.term ?? entry.revision, ...(r.rpcUrl === undefined ? {} : { rpcUrl: r.rpcUrl }), ...(r.wsUrl === undefined ? {} : { wsUrl: r.wsUrl }) }
  return { holder, token: r.token }
}

const sameHolder = (a: LeaseHolder | undefined, b: LeaseHolder | undefined): boolean => a?.term === b?.term && a?.id === b?.id

export class LeaderLease {
  readonly timing: LeaseTiming
  readonly bucket: string
  private held: Held | undefined
  /** How the last term ended (what renew reports after it). */
  private ended: { readonly term: number; readonly reason: LeaseLostReason } | undefined
  private readonly now: () => number

  private constructor(
    private readonly kv: KV,
    private readonly candidate: Candidate,
    timing: LeaseTiming,
    bucket: string,
    now: () => number,
  ) {
    this.timing = timing
    this.bucket = bucket
    this.now = now
  }

  /** Opens the group's bucket, creating it when absent; refuses one whose maximum age is not this lease's. */
  static async open(nc: NatsConnection, options: LeaderLeaseOptions): Promise<LeaderLease> {
    const timing = { ...DEFAULT_LEASE_TIMING, ...options.timing }
    if (!(timing.marginMs >= 0 && timing.renewMs < timing.leaseMs - timing.marginMs)) throw new RangeError('a lease renews more often than its local validity (leaseMs - marginMs)')
    const bucket = leaseBucketName(options.chainId, options.group)
    // Creating a replicated bucket waits for its Raft group: bounded apart from (and longer than) each operation.
    const setupMs = options.setupTimeoutMs ?? DEFAULT_SETUP_TIMEOUT_MS
    const setup = new Kvm(jetstream(nc, { timeout: setupMs }))
    await whilePlacing(() => setup.create(bucket, { history: 1, replicas: options.replicas ?? 3, ttl: timing.leaseMs, allow_direct: false }), performance.now() + setupMs).catch((err: unknown) => {
      throw unavailableOr('create the lease bucket', err)
    })
    // Reads go to the bucket's leader (not any replica), so a read never shows an older holder than a write saw.
    const opened = async () => {
      const kv = await new Kvm(jetstream(nc, { timeout: timing.opTimeoutMs })).open(bucket, { allow_direct: false })
      return { kv, ttl: (await kv.status()).ttl }
    }
    const { kv, ttl } = await opened().catch((err: unknown) => {
      throw unavailableOr('open the lease bucket', err)
    })
    if (ttl !== timing.leaseMs) throw new Error(`the lease bucket ${bucket} keeps records ${ttl} ms, this candidate's lease is ${timing.leaseMs} ms: every candidate of a group must use one lease duration`)
    return new LeaderLease(kv, options.candidate, timing, bucket, options.now ?? (() => performance.now()))
  }

  /** The term held now, while the lease is locally valid. */
  get term(): number | undefined {
    return this.isLeader() ? this.held!.term : undefined
  }

  /** Whether this candidate holds the lease by its own clock; once false it stays false until `acquire`. */
  isLeader(): boolean {
    const h = this.held
    if (h === undefined) return false
    if (this.now() < h.sentAt + this.timing.leaseMs - this.timing.marginMs) return true
    this.end(h, 'expired-locally')
    return false
  }

  /** Milliseconds of local validity left (0 when not leader). */
  validForMs(): number {
    return this.isLeader() ? this.held!.sentAt + this.timing.leaseMs - this.timing.marginMs - this.now() : 0
  }

  /**
   * Takes the lease if nobody holds it and returns this candidate as holder, with its new term. Already held
   * (and valid): returns it as it is. Throws LeaseHeld (someone holds it) or BrokerUnavailable.
   */
  async acquire(): Promise<LeaseHolder> {
    if (this.isLeader()) return this.self(this.held!.term)
    const token = randomUUID()
    const sentAt = this.now()
    let revision: number
    try {
      revision = await this.kv.create(LEASE_KEY, this.encode(token))
    } catch (err) {
      if (isWrongLastSequence(err)) throw new LeaseHeld(await this.current().catch(() => undefined), { cause: err })
      const mine = await this.readBack(token, err)
      if (mine === undefined) throw unavailableOr('acquire', err)
      revision = mine.revision
    }
    this.held = { term: revision, token, revision, sentAt }
    this.ended = undefined
    return this.self(revision)
  }

  /**
   * Extends the lease (compare-and-set on the last revision). Throws LeaseLost (refused, or the local
   * validity ran out: stop leading at once) or BrokerUnavailable (unknown: still leader until the validity ends).
   */
  async renew(): Promise<void> {
    const h = this.held
    if (h === undefined || !this.isLeader()) throw new LeaseLost(this.ended?.reason ?? 'not-held', this.ended?.term ?? 0)
    for (let attempt = 0; ; attempt++) {
      const sentAt = this.now()
      let revision: number
      try {
        revision = await this.kv.update(LEASE_KEY, this.encode(h.token, h.term), h.revision, this.timing.opTimeoutMs)
      } catch (err) {
        // A renewal that timed out may have been stored after all: the record is still ours, at a newer revision.
        const mine = await this.readBack(h.token, err)
        if (mine !== undefined && this.held === h && mine.revision !== h.revision && attempt === 0) {
          h.revision = mine.revision
          continue
        }
        if (mine === undefined && isWrongLastSequence(err)) {
          this.end(h, 'refused')
          throw new LeaseLost('refused', h.term, { cause: err })
        }
        throw mine !== undefined ? new BrokerUnavailable('renew', { cause: err }) : unavailableOr('renew', err)
      }
      if (this.held !== h) throw new LeaseLost('expired-locally', h.term)
      h.revision = revision
      h.sentAt = sentAt
      return
    }
  }

  /** Gives the lease up (stops leading first), so a successor need not wait for the expiry. */
  async release(): Promise<void> {
    const h = this.held
    if (h === undefined) return
    this.end(h, 'not-held')
    try {
      await this.kv.delete(LEASE_KEY, { previousSeq: h.revision })
    } catch (err) {
      // Refused: the record is not ours any more; nothing to release.
      if (!isWrongLastSequence(err)) throw unavailableOr('release', err)
    }
  }

  /**
   * Ends this term here and now, without asking the broker (another holder was seen, or the caller stopped
   * leading): `isLeader()` is false from now on and `acquire` takes a new term instead of returning this one.
   */
  abandon(): void {
    const h = this.held
    if (h !== undefined) this.end(h, 'not-held')
  }

  /** Who holds the lease by the broker now (undefined: nobody; expired or released). */
  async current(): Promise<LeaseHolder | undefined> {
    try {
      return holderOf(await this.kv.get(LEASE_KEY))?.holder
    } catch (err) {
      throw unavailableOr('read the lease', err)
    }
  }

  /**
   * Calls `onChange` with the holder now and at every change of holder (a new term, a release, an expiry:
   * undefined). New holders and releases come from the bucket's watch; expiries, which the broker does not
   * announce, from a read every `pollMs`. Renewals of one term are not changes.
   */
  async watch(onChange: (holder: LeaseHolder | undefined) => void): Promise<LeaseWatch> {
    let stopped = false
    let known: LeaseHolder | undefined | null = null
    /** Counts watch events: a read that was in flight across one is older than it and is dropped. */
    let events = 0
    const emit = (holder: LeaseHolder | undefined): void => {
      if (stopped || (known !== null && sameHolder(known, holder))) return
      known = holder
      onChange(holder)
    }
    const watcher = await this.kv.watch({ key: LEASE_KEY }).catch((err: unknown) => Promise.reject(unavailableOr('watch the lease', err)))
    void (async () => {
      for await (const entry of watcher) {
        events++
        emit(holderOf(entry)?.holder)
      }
    })().catch(() => undefined)
    const poll = (): void => {
      const at = events
      this.current().then(
        (holder) => at === events && emit(holder),
        () => undefined,
      )
    }
    const timer = setInterval(poll, this.timing.pollMs)
    timer.unref()
    poll()
    return {
      stop() {
        stopped = true
        clearInterval(timer)
        watcher.stop()
      },
    }
  }

  /**
   * Renews every `renewMs` while the lease is held; calls `onLost` once when it is lost (refused, or the local
   * validity ran out, which a timer catches even while a renewal hangs). Returns the stop function.
   */
  keepRenewing(onLost: (err: LeaseLost) => void): () => void {
    let stopped = false
    let renewTimer: NodeJS.Timeout | undefined
    let deadline: NodeJS.Timeout | undefined
    const lost = (err: LeaseLost): void => {
      if (stopped) return
      stop()
      onLost(err)
    }
    const arm = (): void => {
      clearTimeout(deadline)
      const term = this.held?.term ?? 0
      deadline = setTimeout(() => this.isLeader() ? arm() : lost(new LeaseLost('expired-locally', term)), this.validForMs() + 1)
      deadline.unref()
    }
    const tick = (): void => {
      this.renew().then(
        () => arm(),
        (err: unknown) => {
          if (err instanceof LeaseLost) lost(err)
        },
      ).finally(() => {
        if (stopped) return
        renewTimer = setTimeout(tick, this.timing.renewMs)
        renewTimer.unref()
      })
    }
    const stop = (): void => {
      stopped = true
      clearTimeout(renewTimer)
      clearTimeout(deadline)
    }
    if (!this.isLeader()) {
      queueMicrotask(() => lost(new LeaseLost('not-held', 0)))
      return stop
    }
    arm()
    renewTimer = setTimeout(tick, this.timing.renewMs)
    renewTimer.unref()
    return stop
  }

  private end(h: Held, reason: LeaseLostReason): void {
    if (this.held !== h) return
    this.held = undefined
    this.ended = { term: h.term, reason }
  }

  private self(term: number): LeaseHolder {
    return { ...this.candidate, term }
  }

  private encode(token: string, term?: number): Uint8Array {
    const r: Record = { ...this.candidate, token, ...(term === undefined ? {} : { term }) }
    return encoder.encode(JSON.stringify(r))
  }

  /** After a failed write: the record, if it is this acquisition's (the write was stored after all). */
  private async readBack(token: string, err: unknown): Promise<{ revision: number } | undefined> {
    if (!(unavailableOr('', err) instanceof BrokerUnavailable) && !isWrongLastSequence(err)) return undefined
    const entry = await this.kv.get(LEASE_KEY).catch(() => null)
    return entry !== null && holderOf(entry)?.token === token ? { revision: entry.revision } : undefined
  }
}
