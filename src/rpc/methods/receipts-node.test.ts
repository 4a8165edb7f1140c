/**
 * eth_getBlockReceipts through the real node and method table: pending answers follow every flashblock (one
 * frozen receipt list per snapshot, so nothing is served stale), sealed answers are kept by block hash.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createNode, DEFAULT_NODE_SETTINGS, DEFAULT_SEQUENCER } from '../../node/create-node.ts'
import { ManualScheduler } from '../../sequencer/scheduler.ts'
import { signedTx, testGenesis } from '../../../test/support/dev-chain.ts'
import { tempDir } from '../../../test/support/temp-dir.ts'
import { PENDING } from '../../primitives/block-id.ts'
import { bytesToHex } from '../../primitives/hex.ts'
import { createEthMethods } from './index.ts'
import { RawJson } from '../transport/messages.ts'
import { formatLocatedReceipt } from '../format/receipt.ts'

test('pending receipts: the same list and answer within a flashblock, a new one with the next; sealed kept by hash', async (t) => {
  const node = await createNode({
    ...DEFAULT_NODE_SETTINGS,
    dataDir: tempDir(t),
    genesis: testGenesis(),
    sequencer: { ...DEFAULT_SEQUENCER, mode: 'manual', scheduler: new ManualScheduler(Date.now()) },
  })
  t.after(() => node.close())
  await node.start()
  const handler = createEthMethods(node.api).get('eth_getBlockReceipts')!
  const ask = async (block: string): Promise<RawJson> => {
    const answer = await handler([block], { signal: new AbortController().signal, endpoint: 'test' })
    assert.ok(answer instanceof RawJson)
    return answer
  }

  await node.api.sendRawTransaction(signedTx(node, 0, 0n).serialize())
  await node.api.flashblock()
  const list = (await node.api.getBlockReceipts(PENDING))!
  assert.equal(list.length, 1)
  assert.equal(await node.api.getBlockReceipts(PENDING), list, 'one list per snapshot')
  assert.ok(Object.isFrozen(list))
  const first = await ask('pending')
  assert.equal(await ask('pending'), first)
  assert.equal(first.json, JSON.stringify(list.map(formatLocatedReceipt)))

  await node.api.sendRawTransaction(signedTx(node, 1, 0n).serialize())
  await node.api.flashblock()
  const second = await ask('pending')
  assert.equal((JSON.parse(second.json) as unknown[]).length, 2, 'the next flashblock is never answered stale')

  await node.api.mine()
  const sealed = await ask('latest')
  assert.equal(await ask('0x1'), sealed, 'a sealed block is kept under its hash, whatever names it')
  const receipts = (await node.api.getBlockReceipts({ kind: 'number', number: 1n }))!
  assert.equal(sealed.json, JSON.stringify(receipts.map(formatLocatedReceipt)))
  assert.equal((JSON.parse(sealed.json) as { blockHash: string }[])[0]!.blockHash, bytesToHex(receipts[0]!.context.blockHash), 'the sealed block\'s hash')
  assert.ok(receipts[0]!.context.blockHash.some((b) => b !== 0), 'not the pre-confirmed zero hash')
})
