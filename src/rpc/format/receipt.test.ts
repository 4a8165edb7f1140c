import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { PRECONFIRMED_BLOCK_HASH, type BlockContext, type LogView, type ReceiptView } from '../../chain/types.ts'
import { hexToBytes } from '../../primitives/hex.ts'
import { formatReceipt } from './receipt.ts'
import { formatLog } from '../../format/log.ts'

type J = Record<string, unknown>

function recorded(name: string): J[] {
  const text = readFileSync(new URL(`../../../../shared/rpc-compat/tests/eth_getBlockReceipts/${name}`, import.meta.url), 'utf8')
  const line = text.split('\n').find((l) => l.startsWith('<<'))!
  return (JSON.parse(line.slice(3)) as { result: J[] }).result
}

const big = (v: unknown): bigint => BigInt(v as string)
const bytes = (v: unknown): Uint8Array => hexToBytes(v as string)

/** A view holding the recorded receipt's values, so the formatter can be checked against geth's output. */
function viewOf(r: J): { view: ReceiptView; context: BlockContext } {
  const logs = r.logs as J[]
  const view: ReceiptView = {
    transactionHash: bytes(r.transactionHash),
    transactionIndex: Number(big(r.transactionIndex)),
    type: Number(big(r.type)),
    from: bytes(r.from),
    to: r.to === null ? null : bytes(r.to),
    ...(r.status !== undefined ? { status: Number(big(r.status)) as 0 | 1 } : {}),
    ...(r.root !== undefined ? { root: bytes(r.root) } : {}),
    cumulativeGasUsed: big(r.cumulativeGasUsed),
    gasUsed: big(r.gasUsed),
    effectiveGasPrice: big(r.effectiveGasPrice),
    contractAddress: r.contractAddress === null ? null : bytes(r.contractAddress),
    logs: logs.map((l): LogView => ({ address: bytes(l.address), topics: (l.topics as string[]).map(bytes), data: bytes(l.data) })),
    logsBloom: bytes(r.logsBloom),
    firstLogIndex: logs.length > 0 ? Number(big(logs[0]!.logIndex)) : 0,
  }
  const context: BlockContext = {
    blockHash: bytes(r.blockHash),
    preconfirmed: false,
    blockNumber: big(r.blockNumber),
    blockTimestamp: logs.length > 0 ? big(logs[0]!.blockTimestamp) : 0n,
  }
  return { view, context }
}

for (const name of ['get-block-receipts-latest.io', 'get-block-receipts-n.io', 'get-block-receipts-by-hash.io']) {
  test(`receipts encode exactly as geth recorded them (${name})`, () => {
    const receipts = recorded(name)
    assert.ok(receipts.length > 0)
    for (const r of receipts) {
      const { view, context } = viewOf(r)
      assert.deepEqual(formatReceipt(view, context), r)
    }
  })
}

const ADDR = new Uint8Array(20).fill(0xaa)
const HASH = new Uint8Array(32).fill(0x11)
const base: ReceiptView = {
  transactionHash: HASH,
  transactionIndex: 2,
  type: 2,
  from: ADDR,
  to: ADDR,
  status: 1,
  cumulativeGasUsed: 100_000n,
  gasUsed: 21_000n,
  effectiveGasPrice: 7n,
  contractAddress: null,
  logs: [],
  logsBloom: new Uint8Array(256),
  firstLogIndex: 0,
}
const context: BlockContext = { blockHash: HASH, preconfirmed: false, blockNumber: 0x36n, blockTimestamp: 0x21cn }
const ZERO_HASH = `0x${'00'.repeat(32)}`

const POST_BYZANTIUM_KEYS = [
  'blockHash', 'blockNumber', 'contractAddress', 'cumulativeGasUsed', 'effectiveGasPrice', 'from', 'gasUsed', 'logs',
  'logsBloom', 'status', 'to', 'transactionHash', 'transactionIndex', 'type',
]

test('field set of a post-Byzantium receipt matches the recorded one, encodings are minimal', () => {
  const out = formatReceipt(base, context)
  assert.deepEqual(Object.keys(out), POST_BYZANTIUM_KEYS)
  assert.deepEqual(Object.keys(out).sort(), Object.keys(recorded('get-block-receipts-latest.io')[0]!).sort())
  assert.equal(out.status, '0x1')
  assert.equal(out.transactionIndex, '0x2')
  assert.equal(out.cumulativeGasUsed, '0x186a0')
  assert.equal(out.contractAddress, null)
  assert.equal(out.type, '0x2')
})

test('a failed transaction has status 0x0; a pre-Byzantium one has root and no status', () => {
  assert.equal(formatReceipt({ ...base, status: 0 }, context).status, '0x0')
  const old = formatReceipt({ ...base, status: undefined, root: HASH }, context)
  assert.equal(old.root, `0x${'11'.repeat(32)}`)
  assert.ok(!('status' in old))
})

test('a creation: to is null and contractAddress set; an all-zero contract address reads as none', () => {
  const created = formatReceipt({ ...base, to: null, contractAddress: ADDR }, context)
  assert.equal(created.to, null)
  assert.equal(created.contractAddress, `0x${'aa'.repeat(20)}`)
  assert.equal(formatReceipt({ ...base, contractAddress: new Uint8Array(20) }, context).contractAddress, null)
})

test('blob receipts carry blobGasUsed and blobGasPrice; others do not', () => {
  const blob = formatReceipt({ ...base, type: 3, blobGasUsed: 0x20000n, blobGasPrice: 1n }, context)
  assert.equal(blob.blobGasUsed, '0x20000')
  assert.equal(blob.blobGasPrice, '0x1')
  const plain = formatReceipt({ ...base, blobGasUsed: 0n }, context)
  assert.ok(!('blobGasUsed' in plain) && !('blobGasPrice' in plain))
})

test('logs are numbered from firstLogIndex and carry the block timestamp; in a pre-confirmed block, receipt and logs carry 32 zero bytes as block hash', () => {
  const log: LogView = { address: ADDR, topics: [HASH], data: new Uint8Array([1]) }
  const out = formatReceipt({ ...base, logs: [log, log], firstLogIndex: 5 }, { ...context, blockHash: PRECONFIRMED_BLOCK_HASH, preconfirmed: true })
  assert.equal(out.blockHash, ZERO_HASH)
  assert.equal(out.blockNumber, '0x36')
  const logs = out.logs as Record<string, unknown>[]
  assert.deepEqual(logs.map((l) => l.logIndex), ['0x5', '0x6'])
  assert.deepEqual(logs.map((l) => l.blockHash), [ZERO_HASH, ZERO_HASH])
  assert.deepEqual(logs.map((l) => l.blockNumber), ['0x36', '0x36'])
  assert.equal(logs[0]!.blockTimestamp, '0x21c')
  assert.equal(logs[0]!.removed, false)
  assert.equal(logs[0]!.transactionIndex, '0x2')
})

test('formatLog: the eth_getLogs shape', () => {
  const out = formatLog(
    { address: ADDR, topics: [], data: new Uint8Array(0) },
    { context, transactionHash: HASH, transactionIndex: 0, logIndex: 0 },
  )
  assert.deepEqual(Object.keys(out), [
    'address', 'topics', 'data', 'blockNumber', 'transactionHash', 'transactionIndex', 'blockHash', 'blockTimestamp', 'logIndex', 'removed',
  ])
  assert.equal(out.data, '0x')
  assert.deepEqual(out.topics, [])
  assert.equal(out.logIndex, '0x0')
})
