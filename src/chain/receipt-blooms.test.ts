import { test } from 'node:test'
import assert from 'node:assert/strict'
import { logsBloom } from '../primitives/bloom.ts'
import { ReceiptBlooms } from './receipt-blooms.ts'

const item = (n: number, length = 32): Uint8Array => new Uint8Array(length).fill(n)

test('equals logsBloom for every receipt of a block, items repeated or not', () => {
  const blooms = new ReceiptBlooms()
  const token = item(0xaa, 20)
  const receipts = [
    [],
    [{ address: token, topics: [item(1), item(2), item(3)] }],
    [{ address: token, topics: [item(1), item(2), item(4)] }, { address: item(0xbb, 20), topics: [] }],
    [{ address: token, topics: [item(1), item(3), item(3)] }],
    [{ address: item(1, 20), topics: [item(1)] }],
  ]
  for (const logs of receipts) assert.deepEqual(blooms.bloomOf(logs), logsBloom(logs))
})

test('each bloom is a new array: one receipt bloom never leaks into another', () => {
  const blooms = new ReceiptBlooms()
  const logs = [{ address: item(7, 20), topics: [item(8)] }]
  const first = blooms.bloomOf(logs)
  first.fill(0xff)
  assert.deepEqual(blooms.bloomOf(logs), logsBloom(logs))
})
