import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import type { BlockView, HeaderView, TransactionView } from '../chain/types.ts'
import { hexToBytes } from '../primitives/hex.ts'
import { formatBlock, formatHeader } from './block.ts'

type J = Record<string, unknown>

const DIR = new URL('../../../shared/rpc-compat/tests/eth_simulateV1/', import.meta.url)

/** Every block geth returned from eth_simulateV1 (a recent geth block shape), with its `calls` removed. */
function recordedBlocks(): { name: string; full: boolean; block: J }[] {
  const out: { name: string; full: boolean; block: J }[] = []
  for (const name of readdirSync(DIR).sort()) {
    const lines = readFileSync(new URL(name, DIR), 'utf8').split('\n')
    const req = JSON.parse(lines.find((l) => l.startsWith('>>'))!.slice(3)) as { params: [J] }
    const res = JSON.parse(lines.find((l) => l.startsWith('<<'))!.slice(3)) as { result?: J[] }
    if (!Array.isArray(res.result)) continue
    for (const { calls: _calls, ...block } of res.result) out.push({ name, full: req.params[0].returnFullTransactions === true, block })
  }
  return out
}

const big = (v: unknown): bigint => BigInt(v as string)
const bytes = (v: unknown): Uint8Array => hexToBytes(v as string)
const opt = <T>(v: unknown, f: (v: unknown) => T): T | undefined => (v === undefined ? undefined : f(v))

function headerOf(b: J): HeaderView {
  const h: HeaderView = {
    hash: bytes(b.hash),
    parentHash: bytes(b.parentHash),
    uncleHash: bytes(b.sha3Uncles),
    coinbase: bytes(b.miner),
    stateRoot: bytes(b.stateRoot),
    transactionsTrie: bytes(b.transactionsRoot),
    receiptTrie: bytes(b.receiptsRoot),
    logsBloom: bytes(b.logsBloom),
    difficulty: big(b.difficulty),
    number: big(b.number),
    gasLimit: big(b.gasLimit),
    gasUsed: big(b.gasUsed),
    timestamp: big(b.timestamp),
    extraData: bytes(b.extraData),
    mixHash: bytes(b.mixHash),
    nonce: bytes(b.nonce),
    baseFeePerGas: opt(b.baseFeePerGas, big),
    withdrawalsRoot: opt(b.withdrawalsRoot, bytes),
    blobGasUsed: opt(b.blobGasUsed, big),
    excessBlobGas: opt(b.excessBlobGas, big),
    parentBeaconBlockRoot: opt(b.parentBeaconBlockRoot, bytes),
    requestsHash: opt(b.requestsHash, bytes),
  }
  return h
}

function txOf(t: J): TransactionView {
  const type = Number(big(t.type))
  return {
    hash: bytes(t.hash),
    type,
    from: bytes(t.from),
    to: t.to === null ? null : bytes(t.to),
    nonce: big(t.nonce),
    gasLimit: big(t.gas),
    value: big(t.value),
    data: bytes(t.input),
    gasPrice: type < 2 ? big(t.gasPrice) : undefined,
    maxFeePerGas: opt(t.maxFeePerGas, big),
    maxPriorityFeePerGas: opt(t.maxPriorityFeePerGas, big),
    chainId: opt(t.chainId, big),
    accessList: opt(t.accessList, (l) => (l as J[]).map((e) => ({ address: bytes(e.address), storageKeys: (e.storageKeys as string[]).map(bytes) }))),
    maxFeePerBlobGas: opt(t.maxFeePerBlobGas, big),
    blobVersionedHashes: opt(t.blobVersionedHashes, (l) => (l as string[]).map(bytes)),
    v: big(t.v),
    r: big(t.r),
    s: big(t.s),
    serialized: new Uint8Array(0),
  }
}

function viewOf(b: J, full: boolean): BlockView {
  const txs = b.transactions as unknown[]
  return {
    header: headerOf(b),
    // Hash-only blocks only need the hashes; the rest of a view is never printed for them.
    transactions: txs.map((t) => (full ? txOf(t as J) : ({ ...txOf(PLACEHOLDER), hash: bytes(t) } as TransactionView))),
    uncleHashes: (b.uncles as string[]).map(bytes),
    withdrawals: opt(b.withdrawals, (l) =>
      (l as J[]).map((w) => ({ index: big(w.index), validatorIndex: big(w.validatorIndex), address: bytes(w.address), amount: big(w.amount) })),
    ),
    size: Number(big(b.size)),
  }
}

