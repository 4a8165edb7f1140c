/** Command-line options -> an open node on the data directory's chain (created on first use). */

import { createNode, DEFAULT_NODE_SETTINGS, storedGenesis, type FlashNode } from '../node/create-node.ts'
import { chooseGenesis } from './chain-setup.ts'
import type { ParsedOptions } from './options.ts'

export async function openNode(options: ParsedOptions): Promise<{ node: FlashNode; created: boolean }> {
  const existing = storedGenesis(options.datadir)
  const genesis = existing === undefined || options.genesis !== undefined ? chooseGenesis(options).genesis : undefined
  const node = await createNode({
    ...DEFAULT_NODE_SETTINGS,
    dataDir: options.datadir,
    ...(genesis !== undefined ? { genesis } : {}),
    gasCap: options['rpc-gas-cap'],
    evmTimeoutMs: options['evm-timeout'],
  })
  return { node, created: existing === undefined }
}
