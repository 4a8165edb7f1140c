import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { TransactionView } from '../../chain/types.ts'
import type { LocatedTransaction } from '../../node/api.ts'
import { bytesToHex } from '../../primitives/hex.ts'
import { fakeNode, invoke } from './fake-node.ts'
import { transactionMethods } from './transactions.ts'

const HASH = `0x${'42'.repeat(32)}`
const tx: TransactionView = {
  hash: new Uint8Array(32).fill(0x42), type: 0, from: new Uint8Array(20).fill(1), to: new Uint8Array(20).fill(2),
  nonce: 3n, gasLimit: 21_000n, value: 1n, data: new Uint8Array(0), gasPrice: 9n, v: 27n, r: 1n, s: 2n,
  serialized: new Uint8Array(0),
}
const located: LocatedTransaction = {
  tx,
  placement: { context: { blockHash: new Uint8Array(32).fill(0xbb), preconfirmed: false, blockNumber: 0x10n, blockTimestamp: 0x20n }, index: 4 },
}

test('eth_getTransactionByHash: located transaction formatted; unknown is null', async () => {
  const { node, calls } = fakeNode({ getTransactionByHash: async () => located })
  const out = (await invoke(transactionMethods(node), 'eth_getTransactionByHash', [HASH])) as Record<string, unknown>
  assert.equal(bytesToHex(calls[0]!.args[0] as Uint8Array), HASH)
  assert.equal(out.hash, HASH)
  assert.equal(out.blockNumber, '0x10')
  assert.equal(out.transactionIndex, '0x4')
  assert.equal(await invoke(transactionMethods(fakeNode().node), 'eth_getTransactionByHash', [HASH]), null)
})

test('eth_getTransactionByHash: a transaction only in the pool has null block fields', async () => {
  const { node } = fakeNode({ getTransactionByHash: async () => ({ tx, placement: null }) })
  const out = (await invoke(transactionMethods(node), 'eth_getTransactionByHash', [HASH])) as Record<string, unknown>
  assert.equal(out.hash, HASH)
  assert.equal(out.blockHash, null)
  assert.equal(out.blockNumber, null)
  assert.equal(out.transactionIndex, null)
})

test('by block and index: hash or number id, index as a number', async () => {
  const { node, calls } = fakeNode({ getTransactionByBlockAndIndex: async () => located })
  const m = transactionMethods(node)
  await invoke(m, 'eth_getTransactionByBlockNumberAndIndex', ['pending', '0x4'])
  await invoke(m, 'eth_getTransactionByBlockHashAndIndex', [HASH, '0x0'])
  assert.deepEqual(calls[0]!.args, [{ kind: 'tag', tag: 'pending' }, 4])
  const [id, index] = calls[1]!.args as [{ kind: string; hash: Uint8Array }, number]
  assert.equal(id.kind, 'hash')
  assert.equal(bytesToHex(id.hash), HASH)
  assert.equal(index, 0)
  await assert.rejects(invoke(m, 'eth_getTransactionByBlockHashAndIndex', [HASH, '0x00']), /invalid argument 1: hex number with leading zero digits/)
})
