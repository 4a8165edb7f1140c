/**
 * The admission gate: the hook through which an endpoint's policy (rpc/policy) decides, per payload, whether
 * it runs at all, before any handler does. The transport defines the shape and calls it; the policy supplies
 * it. Kept here so the transport depends on no policy module.
 *
 * A payload is asked about in this order:
 * - `beforeParse()`: before the body is depth-checked and parsed, so a client already over its rate limit
 *   costs no parsing;
 * - `admit(methods)`: after parsing, with the method name of every request (one for a single request, one
 *   per batch item; `undefined` where an item has no string method). A refusal here (the rate limit) refuses
 *   the payload whole: nothing of it runs;
 * - `refuse(method)`: per request, whether the endpoint refuses that method (a profile's forbidden method).
 *   A single request refused is answered with the refusal's status; in a batch only that item is answered
 *   with the refusal's error, and the other items run (an HTTP response has one status, and one refused
 *   method must not cost a client every other answer).
 *
 * - `headers()` (optional): read once the payload is answered, the headers every HTTP answer of this
 *   endpoint carries (the rate limit's state), refused or not.
 *
 * A refusal carries the HTTP status the whole response gets (403, 429, …), the typed error that becomes its
 * JSON-RPC body, optional response headers (Retry-After), and which item caused it (its id is echoed).
 * Over WebSocket there is no HTTP status: the body alone is sent and the connection stays open.
 */

import type { FlashnodeError } from '../../errors/errors.ts'

export interface Refusal {
  /** HTTP status of the response (over HTTP). */
  readonly status: number
  readonly error: FlashnodeError
  readonly headers?: Readonly<Record<string, string>>
  /** Index of the batch item that caused the refusal; its id is echoed. Absent: the first request id. */
  readonly item?: number
}

export interface PayloadGate {
  beforeParse(): Refusal | undefined
  admit(methods: readonly (string | undefined)[]): Refusal | undefined
  refuse(method: string): Refusal | undefined
  headers?(): Readonly<Record<string, string>> | undefined
}

/** Makes the gate for one client (by remote address); one per HTTP request or per WebSocket connection. */
export type GateFactory = (clientAddress: string) => PayloadGate
