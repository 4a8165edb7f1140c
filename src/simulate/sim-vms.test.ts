/**
 * A lent VM carries nothing from its previous block: a simulation answers the same on a fresh node as on
 * one whose simulation VMs ran other blocks before (here: the request contracts the previous block's
 * system calls touched, which a state override then empties).
 */

import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { createNode, DEFAULT_NODE_SETTINGS, DEFAULT_SEQUENCER, type FlashNode } from '../node/create-node.ts'
import { hexToBytes } from '../primitives/hex.ts'
import { LATEST } from '../primitives/block-id.ts'
import { testGenesis } from '../../test/support/dev-chain.ts'
import { tempDir } from '../../test/support/temp-dir.ts'
import { SYSTEM_CONTRACTS } from '../node/system-contracts.ts'
import type { SimulatePayload } from './types.ts'

async function node(t: TestContext): Promise<FlashNode> {
  const n = await createNode({
    ...DEFAULT_NODE_SETTINGS,
    dataDir: tempDir(t),
    genesis: testGenesis(),
    sequencer: { ...DEFAULT_SEQUENCER, mode: 'manual' },
    simulate: { computeStateRoot: true },
  })
  t.after(() => n.close())
  await n.start()
  return n
}

const payload = (overrides: SimulatePayload['blockStateCalls'][number]['stateOverrides']): SimulatePayload => ({
  blockStateCalls: [{ stateOverrides: overrides, calls: [] }],
  traceTransfers: false,
  validation: false,
  returnFullTransactions: false,
})

test('a simulation answers the same on reused simulation VMs as on fresh ones', async (t) => {
  const emptied = new Map(
    SYSTEM_CONTRACTS.filter((c) => /7002|7251/.test(c.name)).map((c) => [
      c.address,
      { code: new Uint8Array(0), nonce: 0n, balance: 0n, stateDiff: new Map([[`0x${'00'.repeat(31)}99`, hexToBytes('0x01')]]) },
    ]),
  )
  const [fresh, reused] = await Promise.all([node(t), node(t)])
  await reused.api.simulateV1(payload(undefined), LATEST)
  assert.deepEqual(await reused.api.simulateV1(payload(emptied), LATEST), await fresh.api.simulateV1(payload(emptied), LATEST))
})
