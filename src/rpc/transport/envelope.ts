/**
 * The JSON-RPC envelope: one payload (the body of an HTTP request or one WebSocket message) in, the
 * serialized response out, or `null` when nothing is to be sent (notifications only).
 *
 * Owns: the depth guard and parse, single vs batch, the batch limits, the per-payload deadline, bounded
 * batch concurrency, response order, the batch response size cap, and turning every outcome into a
 * response string. It knows nothing about HTTP or WebSocket.
 *
 * Invariants:
 * - Never throws and never rejects: every failure becomes a JSON-RPC error response.
 * - A payload has ONE deadline (`requestTimeoutMs`), shared by all items of a batch, as in geth. When it
 *   passes, `ctx.signal` aborts, items still running answer -32002 at once (even if the handler ignores the
 *   signal; its late result is dropped), and items not yet started answer -32002 without running.
 * - At most `batchConcurrency` items of a batch run at the same time; responses keep request order.
 * - The batch response cap is checked in request order: the item whose response passes the cap is kept,
 *   every later request gets -32003 `response too large` (notifications still get nothing), and items still
 *   running are aborted.
 * - A request's id is echoed as the client wrote it: a numeric id keeps its raw text (raw-ids.ts).
 * - Results are serialized with JSON.stringify (a RawJson result, already serialized, goes in verbatim: see
 *   messages.ts); an unserializable result (e.g. a bigint) becomes -32603 for that item alone.
 * - With a gate (endpoint policy, see gate.ts), nothing of a payload runs unless the gate admitted it whole:
 *   the gate is asked before parsing and again with every item's method name. A payload that never gets
 *   parsed into requests (too deep, not JSON, an empty or oversized batch) is still admitted as one request,
 *   so malformed input counts against a client's rate like any other. A refusal is the outcome's HTTP
 *   status, headers and a single error body. A method the gate refuses is that refusal for a single
 *   request, and only that item's error answer in a batch (the other items run).
 * - A batch over `maxBatchItems` is answered, as geth does, with an array holding one -32600
 *   `batch too large` error carrying the first request's id.
 */

import { FlashnodeError, internalError } from '../../errors/errors.ts'
import { RPC_CODES, toJsonRpcError, DEFAULT_REVERT_CODE, type ErrorMappingOptions } from '../error-codes.ts'
import type { MethodContext, MethodTable, RpcConnection } from '../registry.ts'
import type { PayloadGate, Refusal } from './gate.ts'
import type { PayloadObserver } from './observer.ts'
import { exceedsJsonDepth } from './json-guard.ts'
import { resolveLimits, type TransportLimits } from './limits.ts'
import { errorMessage, PARSE_ERROR_MESSAGE, RawId, resultMessage } from './messages.ts'
import { numericIdTokens, unparsedRequestId } from './raw-ids.ts'
import { firstRequestId, isRequestId, prepareRequest, type PreparedRequest } from './request.ts'
import { RequestScope } from './request-scope.ts'
import type { RequestId } from './messages.ts'

export interface EnvelopeOptions {
  /** Name of the endpoint that received the payload; handed to handlers. */
  readonly endpoint: string
  readonly limits?: Partial<TransportLimits>
  /** Code for reverts (default -32000; geth uses 3). */
  readonly revertCode?: number
  /** Show internal error details to clients. */
  readonly debug?: boolean
  /** The long-lived connection the payload came over (WebSocket), for handlers that push messages. */
  readonly connection?: RpcConnection
  /** Aborts the payload's work early (the client went away). */
  readonly signal?: AbortSignal
  /** The same as `signal`, without an AbortSignal: the caller aborts this scope (the HTTP server does). */
  readonly scope?: RequestScope
  /** Where unexpected errors are reported; console.error when absent. */
  readonly log?: (message: string, err: unknown) => void
  /** The endpoint policy's say on this payload (rate limit, refused methods). None: everything is admitted. */
  readonly gate?: PayloadGate
  /** Told of every call answered and of a refusal (metrics). */
  readonly observer?: PayloadObserver
}

