/**
 * A node that sequences in manual mode, driven in-process through its facade (node.api): nothing happens
 * until a test calls flashblock() or mine(); the sequencer's clock is a ManualScheduler, never the wall clock.
 * `rpc` answers a JSON-RPC method through the real method table (params parsed, result formatted), in-process.
 */

import type { TestContext } from 'node:test'
import { createNode, DEFAULT_NODE_SETTINGS, DEFAULT_SEQUENCER, type FlashNode, type NodeConfig } from '../../src/node/create-node.ts'
import { ManualScheduler } from '../../src/sequencer/scheduler.ts'
import { createEthMethods } from '../../src/rpc/methods/index.ts'
import { serve, type ServeOptions } from '../../src/cli/serve.ts'
import { RawJson } from '../../src/rpc/transport/messages.ts'
import { testGenesis } from './dev-chain.ts'
import { tempDir } from './temp-dir.ts'

/** A manual node not started yet (its first block not opened: for what happens before). Closed when the test ends. */
export async function unstartedManualNode(
  t: TestContext,
  sequencer: Partial<NonNullable<NodeConfig['sequencer']>> = {},
  dataDir = tempDir(t),
  config: Partial<NodeConfig> = {},
): Promise<FlashNode> {
  const node = await createNode({
    ...DEFAULT_NODE_SETTINGS,
    dataDir,
    genesis: testGenesis(),
    sequencer: { ...DEFAULT_SEQUENCER, mode: 'manual', scheduler: new ManualScheduler(Date.now()), ...sequencer },
    ...config,
  })
  t.after(() => node.close())
  return node
}

/** A manual node, started: its first block is open. Closed when the test ends. */
export async function manualNode(...args: Parameters<typeof unstartedManualNode>): Promise<FlashNode> {
  const node = await unstartedManualNode(...args)
  await node.start()
  return node
}

/** A manual node behind a real server on an ephemeral loopback port; both are stopped when the test ends. */
export async function servedManualNode(
  t: TestContext,
  serveOpts: Partial<ServeOptions> = {},
  config: Partial<NodeConfig> = {},
): Promise<{ node: FlashNode; url: string }> {
  const node = await manualNode(t, {}, tempDir(t), config)
  const server = await serve(node, { host: '127.0.0.1', port: 0, revertCode: -32000, debug: false, allowedHosts: ['localhost'], ...serveOpts })
  t.after(() => server.close())
  return { node, url: server.url }
}

/** Calls one JSON-RPC method of the node's method table in-process; the answer as a client would parse it. */
export async function rpc(node: FlashNode, method: string, params: unknown[]): Promise<any> {
  const handler = createEthMethods(node.api).get(method)
  if (handler === undefined) throw new Error(`no method ${method}`)
  const answer = await handler(params, { signal: new AbortController().signal, endpoint: 'test' })
  return JSON.parse(answer instanceof RawJson ? answer.json : JSON.stringify(answer))
}

/**
 * A follower of `leader` in this process, on its own datadir, fetching sealed blocks straight from the
 * leader's store (no HTTP): for tests that look at a follower's own figures. Closed after the test.
 */
export async function inProcessFollower(t: TestContext, leader: FlashNode): Promise<FlashNode> {
  const follower = await createNode({
    ...DEFAULT_NODE_SETTINGS,
    dataDir: tempDir(t),
    genesis: testGenesis(),
    follow: { sealed: { blocks: async (from, to) => Array.from({ length: Number(to - from) + 1 }, (_, i) => leader.chain.store.blockRlp(from + BigInt(i))!) } },
  })
  t.after(() => follower.close())
  return follower
}
