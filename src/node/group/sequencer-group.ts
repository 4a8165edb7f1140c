/**
 * A sequencer group's controller (issue 40; docs/scaling.md): which role this candidate plays, decided by
 * the group's lease (stream/leader-lease.ts) and nothing else. It owns the lease and the role's transitions;
 * what a role *is* (a sequencing node, a standby follower) belongs to its caller, through `GroupRoles`.
 *
 * - Standby: it watches the lease. Whenever nobody holds it (expired, released, never taken) it tries to
 *   take it; whenever someone else holds it, it tells the caller whom to follow.
 * - Leader: renewal starts at once (a takeover may take longer than a renewal interval), then the caller's
 *   `lead(term)` makes the node sequence. A lost renewal, a refused one, a lease that ran out by the local
 *   clock, or the sequencer deposed by the stream's fencing (`deposed`) ends the term: the caller is told to
 *   follow again, and the lease is never acted on afterwards (a new term needs a new acquisition).
 * - Transitions run one at a time (a promise chain), so the caller never runs `lead` and `follow` together.
 *
 * It never sequences, serves or reads the flashblock stream itself, and never decides on a clock of its own
 * whether another candidate lives: only the broker's record says who leads.
 */

import type { NatsConnection } from '@nats-io/transport-node'
import { LeaderLease, type Candidate, type LeaseTiming } from '../../stream/leader-lease.ts'
import { LeaseHeld, type LeaseHolder, type LeaseLost } from '../../stream/coordination-errors.ts'
import { errorFields, SILENT_LOGGER, type Logger } from '../../primitives/logger.ts'

/** What the caller does in each role. */
export interface GroupRoles {
  /** Sequence as the leader of `term`; a rejection ends the term (the lease is released). */
  lead(term: number): Promise<void>
  /** Stand by, following `leader` (undefined: nobody leads now). Called again whenever the leader changes. */
  follow(leader: LeaseHolder | undefined): Promise<void>
}

export interface SequencerGroupOptions {
  readonly chainId: bigint
  readonly group: string
  readonly candidate: Candidate
  /** Replicas of the lease bucket when this candidate creates it (3 on a cluster of three). */
  readonly replicas?: number
  readonly timing?: Partial<LeaseTiming>
  readonly log?: Logger
}

/** What the status says: 'taking-over' from the lease acquired until the node sequences, then 'leader'. */
export type GroupRole = 'starting' | 'standby' | 'taking-over' | 'leader'

/** A takeover as the status and the metrics show it. */
export interface Takeover {
  readonly term: number
  /** Wall-clock time it completed (ms since the epoch). */
  readonly at: number
  /** From the lease acquired to the node sequencing, in ms. */
  readonly ms: number
}

export interface GroupStatus {
  readonly group: string
  readonly id: string
  readonly role: GroupRole
  /** The leader as this candidate last saw it (itself when leading). */
  readonly leader: LeaseHolder | undefined
  readonly lastTakeover: Takeover | undefined
}

export class SequencerGroup {
  /** 'leader' from the lease acquired (the status says 'taking-over' until `sequencingTerm` is this term). */
  private role: Exclude<GroupRole, 'taking-over'> = 'starting'
  /** The term whose takeover completed: the node sequences for it. */
  private sequencingTerm: number | undefined
  private leader: LeaseHolder | undefined
  private lastTakeover: Takeover | undefined
  private transitions: Promise<void> = Promise.resolve()
  private stopRenewing: (() => void) | undefined
  private watchHandle: { stop(): void } | undefined
  private retry: NodeJS.Timeout | undefined
  private acquiring = false
  private closed = false
  /** The newest term heard of or held: records of older terms are stale reads. */
  private newestTerm = 0
  private readonly log: Logger

  private constructor(
    private readonly lease: LeaderLease,
    private readonly options: SequencerGroupOptions,
    private readonly roles: GroupRoles,
  ) {
    this.log = options.log ?? SILENT_LOGGER
  }

  /** Opens the lease (creating its bucket when absent) and starts standing by. */
  static async start(nc: NatsConnection, options: SequencerGroupOptions, roles: GroupRoles): Promise<SequencerGroup> {
    const lease = await LeaderLease.open(nc, {
      chainId: options.chainId,
      group: options.group,
      candidate: options.candidate,
      ...(options.replicas !== undefined ? { replicas: options.replicas } : {}),
      ...(options.timing !== undefined ? { timing: options.timing } : {}),
    })
    const group = new SequencerGroup(lease, options, roles)
    group.role = 'standby'
    group.watchHandle = await lease.watch((holder) => group.heard(holder))
    // The watch says when the holder changes; a failed attempt on an empty lease is retried on this timer.
    group.retry = setInterval(() => void group.tryToLead(), lease.timing.pollMs)
    group.retry.unref()
    return group
  }

  /**
   * Whether this member leads and sequences now (GET /leader): the lease is held and the takeover is done.
   * During the takeover (the node reopened in the leader's role) it is not yet: writes routed by /leader
   * would meet endpoints about to close.
   */
  isLeader(): boolean {
    return this.role === 'leader' && this.lease.isLeader() && this.sequencingTerm === this.lease.term
  }