/** What to send back for one payload: the body (null: nothing), and over HTTP its status and extra headers. */
export interface PayloadOutcome {
  readonly status: number
  readonly body: string | null
  readonly headers?: Readonly<Record<string, string>>
}

interface Run {
  readonly limits: TransportLimits
  readonly mapping: ErrorMappingOptions
  readonly endpoint: string
  readonly connection: RpcConnection | undefined
  readonly observer: PayloadObserver | undefined
}

/** Handles one payload. Resolves to the response text, or null when no response is due. Never rejects. */
export async function handleRpcPayload(
  bodyText: string,
  methods: MethodTable,
  opts: EnvelopeOptions,
): Promise<string | null> {
  return (await answerRpcPayload(bodyText, methods, opts)).body
}

/** Handles one payload, with the HTTP status its answer deserves (200, or a gate's refusal). Never rejects. */
export async function answerRpcPayload(
  bodyText: string,
  methods: MethodTable,
  opts: EnvelopeOptions,
): Promise<PayloadOutcome> {
  const gate = opts.gate
  const early = gate?.beforeParse()
  if (early !== undefined) return refused(early, unparsedRequestId(bodyText), gate, opts.observer)
  let run: Run
  try {
    run = {
      limits: resolveLimits(opts.limits),
      mapping: { revertCode: opts.revertCode ?? DEFAULT_REVERT_CODE, debug: opts.debug ?? false, log: opts.log },
      endpoint: opts.endpoint,
      connection: opts.connection,
      observer: opts.observer,
    }
  } catch (err) {
    return asOne(gate, opts.observer, errorMessage(null, toJsonRpcError(err, { revertCode: DEFAULT_REVERT_CODE, debug: false, log: opts.log })))
  }
  const { limits } = run
  if (exceedsJsonDepth(bodyText, limits.maxDepth)) {
    return asOne(gate, opts.observer, errorMessage(null, {
      code: RPC_CODES.invalidRequest,
      message: `invalid request: nesting too deep (max depth ${limits.maxDepth})`,
    }))
  }
  let payload: unknown
  try {
    payload = JSON.parse(bodyText)
  } catch {
    return asOne(gate, opts.observer, PARSE_ERROR_MESSAGE)
  }

  if (Array.isArray(payload)) {
    if (payload.length === 0) return asOne(gate, opts.observer, errorMessage(null, { code: RPC_CODES.invalidRequest, message: 'empty batch' }))
    if (payload.length > limits.maxBatchItems) {
      const tooLarge = errorMessage(firstRequestId(payload), { code: RPC_CODES.invalidRequest, message: 'batch too large' })
      return asOne(gate, opts.observer, `[${tooLarge}]`)
    }
  }
  const items: readonly unknown[] = Array.isArray(payload) ? payload : [payload]
  keepRawIds(items, bodyText, Array.isArray(payload))
  const refusal = gate?.admit(items.map(methodOf))
  if (refusal !== undefined) return refused(refusal, refusedId(items, refusal.item), gate, opts.observer)
  if (gate !== undefined && !Array.isArray(payload)) {
    const method = methodOf(payload)
    const forbidden = method === undefined ? undefined : gate.refuse(method)
    if (forbidden !== undefined) return refused(forbidden, refusedId(items, 0), gate, opts.observer)
  }

  const scope = opts.scope ?? new RequestScope()
  const unfollow = opts.signal === undefined ? undefined : scope.follow(opts.signal)
  const timer = setTimeout(() => scope.abort(new FlashnodeError('requestTimeout', 'request timed out')), limits.requestTimeoutMs)
  try {
    const body = !Array.isArray(payload)
      ? await runOne(prepareRequest(payload, methods, limits.maxMethodNameLength), scope, run)
      : await runBatch(payload.map((item) => refusedItem(prepareRequest(item, methods, limits.maxMethodNameLength), item, gate)), scope, run)
    return answered(body, gate)
  } finally {
    clearTimeout(timer)
    unfollow?.()
  }
}

