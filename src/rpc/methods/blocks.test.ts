import { test } from 'node:test'
import assert from 'node:assert/strict'
import { FlashnodeError } from '../../errors/errors.ts'
import type { BlockView, HeaderView, TransactionView } from '../../chain/types.ts'
import { bytesToHex } from '../../primitives/hex.ts'
import { blockMethods } from './blocks.ts'
import { fakeNode, invoke } from './fake-node.ts'

const h32 = (b: number) => new Uint8Array(32).fill(b)
const header: HeaderView = {
  hash: h32(1), parentHash: h32(2), uncleHash: h32(3), coinbase: new Uint8Array(20).fill(4), stateRoot: h32(5),
  transactionsTrie: h32(6), receiptTrie: h32(7), logsBloom: new Uint8Array(256), difficulty: 0n, number: 0x37n,
  gasLimit: 30_000_000n, gasUsed: 21_000n, timestamp: 0x228n, extraData: new Uint8Array(0), mixHash: h32(8),
  nonce: new Uint8Array(8), baseFeePerGas: 7n,
}
const tx: TransactionView = {
  hash: h32(9), type: 2, from: new Uint8Array(20).fill(0xa), to: null, nonce: 0n, gasLimit: 21_000n, value: 0n,
  data: new Uint8Array(0), maxFeePerGas: 10n, maxPriorityFeePerGas: 1n, chainId: 1n, accessList: [], v: 0n, r: 1n, s: 1n,
  serialized: new Uint8Array(0),
}
const block: BlockView = { header, transactions: [tx, tx], uncleHashes: [h32(0xc)], size: 600 }

test('eth_getBlockByNumber: hashes or full transactions; the block id reaches the node', async () => {
  const { node, calls } = fakeNode({ getBlock: async () => block })
  const m = blockMethods(node)
  const hashes = (await invoke(m, 'eth_getBlockByNumber', ['0x37', false])) as Record<string, unknown>
  assert.deepEqual(hashes.transactions, [bytesToHex(h32(9)), bytesToHex(h32(9))])
  assert.equal(hashes.hash, bytesToHex(h32(1)))
  assert.deepEqual(calls[0]!.args[0], { kind: 'number', number: 0x37n })
  const full = (await invoke(m, 'eth_getBlockByNumber', ['latest', true])) as Record<string, unknown>
  const first = (full.transactions as Record<string, unknown>[])[1]!
  assert.equal(first.blockHash, bytesToHex(h32(1)))
  assert.equal(first.transactionIndex, '0x1')
  assert.equal(first.gasPrice, '0x8')
})

test('eth_getBlockByNumber("pending") prints the node\'s pending view as geth prints a pending block', async () => {
  const { node } = fakeNode({ getBlock: async () => ({ ...block, pending: true }) })
  const out = (await invoke(blockMethods(node), 'eth_getBlockByNumber', ['pending', false])) as Record<string, unknown>
  assert.equal(out.hash, null)
  assert.equal(out.miner, null)
  assert.equal(out.nonce, null)
  assert.equal(out.number, '0x37')
})

test('eth_getBlockByHash: hash id, not canonical-only; unknown block is null', async () => {
  const { node, calls } = fakeNode()
  assert.equal(await invoke(blockMethods(node), 'eth_getBlockByHash', [bytesToHex(h32(1)), true]), null)
  const id = calls[0]!.args[0] as { kind: string; hash: Uint8Array; requireCanonical: boolean }
  assert.equal(id.kind, 'hash')
  assert.equal(bytesToHex(id.hash), bytesToHex(h32(1)))
  assert.equal(id.requireCanonical, false)
})

test('counts: transactions and uncles, null for an unknown block', async () => {
  const known = blockMethods(fakeNode({ getBlock: async () => block }).node)
  assert.equal(await invoke(known, 'eth_getBlockTransactionCountByNumber', ['0x37']), '0x2')
  assert.equal(await invoke(known, 'eth_getBlockTransactionCountByHash', [bytesToHex(h32(1))]), '0x2')
  assert.equal(await invoke(known, 'eth_getUncleCountByBlockNumber', ['latest']), '0x1')
  assert.equal(await invoke(known, 'eth_getUncleCountByBlockHash', [bytesToHex(h32(1))]), '0x1')
  const unknown = blockMethods(fakeNode().node)
  for (const [method, arg] of [
    ['eth_getBlockTransactionCountByNumber', '0x99'],
    ['eth_getBlockTransactionCountByHash', bytesToHex(h32(1))],
    ['eth_getUncleCountByBlockNumber', '0x99'],
    ['eth_getUncleCountByBlockHash', bytesToHex(h32(1))],
  ] as const) {
    assert.equal(await invoke(unknown, method, [arg]), null, method)
  }
})

test('by-number methods take no hash; fullTx is required', async () => {
  const m = blockMethods(fakeNode().node)
  await assert.rejects(
    invoke(m, 'eth_getBlockByNumber', [bytesToHex(h32(1)), false]),
    (e: unknown) => e instanceof FlashnodeError && e.message === 'invalid argument 0: hex number with leading zero digits',
  )
  await assert.rejects(
    invoke(m, 'eth_getBlockByNumber', ['latest']),
    (e: unknown) => e instanceof FlashnodeError && e.message === 'missing value for required argument 1',
  )
})
