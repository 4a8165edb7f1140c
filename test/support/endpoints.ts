/**
 * One real node behind several real endpoints (serveEndpoints, as `flashnode start --config` runs it), on
 * ephemeral loopback ports, stopped when the test ends; plus raw HTTP helpers for what fetch hides (status
 * with headers, Host header, the client's local address, connection reuse).
 */

import type { TestContext } from 'node:test'
import { request as httpRequest, type Agent, type IncomingHttpHeaders } from 'node:http'
import { createNode, DEFAULT_NODE_SETTINGS, DEFAULT_SEQUENCER, type FlashNode, type NodeConfig } from '../../src/node/create-node.ts'
import { ManualScheduler } from '../../src/sequencer/scheduler.ts'
import { serveEndpoints, type RunningEndpoint } from '../../src/cli/serve.ts'
import type { EndpointConfig } from '../../src/cli/endpoint-config.ts'
import { testGenesis } from './dev-chain.ts'
import { tempDir } from './temp-dir.ts'

export interface EndpointsNode {
  readonly node: FlashNode
  /** By endpoint name. */
  readonly endpoints: ReadonlyMap<string, RunningEndpoint>
  /** Messages the servers logged as unexpected errors. */
  readonly logged: string[]
}

export interface EndpointsNodeOptions {
  /** With a sequencer in manual mode on an injected clock (default), or a read-only node. */
  readonly preconfirmations?: boolean
  /** Clock of the rate limiters. */
  readonly now?: () => number
  readonly node?: Partial<NodeConfig>
}

/** An endpoint config with the defaults the config file would fill in. */
export function endpoint(name: string, fields: Partial<EndpointConfig> = {}): EndpointConfig {
  return { name, host: '127.0.0.1', port: 0, profile: 'dedicated', allowedHosts: ['localhost'], limits: {}, websocket: true, preconfirmations: true, ui: fields.profile !== 'public', ...fields }
}

export async function startEndpoints(t: TestContext, endpoints: EndpointConfig[], opts: EndpointsNodeOptions = {}): Promise<EndpointsNode> {
  const config: NodeConfig = {
    ...DEFAULT_NODE_SETTINGS,
    dataDir: tempDir(t),
    genesis: testGenesis(),
    ...(opts.preconfirmations === false ? {} : { sequencer: { ...DEFAULT_SEQUENCER, mode: 'manual', scheduler: new ManualScheduler(), syncTimeoutMs: 200 } }),
    ...opts.node,
  }
  const node = await createNode(config)
  await node.start()
  const logged: string[] = []
  const running = await serveEndpoints(node, endpoints, {
    revertCode: -32000,
    debug: false,
    ...(opts.now !== undefined ? { now: opts.now } : {}),
    log: (message, err) => logged.push(`${message}: ${err instanceof Error ? err.stack : String(err)}`),
  })
  t.after(async () => {
    await Promise.all(running.map((r) => r.close()))
    await node.close()
  })
  return { node, endpoints: new Map(running.map((r) => [r.name, r])), logged }
}

export interface RawResponse {
  readonly status: number
  readonly headers: IncomingHttpHeaders
  readonly text: string
  /** Whether the request went over a kept-alive socket of the agent. */
  readonly reusedSocket: boolean
  json(): unknown
}

export interface RawRequest {
  readonly body?: string
  readonly method?: string
  readonly headers?: Record<string, string>
  /** Client address to connect from (any 127.x.y.z works on loopback). */
  readonly localAddress?: string
  readonly agent?: Agent
}

/** One HTTP request with node:http; never rejects on an HTTP status. */
export function rawRequest(url: string, req: RawRequest): Promise<RawResponse> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve, reject) => {
    const r = httpRequest(
      {
        host: hostname,
        port,
        method: req.method ?? 'POST',
        path: '/',
        headers: { 'content-type': 'application/json', ...req.headers },
        ...(req.localAddress !== undefined ? { localAddress: req.localAddress } : {}),
        agent: req.agent ?? false,
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString()
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, reusedSocket: r.reusedSocket, json: () => JSON.parse(text) })
        })
        res.on('error', reject)
      },
    )
    r.on('error', reject)
    r.end(req.body)
  })
}

export const call = (id: number | string, method: string, params: unknown[] = []): Record<string, unknown> => ({ jsonrpc: '2.0', id, method, params })

/** POSTs a JSON-RPC payload (an object or a batch). */
export const post = (url: string, payload: unknown, req: Omit<RawRequest, 'body'> = {}): Promise<RawResponse> =>
  rawRequest(url, { ...req, body: JSON.stringify(payload) })