/**
 * Replaces every numeric `id` with its text as sent (raw-ids.ts), so that it is echoed exactly: a double
 * cannot hold `12345678901234567890`. Payloads without a numeric id are not scanned.
 */
function keepRawIds(items: readonly unknown[], text: string, batch: boolean): void {
  let numeric = false
  for (const item of items) if (typeof idOf(item) === 'number') numeric = true
  if (!numeric) return
  const tokens = numericIdTokens(text, batch)
  for (let i = 0; i < items.length; i++) {
    const token = tokens.get(i)
    if (token !== undefined && typeof idOf(items[i]) === 'number') (items[i] as Record<string, unknown>).id = new RawId(token)
  }
}

function idOf(item: unknown): unknown {
  return typeof item === 'object' && item !== null && !Array.isArray(item) ? (item as Record<string, unknown>).id : undefined
}

/** Admits a payload that did not parse into requests as one request. */
function asOne(gate: PayloadGate | undefined, observer: PayloadObserver | undefined, body: string | null): PayloadOutcome {
  const refusal = gate?.admit([undefined])
  return refusal === undefined ? answered(body, gate) : refused(refusal, null, gate, observer)
}

/** An admitted payload's answer, with the headers the gate puts on every answer (rate-limit state). */
function answered(body: string | null, gate: PayloadGate | undefined): PayloadOutcome {
  const headers = gate?.headers?.()
  return headers === undefined ? { status: 200, body } : { status: 200, body, headers }
}

function refused(refusal: Refusal, id: RequestId, gate: PayloadGate | undefined, observer: PayloadObserver | undefined): PayloadOutcome {
  observer?.refused(refusal.status)
  const body = errorMessage(id, toJsonRpcError(refusal.error, { revertCode: DEFAULT_REVERT_CODE, debug: false }))
  const always = gate?.headers?.()
  const headers = always === undefined ? refusal.headers : { ...always, ...refusal.headers }
  return headers === undefined ? { status: refusal.status, body } : { status: refusal.status, body, headers }
}

/** A batch item whose method the gate refuses answers the refusal's error instead of running. */
function refusedItem(request: PreparedRequest, item: unknown, gate: PayloadGate | undefined): PreparedRequest {
  if (gate === undefined || (request.kind === 'invalid' && request.error.kind !== 'methodNotFound')) return request
  const method = methodOf(item)
  const refusal = method === undefined ? undefined : gate.refuse(method)
  if (refusal === undefined) return request
  return { kind: 'invalid', id: request.id, notification: request.notification, error: refusal.error }
}

function methodOf(item: unknown): string | undefined {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return undefined
  const method = (item as Record<string, unknown>).method
  return typeof method === 'string' ? method : undefined
}

/** The id echoed by a refusal: the offending item's, else the first request id of the payload. */
function refusedId(items: readonly unknown[], index: number | undefined): RequestId {
  const item = index === undefined ? undefined : items[index]
  if (typeof item === 'object' && item !== null && !Array.isArray(item)) {
    const id = (item as Record<string, unknown>).id
    if (id !== undefined && isRequestId(id)) return id
  }
  return firstRequestId(items)
}

