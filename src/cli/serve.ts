/**
 * Puts a node on the network: the eth method table over the HTTP/WebSocket transport.
 */

import type { FlashNode } from '../node/create-node.ts'
import { createEthMethods } from '../rpc/methods/index.ts'
import { startHttpServer, type RunningHttpServer } from '../rpc/transport/http-server.ts'

export interface ServeOptions {
  readonly host: string
  readonly port: number
  readonly revertCode: number
  readonly debug: boolean
  readonly allowedHosts: readonly string[]
  readonly corsOrigins?: readonly string[]
  readonly endpoint?: string
}

export function serve(node: FlashNode, opts: ServeOptions): Promise<RunningHttpServer> {
  return startHttpServer({
    host: opts.host,
    port: opts.port,
    methods: createEthMethods(node.api),
    endpoint: opts.endpoint ?? 'default',
    revertCode: opts.revertCode,
    debug: opts.debug,
    allowedHosts: opts.allowedHosts,
    ...(opts.corsOrigins !== undefined ? { corsOrigins: opts.corsOrigins } : {}),
  })
}

export const splitList = (s: string | undefined): string[] | undefined =>
  s === undefined ? undefined : s.split(',').map((x) => x.trim()).filter((x) => x.length > 0)
