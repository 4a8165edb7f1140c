import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { PRECONFIRMED_BLOCK_HASH, type BlockContext, type LogView, type ReceiptView } from '../../chain/types.ts'
import { hexToBytes } from '../../primitives/hex.ts'
import { formatReceipt } from './receipt.ts'
import { blockReceiptsJson } from './receipt-json.ts'

/** The rendering the text writer must reproduce byte for byte. */
const viaObjects = (receipts: readonly ReceiptView[], context: BlockContext): string =>
  JSON.stringify(receipts.map((r) => formatReceipt(r, context)))

const fill = (n: number, v: number): Uint8Array => new Uint8Array(n).fill(v)
const HASH = fill(32, 0x11)
const ADDR = fill(20, 0xaa)
const log = (topics: number, data: Uint8Array): LogView => ({
  address: ADDR, topics: Array.from({ length: topics }, (_, i) => fill(32, i + 1)), data,
})
const base: ReceiptView = {
  transactionHash: HASH, transactionIndex: 2, type: 2, from: ADDR, to: fill(20, 0xbb), status: 1, cumulativeGasUsed: 100_000n,
  gasUsed: 21_000n, effectiveGasPrice: 7n, contractAddress: null, logs: [], logsBloom: fill(256, 0x5a), firstLogIndex: 0,
}
const variants: ReceiptView[] = [
  base,
  { ...base, status: 0, transactionIndex: 0, type: 0 },
  { ...base, status: undefined, root: fill(32, 0x22) },
  { ...base, status: undefined, root: new Uint8Array(0) },
  { ...base, to: null, contractAddress: fill(20, 0xcc) },
  { ...base, contractAddress: new Uint8Array(20) },
  { ...base, type: 3, blobGasUsed: 0x20000n, blobGasPrice: 1n },
  { ...base, type: 3, blobGasUsed: undefined, blobGasPrice: undefined },
  { ...base, type: 4, blobGasUsed: 5n },
  { ...base, logs: [log(0, new Uint8Array(0))], firstLogIndex: 9 },
  { ...base, logs: [log(3, fill(32, 0x99)), log(1, fill(300, 0x01)), log(4, new Uint8Array([0]))], firstLogIndex: 255 },
  { ...base, cumulativeGasUsed: 0n, gasUsed: 0n, effectiveGasPrice: 2n ** 256n - 1n, transactionIndex: 70_000 },
  // OP Stack: deposits' receipts (Canyon on, and Regolith to Canyon) and receipts with the L1 fee keys.
  { ...base, type: 0x7e, effectiveGasPrice: 0n, depositNonce: 7n, depositReceiptVersion: 1n },
  { ...base, type: 0x7e, effectiveGasPrice: 0n, depositNonce: 0n },
  { ...base, logs: [log(2, fill(40, 0x03))], opFields: { l1GasPrice: '0x6fc23ac00', l1GasUsed: '0x13ec', l1Fee: '0xed8f2770f9', l1BlobBaseFee: '0x1', l1BaseFeeScalar: '0x8dd', l1BlobBaseFeeScalar: '0x101c12', operatorFeeScalar: '0x1', operatorFeeConstant: '0x2', daFootprintGasScalar: '0x190', blobGasUsed: '0x3e80' } },
  { ...base, opFields: { l1GasPrice: '0x1', l1GasUsed: '0x2', l1Fee: '0x3', l1FeeScalar: '0.684' } },
]
const sealed: BlockContext = { blockHash: HASH, preconfirmed: false, blockNumber: 0x1234n, blockTimestamp: 0x6543_2100n, baseFeePerGas: 7n }
const pending: BlockContext = { blockHash: PRECONFIRMED_BLOCK_HASH, preconfirmed: true, blockNumber: 0n, blockTimestamp: 0n }

test('a block of every receipt variant is written exactly as JSON.stringify writes formatReceipt', () => {
  for (const context of [sealed, pending]) {
    assert.equal(blockReceiptsJson(variants, context), viaObjects(variants, context))
    for (const r of variants) assert.equal(blockReceiptsJson([r], context), viaObjects([r], context))
  }
  assert.equal(blockReceiptsJson([], sealed), '[]')
})

test('OP Stack receipts: their keys sort in among the common ones, as op-geth prints its map', () => {
  for (const r of variants.filter((v) => v.type === 0x7e || v.opFields !== undefined)) {
    const keys = Object.keys(JSON.parse(blockReceiptsJson([r], sealed))[0] as object)
    assert.deepEqual(keys, [...keys].sort())
    assert.ok(keys.includes(r.type === 0x7e ? 'depositNonce' : 'l1Fee'))
  }
})

test('geth-recorded blocks come out as the same bytes either way, and parse back to what geth answered', () => {
  for (const name of ['get-block-receipts-latest.io', 'get-block-receipts-n.io', 'get-block-receipts-by-hash.io']) {
    const text = readFileSync(new URL(`../../../../shared/rpc-compat/tests/eth_getBlockReceipts/${name}`, import.meta.url), 'utf8')
    const recorded = (JSON.parse(text.split('\n').find((l) => l.startsWith('<<'))!.slice(3)) as { result: Record<string, unknown>[] }).result
    const r0 = recorded[0]!
    const aLog = recorded.flatMap((r) => r.logs as Record<string, string>[])[0]
    const context: BlockContext = {
      blockHash: hexToBytes(r0.blockHash as string),
      preconfirmed: false,
      blockNumber: BigInt(r0.blockNumber as string),
      blockTimestamp: aLog === undefined ? 0n : BigInt(aLog.blockTimestamp!),
    }
    const views = recorded.map((r): ReceiptView => {
      const logs = r.logs as Record<string, unknown>[]
      return {
        transactionHash: hexToBytes(r.transactionHash as string),
        transactionIndex: Number(r.transactionIndex),
        type: Number(r.type),
        from: hexToBytes(r.from as string),
        to: r.to === null ? null : hexToBytes(r.to as string),
        ...(r.status !== undefined ? { status: Number(r.status) as 0 | 1 } : { root: hexToBytes(r.root as string) }),
        cumulativeGasUsed: BigInt(r.cumulativeGasUsed as string),
        gasUsed: BigInt(r.gasUsed as string),
        effectiveGasPrice: BigInt(r.effectiveGasPrice as string),
        contractAddress: r.contractAddress === null ? null : hexToBytes(r.contractAddress as string),
        logs: logs.map((l) => ({ address: hexToBytes(l.address as string), topics: (l.topics as string[]).map(hexToBytes), data: hexToBytes(l.data as string) })),
        logsBloom: hexToBytes(r.logsBloom as string),
        firstLogIndex: logs.length > 0 ? Number(logs[0]!.logIndex) : 0,
        ...(r.blobGasUsed !== undefined ? { blobGasUsed: BigInt(r.blobGasUsed as string) } : {}),
        ...(r.blobGasPrice !== undefined ? { blobGasPrice: BigInt(r.blobGasPrice as string) } : {}),
      }
    })
    const text2 = blockReceiptsJson(views, context)
    assert.equal(text2, viaObjects(views, context), name)
    assert.deepEqual(JSON.parse(text2), recorded, name)
  }
})

test('values quantity() refuses are refused here too', () => {
  assert.throws(() => blockReceiptsJson([{ ...base, gasUsed: -1n }], sealed), RangeError)
  assert.throws(() => blockReceiptsJson([{ ...base, transactionIndex: 1.5 }], sealed), RangeError)
})
