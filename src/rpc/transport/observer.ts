/**
 * What the transports report of the calls they answer, for metrics. rpc/ defines the port; node/metrics.ts
 * implements it (none given: nothing is recorded and nothing is timed). Labels stay bounded: a method is
 * named only when the endpoint serves it (anything else reports as `unknown`), outcomes are two.
 */

export type CallOutcome = 'ok' | 'error'

/** One payload's reports, as the envelope makes them. */
export interface PayloadObserver {
  /** A JSON-RPC call answered (a notification too): the served method or `unknown`, its outcome, seconds. */
  call(method: string, outcome: CallOutcome, seconds: number): void
  /** The endpoint's gate refused the payload with this HTTP status (429: over the rate limit). */
  refused(status: number): void
}

/** A server's reports; `transport` is how the payload came. */
export interface RpcObserver {
  forTransport(transport: 'http' | 'ws'): PayloadObserver
}
