/**
 * Serves the ../shared/rpc-compat test chain with the conformance settings, for any external runner (as
 * hive does with client start scripts) and for our own conformance test.
 *
 *   npm run serve:rpc-compat -- [--port N] [--datadir DIR] [--host ADDR]
 *
 * On first use it creates the chain from genesis.json and imports chain.rlp (every block checked); later
 * starts on the same data directory resume it. Settings: geth's revert code (3, also inside eth_simulateV1
 * call results), real eth_simulateV1 state roots (the contract's are zero), no automatic sealing,
 * head = safe = finalized = the last imported block.
 */

import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { createNode, DEFAULT_NODE_SETTINGS, DEFAULT_SEQUENCER } from '../src/node/create-node.ts'
import { serve } from '../src/cli/serve.ts'
import type { GethGenesis } from '../src/execution/chain-config.ts'

const TESTS = fileURLToPath(new URL('../../shared/rpc-compat/tests/', import.meta.url))
const GETH_REVERT_CODE = 3

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '8545' },
    host: { type: 'string', default: '127.0.0.1' },
    datadir: { type: 'string', default: '.flashnode-rpc-compat' },
  },
})

const genesis = JSON.parse(readFileSync(`${TESTS}genesis.json`, 'utf8')) as GethGenesis
const node = await createNode({
  ...DEFAULT_NODE_SETTINGS,
  dataDir: values.datadir!,
  genesis,
  executionWorkers: 1,
  sequencer: { ...DEFAULT_SEQUENCER, mode: 'manual' },
  simulate: { computeStateRoot: true, revertCode: GETH_REVERT_CODE },
})
const result = await node.writer.importRlp(new Uint8Array(readFileSync(`${TESTS}chain.rlp`)))
await node.start()
const server = await serve(node, {
  host: values.host!,
  port: Number(values.port),
  revertCode: GETH_REVERT_CODE,
  debug: false,
  allowedHosts: ['localhost'],
  endpoint: 'rpc-compat',
})
console.log(`rpc-compat chain at block ${result.head} (${result.imported} imported, ${result.skipped} known)`)
console.log(`flashnode listening on ${server.url}`)

const stop = async () => {
  await server.close()
  await node.close()
  process.exit(0)
}
process.on('SIGINT', () => void stop())
process.on('SIGTERM', () => void stop())
