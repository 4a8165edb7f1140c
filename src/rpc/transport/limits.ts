/**
 * Transport limits: every size, count, depth and time bound the JSON-RPC transport enforces, with geth's
 * defaults (see ../shared/design/limits-and-errors.md).
 *
 * Owns: the `TransportLimits` shape, `DEFAULT_LIMITS`, and `resolveLimits`, which merges a partial
 * configuration over the defaults and rejects nonsense (a zero or negative limit would silently disable
 * the server, so it is a configuration error, not a request error). Nothing here does I/O.
 */

export interface TransportLimits {
  /** Largest HTTP request body, in bytes. Over it: HTTP 413. */
  readonly maxBodyBytes: number
  /** Largest WebSocket message, in bytes. Over it: the connection closes with 1009. */
  readonly maxWsMessageBytes: number
  /**
   * Bytes a WebSocket connection may hold queued for sending that its client has not read yet (answers,
   * notifications). Over it the connection is cut: a subscriber that stops reading cannot grow the heap.
   */
  readonly maxWsBufferedBytes: number
  /** Most items in one batch. Over it: one -32600 `batch too large`. */
  readonly maxBatchItems: number
  /** Once a batch's accumulated response passes this many bytes, the remaining items get -32003. */
  readonly maxBatchResponseBytes: number
  /** Deepest JSON nesting accepted (checked before parsing). */
  readonly maxDepth: number
  /** Longest method name, in characters. */
  readonly maxMethodNameLength: number
  /** Deadline of one payload (a single request or a whole batch), in milliseconds. Past it: -32002. */
  readonly requestTimeoutMs: number
  /** How many items of one batch run at the same time. */
  readonly batchConcurrency: number
  /**
   * Open client connections of the endpoint (HTTP keep-alive sockets and WebSockets together). A connection
   * over it is answered HTTP 503 `too many connections (limit N)` and closed.
   */
  readonly maxConnections: number
  /** Subscriptions one WebSocket connection may hold at once. Over it: -32005. */
  readonly maxSubscriptionsPerConnection: number
  /**
   * How long an idle HTTP keep-alive connection is kept, in milliseconds, advertised to clients as
   * `Keep-Alive: timeout=N` (whole seconds); it is closed a second after that (idle-close.ts).
   */
  readonly idleTimeoutMs: number
}

export const DEFAULT_LIMITS: TransportLimits = Object.freeze({
  maxBodyBytes: 5 * 1024 * 1024,
  maxWsMessageBytes: 32 * 1024 * 1024,
  maxWsBufferedBytes: 32 * 1024 * 1024,
  maxBatchItems: 1000,
  maxBatchResponseBytes: 25_000_000,
  maxDepth: 128,
  maxMethodNameLength: 2048,
  requestTimeoutMs: 30_000,
  batchConcurrency: 8,
  maxConnections: 1000,
  maxSubscriptionsPerConnection: 128,
  idleTimeoutMs: 120_000,
})

const resolved = new WeakMap<Partial<TransportLimits>, TransportLimits>()
/** No settings given (in-process callers, tests): one object, so its answer is remembered too. */
const NO_SETTINGS: Partial<TransportLimits> = Object.freeze({})

/**
 * Merges `partial` over the defaults; throws a RangeError for a limit that is not a positive integer.
 * Called per payload with the endpoint's settings object: the answer is remembered per object.
 */
export function resolveLimits(partial: Partial<TransportLimits> = NO_SETTINGS): TransportLimits {
  const hit = resolved.get(partial)
  if (hit !== undefined) return hit
  const out = mergeLimits(partial)
  resolved.set(partial, out)
  return out
}

function mergeLimits(partial: Partial<TransportLimits>): TransportLimits {
  const merged: TransportLimits = { ...DEFAULT_LIMITS, ...stripUndefined(partial) }
  for (const [name, value] of Object.entries(merged)) {
    if (!Number.isSafeInteger(value) || value <= 0) {
      throw new RangeError(`transport limit ${name} must be a positive integer, got ${String(value)}`)
    }
  }
  return Object.freeze(merged)
}

function stripUndefined(partial: Partial<TransportLimits>): Partial<TransportLimits> {
  const out: Record<string, number> = {}
  for (const [name, value] of Object.entries(partial)) if (value !== undefined) out[name] = value
  return out as Partial<TransportLimits>
}
