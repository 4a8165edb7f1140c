/**
 * eth_getLogs' range, checked as geth checks it, through the node's facade on a sequencing dev node with
 * manual sealing: a range that starts or ends past the head is an error (never an empty list), the limit
 * counts as geth counts, and `pending` ends a range at the pre-confirmed block.
 */

import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { createNode, DEFAULT_NODE_SETTINGS, DEFAULT_SEQUENCER, type FlashNode } from './create-node.ts'
import { testGenesis, signedTx } from '../../test/support/dev-chain.ts'
import { tempDir } from '../../test/support/temp-dir.ts'
import { ManualScheduler } from '../sequencer/scheduler.ts'
import { FlashnodeError } from '../errors/errors.ts'
import type { BlockId } from '../primitives/block-id.ts'
import type { LogFilter } from './api.ts'

// Emits LOG0 with no data: PUSH1 0, PUSH1 0, LOG0.
const EMITTER = '0x00000000000000000000000000000000000001e0'

async function chainWithLogs(t: TestContext, maxLogBlockRange = 100_000): Promise<FlashNode> {
  const genesis = testGenesis() as unknown as { alloc: Record<string, { balance: string; code?: string }> }
  genesis.alloc[EMITTER] = { balance: '0x0', code: '0x60006000a0' }
  const node = await createNode({
    ...DEFAULT_NODE_SETTINGS,
    maxLogBlockRange,
    dataDir: tempDir(t),
    genesis: genesis as never,
    sequencer: { ...DEFAULT_SEQUENCER, mode: 'manual', scheduler: new ManualScheduler() },
  })
  t.after(() => node.close())
  await node.start()
  // Blocks 1..3 sealed, one log each; then one more log pre-confirmed in block 4.
  for (let nonce = 0n; nonce < 4n; nonce++) {
    await node.api.sendRawTransaction(signedTx(node, 0, nonce, { to: EMITTER }).serialize())
    if (nonce < 3n) await node.api.mine()
    else await node.api.flashblock()
  }
  assert.equal(node.chain.head(), 3n)
  return node
}

const num = (n: bigint): BlockId => ({ kind: 'number', number: n })
const tag = (t: 'latest' | 'pending' | 'earliest'): BlockId => ({ kind: 'tag', tag: t })
const range = (fromBlock?: BlockId, toBlock?: BlockId): LogFilter => ({
  ...(fromBlock ? { fromBlock } : {}),
  ...(toBlock ? { toBlock } : {}),
  addresses: [],
  topics: [],
})

async function rejectsWith(p: Promise<unknown>, message: string, kind = 'invalidParams'): Promise<void> {
  await assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof FlashnodeError)
    assert.equal(e.message, message)
    assert.equal(e.kind, kind)
    return true
  })
}

test('a range that starts after the head is an error, as in geth, not an empty list', async (t) => {
  const { api } = await chainWithLogs(t)
  await rejectsWith(api.getLogs(range(num(9n))), 'invalid block range params')
  await rejectsWith(api.getLogs(range(num(4n), tag('latest'))), 'invalid block range params')
  await rejectsWith(api.getLogs(range(tag('pending'))), 'invalid block range params', 'invalidParams')
})

test('a range that ends past the head is `block range extends beyond current head block`', async (t) => {
  const { api } = await chainWithLogs(t)
  await rejectsWith(api.getLogs(range(num(1n), num(4n))), 'block range extends beyond current head block')
  await rejectsWith(api.getLogs(range(num(5n), num(9n))), 'block range extends beyond current head block')
  assert.equal((await api.getLogs(range(num(1n), num(3n)))).length, 3)
})

test('pending ends the range at the pre-confirmed block: the sealed logs, then the pre-confirmed one', async (t) => {
  const { api } = await chainWithLogs(t)
  const logs = await api.getLogs(range(num(2n), tag('pending')))
  assert.deepEqual(logs.map((l) => [l.context.blockNumber, l.context.preconfirmed]), [[2n, false], [3n, false], [4n, true]])
  assert.deepEqual((await api.getLogs(range(tag('pending'), tag('pending')))).map((l) => l.context.blockNumber), [4n])
  assert.equal((await api.getLogs(range())).length, 1, 'no edges: latest to latest')
})

test('the range limit counts as geth counts (last - first), with geth\'s words', async (t) => {
  const { api } = await chainWithLogs(t, 2)
  assert.equal((await api.getLogs(range(num(1n), num(3n)))).length, 3)
  await rejectsWith(api.getLogs(range(tag('earliest'), num(3n))), 'exceed maximum block range 2')
})

test('more than 1000 addresses is geth\'s log query limit', async (t) => {
  const { api } = await chainWithLogs(t)
  const addresses = Array.from({ length: 1001 }, () => new Uint8Array(20))
  await rejectsWith(api.getLogs({ ...range(), addresses }), 'exceed max addresses or topics per search position', 'limitExceeded')
  assert.equal((await api.getLogs({ ...range(), addresses: addresses.slice(0, 1000) })).length, 0)
})
