/**
 * An endpoint's policy: its profile applied to the node's method table, plus the admission gate the
 * transport consults per payload (see rpc/transport/gate.ts).
 *
 * The gate's order: the rate limit first (every payload costs one token per request, whatever it asks,
 * so refused and malformed requests count too), then the profile's forbidden methods. Over the rate limit:
 * HTTP 429, -32005 `rate limit exceeded: …` and a Retry-After header, and nothing of the payload runs. A
 * forbidden method: -32004 `<method> is not available on public endpoints: …`; a single request gets it
 * with HTTP 403 (the contract: eth_getBlockReceipts answers 403 on public endpoints), a batch item gets it
 * as its own answer inside the batch's 200 array while the other items run (the transport's rule, gate.ts).
 * A client whose bucket is already empty is refused before its body is parsed (the transport still finds
 * the request's id in the text to echo); one refused after parsing (a batch bigger than what is left)
 * echoes the first request id. Every HTTP answer of a rate-limited endpoint carries the client's
 * X-RateLimit-Limit/-Remaining/-Reset headers (rateLimitHeaders below), 429s and 403s included.
 *
 * Clients are keyed by the socket's remote address (IPv4-mapped IPv6 read as IPv4). Behind a reverse proxy
 * every client shares the proxy's address: X-Forwarded-For is not trusted (no setting for it yet).
 */

import { FlashnodeError } from '../../errors/errors.ts'
import type { MethodHandler, MethodTable } from '../registry.ts'
import type { GateFactory, PayloadGate, Refusal } from '../transport/gate.ts'
import { PROFILES, serves, type ProfileName } from './profiles.ts'
import { RateLimiter, type RateLimit } from './rate-limiter.ts'
import { RPC_MODULES, rpcModulesMethod } from '../methods/rpc-modules.ts'

export interface EndpointPolicyOptions {
  readonly profile: ProfileName
  /** The endpoint's rate limit; `false` turns the profile's default off; absent: the profile's default. */
  readonly rateLimit?: RateLimit | false
  /** Whether the node pre-confirms (sequences); without, eth_simulateV1 is not served. */
  readonly preconfirmations: boolean
  /** Clock of the rate limiter, in milliseconds (tests inject one). */
  readonly now?: () => number
}

export interface EndpointPolicy {
  readonly profile: ProfileName
  /** The methods this endpoint serves, rpc_modules (the namespaces of the others) among them. */
  readonly methods: MethodTable
  /** Methods answered HTTP 403. */
  readonly forbidden: ReadonlySet<string>
  readonly rateLimiter: RateLimiter | undefined
  /** Undefined when the endpoint neither limits rates nor forbids anything. */
  readonly gate: GateFactory | undefined
}

export function endpointPolicy(all: MethodTable, opts: EndpointPolicyOptions): EndpointPolicy {
  const profile = PROFILES[opts.profile]
  const methods = new Map<string, MethodHandler>()
  for (const [name, handler] of all) if (serves(profile, name, opts.preconfirmations)) methods.set(name, handler)
  // Every endpoint says which namespaces it serves (its own answer: the profile decides them).
  methods.set(RPC_MODULES, rpcModulesMethod(methods))
  const forbidden = new Set(profile.forbidden.filter((name) => all.has(name)))
  const limit = opts.rateLimit === undefined ? profile.rateLimit : opts.rateLimit === false ? undefined : opts.rateLimit
  const rateLimiter = limit === undefined ? undefined : new RateLimiter(limit, opts.now)
  const gate = rateLimiter === undefined && forbidden.size === 0 ? undefined : gateFactory(rateLimiter, forbidden, opts.profile)
  return { profile: opts.profile, methods, forbidden, rateLimiter, gate }
}

function gateFactory(limiter: RateLimiter | undefined, forbidden: ReadonlySet<string>, profile: ProfileName): GateFactory {
  return (client: string): PayloadGate => {
    const gate: PayloadGate = {
      beforeParse: () => {
        if (limiter === undefined) return undefined
        const available = limiter.available(client)
        if (available >= 1) return undefined
        return rateLimited(limiter, 1, ((1 - available) * 1000) / limiter.limit.requestsPerSecond)
      },
      admit: (methods) => {
        if (limiter !== undefined) {
          const taken = limiter.take(client, methods.length)
          if (!taken.ok) return rateLimited(limiter, methods.length, taken.retryAfterMs)
        }
        return undefined
      },
      refuse: (method) => {
        if (!forbidden.has(method)) return undefined
        const message = `${method} is not available on ${profile} endpoints: use a dedicated endpoint`
        return { status: 403, error: new FlashnodeError('forbidden', message) }
      },
    }
    if (limiter !== undefined) gate.headers = () => rateLimitHeaders(limiter, limiter.available(client))
    return gate
  }
}

/**
 * The client's rate-limit state, on every HTTP answer of a rate-limited endpoint: `X-RateLimit-Limit` the
 * bucket's size (the burst: requests a client may make at once), `X-RateLimit-Remaining` the whole
 * requests it may make now, `X-RateLimit-Reset` whole seconds until the bucket is full again (0: full).
 */
export function rateLimitHeaders(limiter: RateLimiter, tokens: number): Record<string, string> {
  const { requestsPerSecond, burst } = limiter.limit
  return {
    'X-RateLimit-Limit': String(burst),
    'X-RateLimit-Remaining': String(Math.floor(tokens)),
    'X-RateLimit-Reset': String(Math.ceil((burst - tokens) / requestsPerSecond)),
  }
}

function rateLimited(limiter: RateLimiter, cost: number, retryAfterMs: number): Refusal {
  const { requestsPerSecond, burst } = limiter.limit
  const message =
    cost > burst
      ? `rate limit exceeded: a batch of ${cost} requests is more than the burst of ${burst} per client`
      : `rate limit exceeded: ${requestsPerSecond} requests per second per client (burst ${burst})`
  const error = new FlashnodeError('limitExceeded', message)
  if (!Number.isFinite(retryAfterMs)) return { status: 429, error }
  return { status: 429, error, headers: { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterMs / 1000))) } }
}
