/**
 * rpc_modules, geth's RPCService.Modules: `{namespace: "1.0"}` for every namespace this endpoint serves,
 * `rpc` included. It depends on the endpoint (a public profile serves no debug_ or txpool_), so the endpoint
 * policy adds it to the table it has filtered (rpc/policy/endpoint-policy.ts); it is not in the node's table.
 */

import type { MethodHandler, MethodTable } from '../registry.ts'
import { parseArgs } from '../params/args.ts'

export const RPC_MODULES = 'rpc_modules'

/** The handler for an endpoint serving `served` (rpc_modules itself aside). */
export function rpcModulesMethod(served: MethodTable): MethodHandler {
  const namespaces = new Set<string>(['rpc'])
  for (const name of served.keys()) {
    const underscore = name.indexOf('_')
    if (underscore > 0) namespaces.add(name.slice(0, underscore))
  }
  const answer: Record<string, string> = {}
  for (const namespace of [...namespaces].sort()) answer[namespace] = '1.0'
  return async (params) => {
    parseArgs(params, [])
    return { ...answer }
  }
}