  status(): GroupStatus {
    const role = this.role === 'leader' && this.sequencingTerm !== this.lease.term ? 'taking-over' : this.role
    return { group: this.options.group, id: this.options.candidate.id, role, leader: this.leader, lastTakeover: this.lastTakeover }
  }

  /**
   * The sequencer was deposed (fenced out by another leader's write, or without quorum): this term is over,
   * and the lease is released so that a candidate (this one included) takes over without waiting for it to
   * expire.
   */
  deposed(err: unknown): void {
    if (this.role !== 'leader') return
    this.log.warn({ ...errorFields(err), term: this.lease.term }, 'sequencer deposed: standing by')
    // release() ends the term at once (then deletes the record), before standDown abandons what is left.
    void this.lease.release().catch(() => undefined)
    this.standDown()
  }

  /** Stops; a leader releases the lease so that a successor need not wait for it to expire. */
  async close(): Promise<void> {
    this.closed = true
    clearInterval(this.retry)
    this.watchHandle?.stop()
    this.stopRenewing?.()
    await this.transitions.catch(() => undefined)
    if (this.role === 'leader') await this.lease.release().catch(() => undefined)
  }

  // --- internals ----------------------------------------------------------------------------------

  private heard(holder: LeaseHolder | undefined): void {
    if (this.closed) return
    // A read may have been in flight across a change (a poll answered before a newer record was written): a
    // holder older than one already known is stale, never a reason to stand down or to follow.
    if (holder !== undefined && holder.term < this.newestTerm) return
    if (holder !== undefined) this.newestTerm = holder.term
    if (holder === undefined) {
      if (this.role !== 'leader') void this.tryToLead()
      return
    }
    if (holder.id === this.options.candidate.id) {
      // Our own record: this term (heard while taking it, or renewed), or one of an earlier run of this
      // candidate (killed and restarted within its lease), which nobody serves: never follow ourselves.
      if (this.role !== 'leader' && !this.acquiring) this.followLeader(undefined)
      return
    }
    if (this.role === 'leader' && holder.term !== this.lease.term) {
      // Someone else's term: ours is over whatever our clock says.
      this.standDown()
      return
    }
    if (this.role !== 'leader') this.followLeader(holder)
  }

  private followLeader(holder: LeaseHolder | undefined): void {
    if (this.leader?.term === holder?.term && this.leader?.id === holder?.id && this.role === 'standby') return
    this.leader = holder
    this.chain(async () => {
      if (this.role === 'leader') return
      this.role = 'standby'
      await this.roles.follow(holder)
    })
  }

  private async tryToLead(): Promise<void> {
    if (this.closed || this.acquiring || this.role === 'leader') return
    this.acquiring = true
    try {
      const holder = await this.lease.acquire()
      this.newestTerm = Math.max(this.newestTerm, holder.term)
      this.role = 'leader'
      this.leader = holder
      const acquired = performance.now()
      this.log.info({ term: holder.term, id: holder.id }, 'sequencer lease acquired: taking over')
      this.stopRenewing = this.lease.keepRenewing((lost: LeaseLost) => {
        this.log.warn({ term: lost.term, reason: lost.reason }, 'sequencer lease lost: standing by')
        this.standDown()
      })
      this.chain(async () => {
        if (this.role !== 'leader' || this.lease.term !== holder.term) return
        try {
          await this.roles.lead(holder.term)
          this.sequencingTerm = holder.term
          this.lastTakeover = { term: holder.term, at: Date.now(), ms: performance.now() - acquired }
          this.log.info({ term: holder.term, ms: Math.round(this.lastTakeover.ms) }, 'sequencing as the group\'s leader')
        } catch (err) {
          this.log.error({ ...errorFields(err), term: holder.term }, 'takeover failed: releasing the lease')
          this.stopRenewing?.()
          await this.lease.release().catch(() => undefined)
          this.role = 'standby'
          this.leader = undefined
          await this.roles.follow(undefined)
        }
      })
    } catch (err) {
      if (err instanceof LeaseHeld) {
        // Our own record of an ended term is nobody to follow: it lapses, then a new term is taken.
        if (err.holder !== undefined && err.holder.id !== this.options.candidate.id) this.heard(err.holder)
      } else {
        this.log.debug(errorFields(err), 'sequencer lease: could not try it now')
      }
    } finally {
      this.acquiring = false
    }
  }

  /** Ends this term (never acted on again) and stands by. */
  private standDown(): void {
    if (this.role !== 'leader') return
    this.stopRenewing?.()
    this.stopRenewing = undefined
    // The lease may still believe in this term by its own clock for a moment: ended here, so that the next
    // acquisition wins a new term or fails, never hands this one back.
    this.lease.abandon()
    this.role = 'standby'
    this.leader = undefined
    this.chain(() => this.roles.follow(undefined))
    void this.lease.current().then((holder) => holder !== undefined && this.heard(holder), () => undefined)
  }

  private chain(step: () => Promise<void>): void {
    this.transitions = this.transitions.then(step).catch((err: unknown) => this.log.error(errorFields(err), 'sequencer group: a role change failed'))
  }
}
