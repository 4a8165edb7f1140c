/**
 * eth_config on the --op-stack dev chain over HTTP (issue 41), as Base's node answers on an OP chain
 * (base/base crates/execution/rpc/src/config.rs): every OP fork active at genesis, so one `current` fork and
 * no `next`; a zero blob schedule (the chain takes no blob transactions); the system contracts the OP forks
 * brought (beacon roots from Ecotone, history storage from Isthmus) and none of L1's deposit or request
 * contracts; the OP precompile set (P256VERIFY at 0x100 from Fjord, beside Prague's 0x01..0x11).
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { parseCommandLine } from '../../src/cli/options.ts'
import { chooseGenesis } from '../../src/cli/chain-setup.ts'
import { sequencerSettingsOf } from '../../src/cli/node-config.ts'
import { startNode } from '../support/server.ts'
import { tempDir } from '../support/temp-dir.ts'

test('eth_config on an OP chain: no blob capacity, the OP system contracts and precompiles', { timeout: 60_000 }, async (t) => {
  const { options } = parseCommandLine('start', ['--op-stack', '--sealing', 'manual'])
  const running = await startNode(t, join(tempDir(t), 'chain'), chooseGenesis(options).genesis, { sequencer: sequencerSettingsOf(options) })
  const res = await fetch(running.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_config', params: [] }) })
  const { result } = (await res.json()) as { result: { current: Record<string, unknown>; next: unknown; last: unknown } }
  assert.equal(result.next, null)
  assert.equal(result.last, null)
  assert.equal(result.current.activationTime, 0)
  assert.equal(result.current.chainId, '0x7a69')
  assert.deepEqual(result.current.blobSchedule, { baseFeeUpdateFraction: 0, max: 0, target: 0 })
  assert.deepEqual(result.current.systemContracts, {
    BEACON_ROOTS_ADDRESS: '0x000f3df6d732807ef1319fb7b8bb8522d0beac02',
    HISTORY_STORAGE_ADDRESS: '0x0000f90827f1c53a10cb7a02335b175320002935',
  })
  const precompiles = result.current.precompiles as Record<string, string>
  assert.equal(precompiles.P256VERIFY, '0x0000000000000000000000000000000000000100')
  assert.equal(precompiles.KZG_POINT_EVALUATION, '0x000000000000000000000000000000000000000a')
  assert.equal(Object.keys(precompiles).length, 18)
})
