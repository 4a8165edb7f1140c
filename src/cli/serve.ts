/**
 * Puts a node on the network: the eth method table over the HTTP/WebSocket transport, once per endpoint.
 *
 * Each endpoint gets its profile's policy (rpc/policy): the methods it serves, the ones it answers 403, its
 * rate limit; plus its own Host/CORS rules and transport limits; and the node's facade with or without
 * pre-confirmations (`preconfirmations: false` serves sealed state only: node/node-service.ts), so one node
 * serves both kinds of endpoint. One method table is built per facade and shared by its endpoints.
 * `serveEndpoints` starts them all or none: when one cannot listen, the ones already started are closed
 * before the error is passed on.
 */

import type { FlashNode } from '../node/create-node.ts'
import type { NodeApi } from '../node/api.ts'
import { createEthMethods } from '../rpc/methods/index.ts'
import { endpointPolicy } from '../rpc/policy/endpoint-policy.ts'
import { DEFAULT_PROFILE, type ProfileName } from '../rpc/policy/profiles.ts'
import type { RateLimit } from '../rpc/policy/rate-limiter.ts'
import type { MethodTable } from '../rpc/registry.ts'
import type { HeadsCadence, SubscriptionOptions } from '../rpc/subscriptions.ts'
import { startHttpServer, type RunningHttpServer, type TransportLimits } from '../rpc/transport/http-server.ts'
import type { EndpointConfig } from './endpoint-config.ts'
import { liveViewPage } from '../ui/live-view.ts'

export { splitList } from './endpoint-config.ts'

export interface ServeOptions {
  readonly host: string
  readonly port: number
  readonly revertCode: number
  readonly debug: boolean
  readonly allowedHosts: readonly string[]
  readonly corsOrigins?: readonly string[]
  readonly endpoint?: string
  /** Default: dedicated. */
  readonly profile?: ProfileName
  /** Absent: the profile's default; false: none. */
  readonly rateLimit?: RateLimit | false
  readonly limits?: Partial<TransportLimits>
  readonly websocket?: boolean
  /** Clock of the rate limiter (ms); tests inject one. */
  readonly now?: () => number
  /** Where unexpected errors go; console.error when absent. */
  readonly log?: (message: string, err: unknown) => void
  /** False: the endpoint serves sealed state only (node.sealedApi). Default: the node's pre-confirmations. */
  readonly preconfirmations?: boolean
  /** When newHeads announces a head (rpc/subscriptions.ts); default: every flashblock where pending is pre-confirmed. */
  readonly newHeads?: HeadsCadence
  /** The live view (GET / from a browser) and GET /status. Default: on, but off on a public endpoint. */
  readonly ui?: boolean
  /** GET /leader (a sequencer group's member): 200 while it leads, 503 otherwise. */
  readonly leader?: () => { readonly leading: boolean; readonly body: unknown }
  /** The method table of this endpoint's facade, when already built (shared by several endpoints). */
  readonly methods?: MethodTable
}

export interface RunningEndpoint extends RunningHttpServer {
  readonly name: string
  readonly profile: ProfileName
  /** Whether `pending` is the pre-confirmed state on this endpoint. */
  readonly preconfirmations: boolean
}

const headsOption = (heads: HeadsCadence | undefined): SubscriptionOptions => (heads === undefined ? {} : { heads })

/** The facade an endpoint serves. */
const facadeOf = (node: FlashNode, preconfirmations: boolean | undefined): NodeApi => (preconfirmations === false ? node.sealedApi : node.api)

export async function serve(node: FlashNode, opts: ServeOptions): Promise<RunningEndpoint> {
  const profile = opts.profile ?? DEFAULT_PROFILE
  const api = facadeOf(node, opts.preconfirmations)
  const policy = endpointPolicy(opts.methods ?? createEthMethods(api, node.ports, headsOption(opts.newHeads)), {
    profile,
    preconfirmations: api.preconfirmations,
    ...(opts.rateLimit !== undefined ? { rateLimit: opts.rateLimit } : {}),
    ...(opts.now !== undefined ? { now: opts.now } : {}),
  })
  const name = opts.endpoint ?? 'default'
  const server = await startHttpServer({
    host: opts.host,
    port: opts.port,
    methods: policy.methods,
    endpoint: name,
    revertCode: opts.revertCode,
    debug: opts.debug,
    allowedHosts: opts.allowedHosts,
    ...(opts.corsOrigins !== undefined ? { corsOrigins: opts.corsOrigins } : {}),
    ...(opts.limits !== undefined ? { limits: opts.limits } : {}),
    ...(opts.websocket !== undefined ? { websocket: opts.websocket } : {}),
    ...(policy.gate !== undefined ? { gate: policy.gate } : {}),
    // The flashblock stream is pre-confirmed state: not on an endpoint without pre-confirmations.
    ...(node.stream !== undefined && api.preconfirmations ? { flashblocks: node.stream } : {}),
    ...(opts.log !== undefined ? { log: opts.log } : {}),
    // Every endpoint's calls are counted; the exposition is not served on a public endpoint.
    ...(node.metrics !== undefined ? { observer: node.metrics } : {}),
    ...(node.metrics !== undefined && profile !== 'public' ? { metrics: () => node.metrics!.exposition() } : {}),
    readiness: () => node.readiness(),
    ...(opts.leader !== undefined ? { leader: opts.leader } : {}),
    ...((opts.ui ?? profile !== 'public') ? { page: liveViewPage(), status: () => node.status(api.preconfirmations) } : {}),
  })
  node.metrics?.addConnections(() => server.connections())
  return Object.assign(server, { name, profile, preconfirmations: api.preconfirmations })
}

export interface SharedServeOptions {
  readonly revertCode: number
  readonly debug: boolean
  /** GET /leader on every endpoint (a sequencer group's member). */
  readonly leader?: () => { readonly leading: boolean; readonly body: unknown }
  readonly now?: () => number
  readonly log?: (message: string, err: unknown) => void
}

/** Starts every endpoint of `endpoints` on `node`, or none of them. */
export async function serveEndpoints(
  node: FlashNode,
  endpoints: readonly EndpointConfig[],
  shared: SharedServeOptions,
): Promise<RunningEndpoint[]> {
  // One table per facade and heads cadence, shared by the endpoints that serve the same.
  const tables = new Map<string, MethodTable>()
  const tableOf = (e: EndpointConfig): MethodTable => {
    const api = facadeOf(node, e.preconfirmations)
    const key = `${api === node.api}/${e.newHeads ?? ''}`
    let table = tables.get(key)
    if (table === undefined) tables.set(key, (table = createEthMethods(api, node.ports, headsOption(e.newHeads))))
    return table
  }
  const running: RunningEndpoint[] = []
  try {
    for (const e of endpoints) {
      running.push(await serve(node, {
        ...shared,
        methods: tableOf(e),
        preconfirmations: e.preconfirmations,
        endpoint: e.name,
        host: e.host,
        port: e.port,
        profile: e.profile,
        allowedHosts: e.allowedHosts,
        limits: e.limits,
        websocket: e.websocket,
        ui: e.ui,
        ...(e.newHeads !== undefined ? { newHeads: e.newHeads } : {}),
        ...(e.rateLimit !== undefined ? { rateLimit: e.rateLimit } : {}),
        ...(e.cors !== undefined ? { corsOrigins: e.cors } : {}),
      }))
    }
  } catch (err) {
    await Promise.all(running.map((r) => r.close()))
    throw new Error(`endpoint "${endpoints[running.length]?.name}" could not start: ${(err as Error).message}`, { cause: err })
  }
  return running
}
