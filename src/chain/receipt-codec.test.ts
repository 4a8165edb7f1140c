import { test } from 'node:test'
import assert from 'node:assert/strict'
import { RLP } from '@ethereumjs/rlp'
import { bigIntToUnpaddedBytes, intToUnpaddedBytes } from '@ethereumjs/util'
import { logsBloom } from '../primitives/bloom.ts'
import { decodeReceipts, encodeReceipts, type ReceiptRecord } from './receipt-codec.ts'

const fill = (n: number, v: number): Uint8Array => new Uint8Array(n).fill(v)
const transfer = (from: number) => ({ address: fill(20, 0xaa), topics: [fill(32, 1), fill(32, from), fill(32, 0xee)], data: fill(32, 9) })

const records: ReceiptRecord[] = [
  {
    transactionHash: fill(32, 1), type: 2, from: fill(20, 1), to: fill(20, 0xaa), status: 1, cumulativeGasUsed: 51_000n,
    gasUsed: 51_000n, effectiveGasPrice: 1_000_000_007n, contractAddress: null, logs: [transfer(1)],
  },
  {
    transactionHash: fill(32, 2), type: 0, from: fill(20, 2), to: null, status: 0, cumulativeGasUsed: 2n ** 64n + 5n,
    gasUsed: 0n, effectiveGasPrice: 2n ** 255n, contractAddress: fill(20, 3), logs: [],
  },
  {
    transactionHash: fill(32, 3), type: 0, from: fill(20, 3), to: fill(20, 4), root: fill(32, 0x55), cumulativeGasUsed: 1n,
    gasUsed: 1n, effectiveGasPrice: 0n, contractAddress: null, logs: [transfer(2), { address: fill(20, 5), topics: [], data: new Uint8Array(0) }],
  },
  {
    transactionHash: fill(32, 4), type: 3, from: fill(20, 1), to: fill(20, 6), status: 1, cumulativeGasUsed: 0xffff_ffff_ffffn,
    gasUsed: 0x1_0000_0000_0000n, effectiveGasPrice: 7n, contractAddress: null, logs: [transfer(1)], blobGasUsed: 0x20000n, blobGasPrice: 1n,
  },
]

test('decoding gives back every record, with positions, log indexes and blooms derived', () => {
  const decoded = decodeReceipts(encodeReceipts(records))
  assert.equal(decoded.length, records.length)
  let firstLogIndex = 0
  decoded.forEach((receipt, i) => {
    const { logsBloom: bloom, transactionIndex, firstLogIndex: first, ...record } = receipt
    assert.deepEqual(
      { ...record, logs: record.logs.map((l) => ({ ...l, topics: [...l.topics] })) },
      { ...records[i]!, logs: records[i]!.logs.map((l) => ({ ...l, topics: [...l.topics] })) },
    )
    assert.equal(transactionIndex, i)
    assert.equal(first, firstLogIndex)
    assert.deepEqual(bloom, logsBloom(records[i]!.logs))
    firstLogIndex += records[i]!.logs.length
  })
})

test('an empty block has no receipts; stored bytes that are not a list are refused', () => {
  assert.deepEqual(decodeReceipts(encodeReceipts([])), [])
  assert.throws(() => decodeReceipts(Uint8Array.of(0x83, 1, 2, 3)), /not a list/)
  assert.throws(() => decodeReceipts(encodeReceipts(records).subarray(0, 100)), /invalid RLP/)
})

test('the stored bytes are the canonical RLP of the record fields (what blocks written by earlier versions hold)', () => {
  const E = new Uint8Array(0)
  const reference = RLP.encode(
    records.map((r) => [
      r.transactionHash, intToUnpaddedBytes(r.type), r.from, r.to ?? E, r.status === undefined ? [r.root ?? E] : intToUnpaddedBytes(r.status),
      bigIntToUnpaddedBytes(r.cumulativeGasUsed), bigIntToUnpaddedBytes(r.gasUsed), bigIntToUnpaddedBytes(r.effectiveGasPrice),
      r.contractAddress ?? E, r.logs.map((l) => [l.address, [...l.topics], l.data]),
      r.blobGasUsed === undefined ? [] : [bigIntToUnpaddedBytes(r.blobGasUsed)], r.blobGasPrice === undefined ? [] : [bigIntToUnpaddedBytes(r.blobGasPrice)],
    ]),
  )
  assert.deepEqual(encodeReceipts(records), reference)
})
