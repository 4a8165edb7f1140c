import { test } from 'node:test'
import assert from 'node:assert/strict'
import { PRECONFIRMED_BLOCK_HASH, type BlockContext, type TransactionView } from '../chain/types.ts'
import { formatTransaction, type TxLocation } from './transaction.ts'

const ADDR = new Uint8Array(20).fill(0xaa)
const HASH = new Uint8Array(32).fill(0x11)

const legacy: TransactionView = {
  hash: HASH,
  type: 0,
  from: ADDR,
  to: ADDR,
  nonce: 1n,
  gasLimit: 21_000n,
  value: 10n,
  data: new Uint8Array(0),
  gasPrice: 50n,
  v: 27n,
  r: 1n,
  s: 2n,
  serialized: new Uint8Array(0),
}
const dynamic: TransactionView = {
  ...legacy,
  type: 2,
  gasPrice: undefined,
  maxFeePerGas: 100n,
  maxPriorityFeePerGas: 3n,
  chainId: 1337n,
  accessList: [{ address: ADDR, storageKeys: [HASH] }],
  v: 1n,
}
const context: BlockContext = { blockHash: HASH, preconfirmed: false, blockNumber: 5n, blockTimestamp: 0x64n, baseFeePerGas: 10n }
const at: TxLocation = { context, index: 3 }

const COMMON = [
  'blockHash', 'blockNumber', 'blockTimestamp', 'from', 'gas', 'gasPrice', 'hash', 'input', 'nonce', 'to',
  'transactionIndex', 'value', 'type', 'v', 'r', 's',
]
const keys = (o: object): string[] => Object.keys(o).sort()

test('legacy, unprotected: no chainId, no yParity, no access list', () => {
  const out = formatTransaction(legacy, at)
  assert.deepEqual(keys(out), [...COMMON].sort())
  assert.equal(out.gasPrice, '0x32')
  assert.equal(out.v, '0x1b')
  assert.equal(out.input, '0x')
  assert.equal(out.transactionIndex, '0x3')
  assert.equal(out.blockTimestamp, '0x64')
})

test('legacy, replay-protected: chainId included', () => {
  const out = formatTransaction({ ...legacy, chainId: 1337n, v: 2709n }, at)
  assert.equal(out.chainId, '0x539')
  assert.ok(!('yParity' in out))
})

test('access-list (type 1): chainId, accessList, yParity; gasPrice as signed', () => {
  const out = formatTransaction({ ...legacy, type: 1, chainId: 1n, accessList: [], v: 0n }, at)
  assert.deepEqual(keys(out), [...COMMON, 'accessList', 'chainId', 'yParity'].sort())
  assert.deepEqual(out.accessList, [])
  assert.equal(out.yParity, '0x0')
  assert.equal(out.gasPrice, '0x32')
})

test('dynamic fee (type 2): fee caps; gasPrice is the effective price in a block, the fee cap outside one', () => {
  const mined = formatTransaction(dynamic, at)
  assert.deepEqual(keys(mined), [...COMMON, 'accessList', 'chainId', 'yParity', 'maxFeePerGas', 'maxPriorityFeePerGas'].sort())
  assert.equal(mined.gasPrice, '0xd') // 3 + 10 < 100
  assert.equal(formatTransaction(dynamic, { context: { ...context, baseFeePerGas: 99n }, index: 0 }).gasPrice, '0x64') // capped
  assert.deepEqual(mined.accessList, [{ address: `0x${'aa'.repeat(20)}`, storageKeys: [`0x${'11'.repeat(32)}`] }])
  assert.equal(mined.yParity, '0x1')
  const pool = formatTransaction(dynamic, null)
  assert.equal(pool.gasPrice, '0x64')
  for (const k of ['blockHash', 'blockNumber', 'blockTimestamp', 'transactionIndex']) assert.equal(pool[k], null, k)
})

test('pre-confirmed: the block hash is 32 zero bytes; number, timestamp, index and the effective price are known', () => {
  const out = formatTransaction(dynamic, { context: { ...context, blockHash: PRECONFIRMED_BLOCK_HASH, preconfirmed: true }, index: 0 })
  assert.equal(out.blockHash, `0x${'00'.repeat(32)}`)
  assert.equal(out.blockNumber, '0x5')
  assert.equal(out.transactionIndex, '0x0')
  assert.equal(out.gasPrice, '0xd')
})

test('blob (type 3): maxFeePerBlobGas and blobVersionedHashes', () => {
  const out = formatTransaction({ ...dynamic, type: 3, maxFeePerBlobGas: 7n, blobVersionedHashes: [HASH] }, at)
  assert.deepEqual(
    keys(out),
    [...COMMON, 'accessList', 'chainId', 'yParity', 'maxFeePerGas', 'maxPriorityFeePerGas', 'maxFeePerBlobGas', 'blobVersionedHashes'].sort(),
  )
  assert.equal(out.maxFeePerBlobGas, '0x7')
  assert.deepEqual(out.blobVersionedHashes, [`0x${'11'.repeat(32)}`])
})

test('set code (type 4): authorizationList with quantities', () => {
  const out = formatTransaction(
    { ...dynamic, type: 4, authorizationList: [{ chainId: 0n, address: ADDR, nonce: 9n, yParity: 1n, r: 0xabn, s: 0xcdn }] },
    at,
  )
  assert.deepEqual(keys(out), [...COMMON, 'accessList', 'chainId', 'yParity', 'maxFeePerGas', 'maxPriorityFeePerGas', 'authorizationList'].sort())
  assert.deepEqual(out.authorizationList, [{ chainId: '0x0', address: `0x${'aa'.repeat(20)}`, nonce: '0x9', yParity: '0x1', r: '0xab', s: '0xcd' }])
})

test('a creation has to: null', () => {
  assert.equal(formatTransaction({ ...legacy, to: null }, at).to, null)
})
