/**
 * The typed outcomes of sequencer coordination through a JetStream cluster (the leader lease, leader-lease.ts;
 * the fenced publish, fenced-publisher.ts), and the one place that turns the NATS client's errors into them.
 *
 * The distinction the callers act on:
 * - `FencedOut`: the broker refused a write because the stream (or the lease key) moved on without this
 *   writer: another leader wrote. Final: the writer must stop acting as leader.
 * - `LeaseHeld` / `LeaseLost`: the lease is someone else's, or no longer this candidate's.
 * - `BrokerUnavailable`: no answer in time, no quorum, not connected. The outcome of a write is unknown (it
 *   may be stored later, when the cluster regains its quorum); nothing is concluded about leadership from it.
 * Anything else (a misconfigured stream, a permission refused) is left as the client's own error.
 *
 * Never retries, never logs: it only names what happened.
 */

import { JetStreamApiCodes, JetStreamApiError } from '@nats-io/jetstream'
import { ClosedConnectionError, ConnectionError, DrainingConnectionError, NoRespondersError, RequestError, TimeoutError } from '@nats-io/transport-node'

/** What a lease record says about its holder (leader-lease.ts). */
export interface LeaseHolder {
  /** The candidate's id (unique within its group). */
  readonly id: string
  /** Where the holder serves JSON-RPC over HTTP (forwarding, followers' catch-up), if it said. */
  readonly rpcUrl?: string
  /** Where the holder serves its WebSocket stream, if it said. */
  readonly wsUrl?: string
  /** The holder's term: the bucket revision of the write that created its lease; higher is newer. */
  readonly term: number
}

/** A write refused because another writer got there first (wrong expected last sequence). */
export class FencedOut extends Error {
  override readonly name = 'FencedOut'
  constructor(
    /** The last sequence the writer expected. */
    readonly expected: number,
    /** The last sequence the broker has, when it said (undefined when it did not). */
    readonly actual: number | undefined,
    options?: ErrorOptions,
  ) {
    super(`fenced out: expected last sequence ${expected}, the stream is at ${actual ?? 'another sequence'}`, options)
  }
}

/** `acquire` found the lease held by another candidate (or by this one's earlier, unreleased term). */
export class LeaseHeld extends Error {
  override readonly name = 'LeaseHeld'
  constructor(
    /** The current holder, when it could be read (undefined when it expired in between). */
    readonly holder: LeaseHolder | undefined,
    options?: ErrorOptions,
  ) {
    super(`the lease is held${holder === undefined ? '' : ` by ${holder.id} (term ${holder.term})`}`, options)
  }
}

export type LeaseLostReason =
  /** The broker refused the renewal: the key expired or another candidate holds it. */
  | 'refused'
  /** No renewal succeeded within the local validity, by this process's own monotonic clock. */
  | 'expired-locally'
  /** The lease was released (or never acquired). */
  | 'not-held'

/** The candidate no longer holds the lease: it must stop acting as leader at once. */
export class LeaseLost extends Error {
  override readonly name = 'LeaseLost'
  constructor(
    readonly reason: LeaseLostReason,
    /** The term that ended (0 when none was held). */
    readonly term: number,
    options?: ErrorOptions,
  ) {
    super(`the lease of term ${term} is lost (${reason})`, options)
  }
}

/** The cluster did not answer in time, has no quorum, or is not connected; a write's outcome is unknown. */
export class BrokerUnavailable extends Error {
  override readonly name = 'BrokerUnavailable'
  constructor(
    /** The operation that failed (e.g. 'publish', 'renew'). */
    readonly operation: string,
    options?: ErrorOptions,
  ) {
    super(`the broker did not answer ${operation}${options?.cause instanceof Error ? `: ${options.cause.message}` : ''}`, options)
  }
}

/** JetStream's "service unavailable" status (no leader for the stream, no meta leader). */
const UNAVAILABLE_STATUS = 503

/** Whether the client's error means the broker did not answer (rather than answered no). */
export function isUnavailable(err: unknown): boolean {
  if (err instanceof TimeoutError || err instanceof NoRespondersError) return true
  if (err instanceof ClosedConnectionError || err instanceof DrainingConnectionError || err instanceof ConnectionError) return true
  if (err instanceof RequestError && err.isNoResponders()) return true
  if (err instanceof JetStreamApiError) return err.status === UNAVAILABLE_STATUS
  // The client wraps a request without responders ("jetstream is not enabled") and others: look at the cause.
  return err instanceof Error && err.cause !== undefined && err.cause !== err && isUnavailable(err.cause)
}

/** Whether the client's error is JetStream's "wrong last sequence" refusal. */
export function isWrongLastSequence(err: unknown): err is JetStreamApiError {
  return err instanceof JetStreamApiError && (err.code === JetStreamApiCodes.StreamWrongLastSequence || err.code === JetStreamApiCodes.StreamWrongLastSequenceUnknown)
}

/** The broker's last sequence from a "wrong last sequence: N" refusal, when it says. */
export function actualLastSequence(err: JetStreamApiError): number | undefined {
  const m = /wrong last sequence: (\d+)/.exec(err.message)
  return m === null ? undefined : Number(m[1])
}

/** `err` as BrokerUnavailable when the broker did not answer, else unchanged. */
export function unavailableOr(operation: string, err: unknown): unknown {
  return isUnavailable(err) ? new BrokerUnavailable(operation, { cause: err }) : err
}
