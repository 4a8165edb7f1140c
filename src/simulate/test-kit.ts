/**
 * Test helpers for the simulation modules: the JSON-RPC code of the FlashnodeError a step throws, a node
 * that seals on demand, and a sealed block restated as a simulated block (its environment, its transactions
 * as calls) for comparing the simulator with what the sequencer really built.
 */

import type { TestContext } from 'node:test'
import { FlashnodeError } from '../errors/errors.ts'
import { createNode, DEFAULT_NODE_SETTINGS, DEFAULT_SEQUENCER, type FlashNode } from '../node/create-node.ts'
import { testGenesis } from '../../test/support/dev-chain.ts'
import { tempDir } from '../../test/support/temp-dir.ts'
import type { SimBlockInput, SimulateSettings } from './types.ts'

export function code(fn: () => unknown): number | undefined {
  try {
    fn()
  } catch (e) {
    if (e instanceof FlashnodeError) return e.code
    throw e
  }
  return undefined
}

/** A dev-chain node with manual sealing (or, with `sequencer` false, a read-only one), started. */
export async function sequencingNode(t: TestContext, simulate: Partial<SimulateSettings> = {}, sequencer = true): Promise<FlashNode> {
  const node = await createNode({
    ...DEFAULT_NODE_SETTINGS,
    dataDir: tempDir(t),
    genesis: testGenesis(),
    ...(sequencer ? { sequencer: { ...DEFAULT_SEQUENCER, mode: 'manual' as const } } : {}),
    simulate,
  })
  t.after(() => node.close())
  await node.start()
  return node
}

/** Sealed block `n` as a simulated block: its environment as overrides, its transactions as calls. */
export function replayOf(node: FlashNode, n: bigint): SimBlockInput {
  const h = node.chain.header(n)!
  return {
    blockOverrides: {
      number: h.number,
      time: h.timestamp,
      gasLimit: h.gasLimit,
      feeRecipient: h.coinbase.bytes,
      prevRandao: h.mixHash,
      ...(h.parentBeaconBlockRoot !== undefined ? { beaconRoot: h.parentBeaconBlockRoot } : {}),
    },
    calls: node.chain.block(n)!.transactions.map((tx) => ({
      from: tx.from,
      to: tx.to,
      value: tx.value,
      gas: tx.gasLimit,
      nonce: tx.nonce,
      data: tx.data,
      maxFeePerGas: tx.maxFeePerGas!,
      maxPriorityFeePerGas: tx.maxPriorityFeePerGas!,
    })),
  }
}
