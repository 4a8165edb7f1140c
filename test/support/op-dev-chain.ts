/**
 * A real node on the tests' dev chain with the OP Stack predeploys of src/opstack/dev-genesis.ts in its genesis,
 * and a viem client on its JSON-RPC endpoint: what the predeploy tests call the GasPriceOracle and L1Block through.
 */

import type { TestContext } from 'node:test'
import { createPublicClient, http, type PublicClient } from 'viem'
import { withOpPredeploys, type DevL1Parameters } from '../../src/opstack/dev-genesis.ts'
import type { OpForkName } from '../../src/opstack/forks.ts'
import { testGenesis } from './dev-chain.ts'
import { startNode } from './server.ts'
import { tempDir } from './temp-dir.ts'

export async function opDevClient(t: TestContext, fork: OpForkName, l1?: DevL1Parameters): Promise<PublicClient> {
  const running = await startNode(t, tempDir(t), withOpPredeploys(testGenesis(), fork, l1))
  return createPublicClient({ transport: http(running.url) })
}
