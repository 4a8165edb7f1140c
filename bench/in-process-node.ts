/**
 * A Flashnode started inside the bench's own process (manual sealing, HTTP on an ephemeral loopback port), for
 * the paired measurements that time the sequencer's calls directly (op-build-paired.ts, callpath-paired.ts).
 * The node's modules come from the caller: this checkout's, or another checkout's imported from its sources,
 * so two versions can be built alternately in one process. It owns the data directory it makes and removes it
 * at close; it never spawns a process.
 */

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { RunningNode } from './nodes.ts'

/** What starting a node takes from a checkout (src/node/create-node.ts, src/cli/…). */
export interface NodeModules {
  // Loosely typed: another checkout's versions of these need not match this one's types.
  readonly createNode: (settings: never) => Promise<unknown>
  readonly DEFAULT_NODE_SETTINGS: object
  readonly sequencerSettingsOf: (options: never) => unknown
  readonly parseCommandLine: (command: 'start', args: string[]) => { options: unknown }
  readonly serve: (node: never, options: object) => Promise<{ url: string; close(): Promise<void> }>
}

export interface InProcessNode<N> {
  readonly node: N
  readonly url: string
  /** The nonce book's key for this node (txs.ts). */
  readonly key: RunningNode
  close(): Promise<void>
}

/** The modules of the checkout at `dir`, imported from its sources (run under tsx). */
export async function modulesOf(dir: string): Promise<NodeModules> {
  const imp = (p: string): Promise<Record<string, unknown>> => import(pathToFileURL(join(dir, p)).href)
  const [node, config, options, serve] = await Promise.all([imp('src/node/create-node.ts'), imp('src/cli/node-config.ts'), imp('src/cli/options.ts'), imp('src/cli/serve.ts')])
  return { ...node, ...config, ...options, ...serve } as unknown as NodeModules
}

/** Starts a node on `genesis` with manual sealing; `settings` add to the node's (e.g. recoveryWorkers). */
export async function startInProcess<N>(m: NodeModules, genesis: unknown, name: string, settings: object = {}): Promise<InProcessNode<N>> {
  const dataDir = mkdtempSync(join(tmpdir(), `flashnode-${name}-`))
  const { options } = m.parseCommandLine('start', ['--sealing', 'manual'])
  const node = (await m.createNode({ ...m.DEFAULT_NODE_SETTINGS, dataDir, genesis, sequencer: m.sequencerSettingsOf(options as never), ...settings } as never)) as N & { start(): Promise<void>; close(): Promise<void> }
  await node.start()
  const server = await m.serve(node as never, { host: '127.0.0.1', port: 0, revertCode: -32000, debug: false, allowedHosts: ['localhost'], preconfirmations: true })
  return {
    node,
    url: server.url,
    key: {} as RunningNode,
    close: async () => {
      await server.close()
      await node.close()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
