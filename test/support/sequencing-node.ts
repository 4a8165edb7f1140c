/**
 * A node that sequences in manual mode, driven in-process through its facade (node.api): nothing happens
 * until a test calls flashblock() or mine(); the sequencer's clock is a ManualScheduler, never the wall clock.
 */

import type { TestContext } from 'node:test'
import { createNode, DEFAULT_NODE_SETTINGS, DEFAULT_SEQUENCER, type FlashNode, type NodeConfig } from '../../src/node/create-node.ts'
import { ManualScheduler } from '../../src/sequencer/scheduler.ts'
import { testGenesis } from './dev-chain.ts'
import { tempDir } from './temp-dir.ts'

export async function manualNode(
  t: TestContext,
  sequencer: Partial<NonNullable<NodeConfig['sequencer']>> = {},
  dataDir = tempDir(t),
): Promise<FlashNode> {
  const node = await createNode({
    ...DEFAULT_NODE_SETTINGS,
    dataDir,
    genesis: testGenesis(),
    sequencer: { ...DEFAULT_SEQUENCER, mode: 'manual', scheduler: new ManualScheduler(Date.now()), ...sequencer },
  })
  t.after(() => node.close())
  await node.start()
  return node
}
