/**
 * After a crash, the resumed open block has exactly the environment it was opened with (read back from the
 * journal): number, parent, timestamp, gas limit, coinbase, extra data, randomness, beacon root, base fee.
 * Values whose hex form has an odd number of digits and zero-length values must survive the round trip.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { signedTx, ACCOUNTS } from '../../test/support/dev-chain.ts'
import { manualNode, rpc } from '../../test/support/sequencing-node.ts'
import { tempDir } from '../../test/support/temp-dir.ts'
import { ManualScheduler } from './scheduler.ts'

const FIELDS = ['number', 'parentHash', 'timestamp', 'gasLimit', 'extraData', 'mixHash', 'parentBeaconBlockRoot', 'baseFeePerGas'] as const

test('a block resumed from the journal has the environment it was opened with', async (t) => {
  const dir = tempDir(t)
  // 2^32 s: nine hex digits. The dev chain's gas limit, 30,000,000, has seven.
  const settings = { coinbase: new Uint8Array(20).fill(0xcb), extraData: Uint8Array.of(0x0a, 0x0b, 0x0c) }
  const first = await manualNode(t, { ...settings, scheduler: new ManualScheduler(4_294_967_296_000) }, dir)
  await first.api.sendRawTransaction(signedTx(first, 0, 0n, { to: ACCOUNTS[3]!.address, value: 1n }).serialize())
  await first.api.flashblock()
  const before = await rpc(first, 'eth_getBlockByNumber', ['pending', false])
  assert.equal(before.timestamp, '0x100000000')
  assert.equal(before.gasLimit, '0x1c9c380')
  assert.equal(before.extraData, '0x0a0b0c')
  await first.close() // no seal: the process "dies" with the block open

  const second = await manualNode(t, { ...settings, scheduler: new ManualScheduler(4_294_967_999_000) }, dir)
  const after = await rpc(second, 'eth_getBlockByNumber', ['pending', false])
  for (const f of FIELDS) assert.equal(after[f], before[f], f)
  assert.deepEqual(after.transactions, before.transactions)
  await second.api.mine()
  const sealed = await rpc(second, 'eth_getBlockByNumber', ['latest', false])
  assert.equal(sealed.miner, `0x${'cb'.repeat(20)}`)
  for (const f of FIELDS) assert.equal(sealed[f], before[f], `sealed ${f}`)
})