/** Runs the batch items with bounded concurrency; assembles responses in request order. */
async function runBatch(items: readonly PreparedRequest[], payloadScope: RequestScope, run: Run): Promise<string | null> {
  const count = items.length
  const responses: (string | null | undefined)[] = new Array<string | null | undefined>(count)
  const scope = payloadScope.child()
  const cap = run.limits.maxBatchResponseBytes

  let nextToStart = 0
  let nextToCount = 0
  let bytes = 1 // the opening bracket
  /** Index of the first item answered with -32003; count while the cap holds. */
  let cutAt = count

  const countCompleted = (): void => {
    while (nextToCount < cutAt && responses[nextToCount] !== undefined) {
      const response = responses[nextToCount++]
      if (response === null || response === undefined) continue
      bytes += Buffer.byteLength(response) + 1
      if (bytes > cap) {
        cutAt = nextToCount
        scope.abort(new FlashnodeError('responseTooLarge', 'response too large'))
      }
    }
  }

  const worker = async (): Promise<void> => {
    while (nextToStart < cutAt) {
      const index = nextToStart++
      const response = await runOne(items[index]!, scope, run)
      if (index >= cutAt) continue
      responses[index] = response
      countCompleted()
    }
  }
  const workers: Promise<void>[] = []
  for (let i = 0; i < Math.min(run.limits.batchConcurrency, count); i++) workers.push(worker())
  await Promise.all(workers)

  const parts: string[] = []
  for (let i = 0; i < count; i++) {
    const item = items[i]!
    if (i >= cutAt) {
      if (!item.notification) {
        parts.push(errorMessage(item.id, { code: RPC_CODES.responseTooLarge, message: 'response too large' }))
      }
      continue
    }
    const response = responses[i]
    if (typeof response === 'string') parts.push(response)
  }
  return parts.length === 0 ? null : `[${parts.join(',')}]`
}

/**
 * One request to its response text (null for a notification), reported to the observer. Never rejects.
 * Written as one chain of `then`s rather than an async function per step: a single request is the common
 * payload (every eth_sendRawTransaction), and each async layer cost it a promise and a microtask turn.
 */
function runOne(request: PreparedRequest, scope: RequestScope, run: Run): Promise<string | null> {
  const started = run.observer === undefined ? 0 : performance.now()
  const done = (response: string | null, ok: boolean): string | null => {
    run.observer?.call(request.kind === 'call' ? request.method : 'unknown', ok ? 'ok' : 'error', (performance.now() - started) / 1000)
    return response
  }
  const failed = (err: unknown): string | null => {
    try {
      return done(request.notification ? null : errorMessage(request.id, toJsonRpcError(err, run.mapping)), false)
    } catch (bug) {
      // Only reachable through a bug in error mapping or the observer; still answer instead of rejecting.
      return request.notification ? null : errorMessage(request.id, toJsonRpcError(bug, run.mapping))
    }
  }
  if (request.kind === 'invalid') return Promise.resolve(failed(request.error))
  if (scope.reason !== undefined) return Promise.resolve(failed(scope.reason))
  return untilAborted(invoke(request, scope, run), scope).then(
    (result) => {
      if (request.notification) return done(null, true)
      let response: string
      try {
        response = resultMessage(request.id, result)
      } catch (err) {
        return failed(internalError(`result of ${request.method} could not be serialized`, err))
      }
      return done(response, true)
    },
    // Whatever a handler throws once its deadline passed (an AbortError, …) reads as the deadline.
    (err: unknown) => failed(scope.reason ?? err),
  )
}

/** The handler's result for `request`, as a promise (a synchronous throw becomes a rejection). */
function invoke(request: Extract<PreparedRequest, { kind: 'call' }>, scope: RequestScope, run: Run): Promise<unknown> {
  try {
    return Promise.resolve(request.handler(request.params, new RequestContext(scope, run)))
  } catch (err) {
    return Promise.reject(err)
  }
}

/** What a handler sees of its request; the AbortSignal is made on demand (most handlers never look). */
class RequestContext implements MethodContext {
  readonly endpoint: string
  readonly connection?: RpcConnection

  constructor(private readonly scope: RequestScope, run: Run) {
    this.endpoint = run.endpoint
    if (run.connection !== undefined) this.connection = run.connection
  }

  get signal(): AbortSignal {
    return this.scope.signal
  }
}

/** Settles with `pending`, or rejects with the abort reason when `scope` aborts first. */
function untilAborted<T>(pending: Promise<T>, scope: RequestScope): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    // The handler itself may have aborted the scope (synchronously) before we listen.
    if (scope.reason !== undefined) {
      pending.catch(() => {})
      reject(scope.reason)
      return
    }
    const stopListening = scope.onAbort(reject)
    pending.then(
      (value) => {
        stopListening()
        resolve(value)
      },
      (err: unknown) => {
        stopListening()
        reject(err)
      },
    )
  })
}
