/**
 * A real node behind a real JSON-RPC server on an ephemeral loopback port, stopped when the test ends.
 */

import type { TestContext } from 'node:test'
import { createNode, DEFAULT_NODE_SETTINGS, type FlashNode, type NodeConfig } from '../../src/node/create-node.ts'
import { serve } from '../../src/cli/serve.ts'
import type { GethGenesis } from '../../src/execution/chain-config.ts'

export interface RunningNode {
  readonly node: FlashNode
  readonly url: string
  stop(): Promise<void>
}

export async function startNode(
  t: TestContext,
  dataDir: string,
  genesis: GethGenesis,
  overrides: Partial<NodeConfig> = {},
  revertCode = -32000,
  preconfirmations = true,
): Promise<RunningNode> {
  const node = await createNode({ ...DEFAULT_NODE_SETTINGS, dataDir, genesis, ...overrides })
  const server = await serve(node, { host: '127.0.0.1', port: 0, revertCode, debug: false, allowedHosts: ['localhost'], preconfirmations })
  let stopped = false
  const stop = async () => {
    if (stopped) return
    stopped = true
    await server.close()
    await node.close()
  }
  t.after(stop)
  return { node, url: server.url, stop }
}