const PLACEHOLDER: J = {
  hash: `0x${'00'.repeat(32)}`, type: '0x0', from: `0x${'00'.repeat(20)}`, to: null, nonce: '0x0', gas: '0x0', value: '0x0',
  input: '0x', gasPrice: '0x0', v: '0x1b', r: '0x0', s: '0x0',
}

test('blocks encode exactly as geth recorded them in the eth_simulateV1 fixtures', () => {
  const blocks = recordedBlocks()
  assert.ok(blocks.some((b) => b.full) && blocks.some((b) => !b.full), 'fixtures cover both transaction modes')
  assert.ok(blocks.some((b) => b.full && (b.block.transactions as J[]).some((t) => t.type === '0x3')), 'a blob transaction is covered')
  for (const { name, full, block } of blocks) {
    assert.deepEqual(formatBlock(viewOf(block, full), full), block, name)
  }
})

test('no totalDifficulty; keys sorted as geth prints the map, with and without every optional field', () => {
  const sorted = (o: object, what: string): void => assert.deepEqual(Object.keys(o), Object.keys(o).sort(), what)
  for (const { name, block, full } of recordedBlocks()) {
    const view = viewOf(block, full)
    const out = formatBlock(view, full)
    assert.ok(!('totalDifficulty' in out))
    sorted(out, name)
    sorted(formatBlock({ ...view, withdrawals: [{ index: 1n, validatorIndex: 2n, address: new Uint8Array(20), amount: 3n }] }, full), `${name} with withdrawals`)
    sorted(formatBlock({ ...view, pending: true }, full), `${name} pending`)
    sorted(formatHeader(view.header), `${name} header`)
  }
})

test('fork fields appear only when the header has them; withdrawals only when the block has a list', () => {
  const { block } = recordedBlocks()[0]!
  const view = viewOf(block, false)
  const old: HeaderView = {
    ...view.header,
    baseFeePerGas: undefined,
    withdrawalsRoot: undefined,
    blobGasUsed: undefined,
    excessBlobGas: undefined,
    parentBeaconBlockRoot: undefined,
    requestsHash: undefined,
  }
  const out = formatBlock({ ...view, header: old, withdrawals: undefined }, false)
  for (const k of ['baseFeePerGas', 'withdrawalsRoot', 'blobGasUsed', 'excessBlobGas', 'parentBeaconBlockRoot', 'requestsHash', 'withdrawals']) {
    assert.ok(!(k in out), `${k} must be absent`)
  }
  assert.deepEqual(Object.keys(out).sort(), [
    'difficulty', 'extraData', 'gasLimit', 'gasUsed', 'hash', 'logsBloom', 'miner', 'mixHash', 'nonce', 'number',
    'parentHash', 'receiptsRoot', 'sha3Uncles', 'size', 'stateRoot', 'timestamp', 'transactions', 'transactionsRoot', 'uncles',
  ])
  const withOne = formatBlock(
    { ...view, withdrawals: [{ index: 3n, validatorIndex: 4n, address: new Uint8Array(20).fill(1), amount: 1000n }] },
    false,
  )
  assert.deepEqual(withOne.withdrawals, [{ index: '0x3', validatorIndex: '0x4', address: `0x${'01'.repeat(20)}`, amount: '0x3e8' }])
})

test('a pending block prints hash, nonce and miner as null, and its transactions carry 32 zero bytes as block hash', () => {
  const { block } = recordedBlocks().find((b) => b.full && (b.block.transactions as unknown[]).length > 0)!
  const out = formatBlock({ ...viewOf(block, true), pending: true }, true)
  assert.equal(out.hash, null)
  assert.equal(out.nonce, null)
  assert.equal(out.miner, null)
  assert.equal(out.number, block.number)
  const tx = (out.transactions as J[])[0]!
  assert.equal(tx.blockHash, `0x${'00'.repeat(32)}`)
  assert.equal(tx.blockNumber, block.number)
})
