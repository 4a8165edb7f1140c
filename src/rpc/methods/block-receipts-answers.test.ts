import { test } from 'node:test'
import assert from 'node:assert/strict'
import { PRECONFIRMED_BLOCK_HASH, type BlockContext, type ReceiptView } from '../../chain/types.ts'
import type { LocatedReceipt } from '../../node/api.ts'
import { formatReceipt } from '../format/receipt.ts'
import { BlockReceiptsAnswers } from './block-receipts-answers.ts'

const fill = (n: number, v: number): Uint8Array => new Uint8Array(n).fill(v)
const receipt = (index: number): ReceiptView => ({
  transactionHash: fill(32, index + 1), transactionIndex: index, type: 2, from: fill(20, 1), to: fill(20, 2), status: 1,
  cumulativeGasUsed: 21_000n * BigInt(index + 1), gasUsed: 21_000n, effectiveGasPrice: 7n, contractAddress: null, logs: [],
  logsBloom: new Uint8Array(256), firstLogIndex: 0,
})
const sealedContext = (hashByte: number, number = 5n): BlockContext => ({ blockHash: fill(32, hashByte), preconfirmed: false, blockNumber: number, blockTimestamp: 9n })
const block = (context: BlockContext, count: number): readonly LocatedReceipt[] =>
  Array.from({ length: count }, (_, i) => ({ receipt: receipt(i), context }))
const expected = (list: readonly LocatedReceipt[]): string => JSON.stringify(list.map((l) => formatReceipt(l.receipt, l.context)))

test('a sealed block is serialized once, then answered from the cache by its hash', () => {
  const answers = new BlockReceiptsAnswers()
  const first = answers.answer(block(sealedContext(1), 3))
  assert.equal(first.json, expected(block(sealedContext(1), 3)))
  // The node lists the block anew on every call: the hash, not the list, is the key.
  assert.equal(answers.answer(block(sealedContext(1), 3)), first)
  assert.deepEqual(answers.sealedSize, { entries: 1, bytes: first.json.length })
})

test('another block under the same number (not the canonical one any more) is never answered from the cache', () => {
  const answers = new BlockReceiptsAnswers()
  const before = answers.answer(block(sealedContext(1, 7n), 2))
  const after = answers.answer(block(sealedContext(2, 7n), 1))
  assert.notEqual(after, before)
  assert.equal(after.json, expected(block(sealedContext(2, 7n), 1)))
})

test('sealed answers are bounded by size and by count, least recently used out first', () => {
  const one = new BlockReceiptsAnswers().answer(block(sealedContext(1), 2)).json.length
  const bySize = new BlockReceiptsAnswers({ maxBytes: 2 * one, maxEntries: 100 })
  const a = bySize.answer(block(sealedContext(1), 2))
  bySize.answer(block(sealedContext(2), 2))
  assert.equal(bySize.answer(block(sealedContext(1), 2)), a) // a is now the most recent
  bySize.answer(block(sealedContext(3), 2)) // evicts 2, keeps a
  assert.deepEqual(bySize.sealedSize, { entries: 2, bytes: 2 * one })
  assert.equal(bySize.answer(block(sealedContext(1), 2)), a)
  const byCount = new BlockReceiptsAnswers({ maxBytes: 1e9, maxEntries: 3 })
  for (let h = 1; h <= 10; h++) byCount.answer(block(sealedContext(h), 1))
  assert.equal(byCount.sealedSize.entries, 3)
})

test('an answer larger than the whole budget is served but not kept', () => {
  const answers = new BlockReceiptsAnswers({ maxBytes: 100, maxEntries: 10 })
  const big = answers.answer(block(sealedContext(1), 2))
  assert.equal(big.json, expected(block(sealedContext(1), 2)))
  assert.deepEqual(answers.sealedSize, { entries: 0, bytes: 0 })
})

test('a pre-confirmed block is kept per snapshot list only: a new flashblock is never answered stale', () => {
  const answers = new BlockReceiptsAnswers()
  const pending: BlockContext = { blockHash: PRECONFIRMED_BLOCK_HASH, preconfirmed: true, blockNumber: 8n, blockTimestamp: 10n }
  const snapshot1 = block(pending, 1)
  const first = answers.answer(snapshot1)
  assert.equal(answers.answer(snapshot1), first, 'the same snapshot list: the same answer')
  // The next flashblock, at the same height, with one more transaction: a new list, a new answer.
  const snapshot2 = block(pending, 2)
  const second = answers.answer(snapshot2)
  assert.equal(second.json, expected(snapshot2))
  assert.notEqual(second.json, first.json)
  assert.deepEqual(answers.sealedSize, { entries: 0, bytes: 0 }, 'pending answers take no sealed budget')
})

test('an empty block answers [] without being kept', () => {
  const answers = new BlockReceiptsAnswers()
  assert.equal(answers.answer([]).json, '[]')
  assert.equal(answers.sealedSize.entries, 0)
})
