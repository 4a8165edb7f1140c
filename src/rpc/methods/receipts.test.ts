import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { PRECONFIRMED_BLOCK_HASH, type ReceiptView } from '../../chain/types.ts'
import type { LocatedReceipt } from '../../node/api.ts'
import { bytesToHex } from '../../primitives/hex.ts'
import { RawJson } from '../transport/messages.ts'
import { fakeNode, invoke } from './fake-node.ts'
import { receiptMethods } from './receipts.ts'

const receipt: ReceiptView = {
  transactionHash: new Uint8Array(32).fill(7), transactionIndex: 0, type: 0, from: new Uint8Array(20).fill(1), to: null,
  status: 1, cumulativeGasUsed: 100n, gasUsed: 100n, effectiveGasPrice: 1n, contractAddress: new Uint8Array(20).fill(9),
  logs: [], logsBloom: new Uint8Array(256), firstLogIndex: 0,
}
const located: LocatedReceipt = { receipt, context: { blockHash: PRECONFIRMED_BLOCK_HASH, preconfirmed: true, blockNumber: 0x37n, blockTimestamp: 0x228n } }

function recordedParams(name: string): unknown[] {
  const lines = readFileSync(new URL(`../../../../shared/rpc-compat/tests/eth_getBlockReceipts/${name}`, import.meta.url), 'utf8').split('\n')
  return (JSON.parse(lines.find((l) => l.startsWith('>>'))!.slice(3)) as { params: unknown[] }).params
}

test('eth_getBlockReceipts: every rpc-compat block form reaches the node as the right BlockId', async () => {
  const { node, calls } = fakeNode()
  const m = receiptMethods(node)
  const shown: string[] = []
  for (const name of ['get-block-receipts-0.io', 'get-block-receipts-earliest.io', 'get-block-receipts-latest.io', 'get-block-receipts-not-found.io']) {
    assert.equal(await invoke(m, 'eth_getBlockReceipts', recordedParams(name)), null)
    const id = calls.at(-1)!.args[0] as { kind: string; tag?: string; number?: bigint; hash?: Uint8Array }
    shown.push(id.kind === 'tag' ? id.tag! : id.kind === 'number' ? `#${id.number}` : bytesToHex(id.hash!))
  }
  assert.deepEqual(shown, ['#0', 'earliest', 'latest', `0x${'00'.repeat(28)}deadbeef`])
})

/** eth_getBlockReceipts answers serialized JSON. */
async function blockReceipts(m: ReturnType<typeof receiptMethods>, params: unknown[]): Promise<Record<string, unknown>[]> {
  const raw = await invoke(m, 'eth_getBlockReceipts', params)
  assert.ok(raw instanceof RawJson)
  return JSON.parse(raw.json) as Record<string, unknown>[]
}

test('eth_getBlockReceipts: receipts of a pre-confirmed block are formatted with 32 zero bytes as block hash', async () => {
  const { node } = fakeNode({ getBlockReceipts: async () => [located] })
  const out = await blockReceipts(receiptMethods(node), ['pending'])
  assert.equal(out.length, 1)
  assert.equal(out[0]!.blockHash, `0x${'00'.repeat(32)}`)
  assert.equal(out[0]!.blockNumber, '0x37')
  assert.equal(out[0]!.contractAddress, `0x${'09'.repeat(20)}`)
  await assert.rejects(invoke(receiptMethods(node), 'eth_getBlockReceipts', []), /missing value for required argument 0/)
})

test('eth_getBlockReceipts: a sealed block asked for again is answered from the cache, a new snapshot is not', async () => {
  const sealed: LocatedReceipt = { receipt, context: { blockHash: new Uint8Array(32).fill(3), preconfirmed: false, blockNumber: 0x36n, blockTimestamp: 0x21cn } }
  let answer: readonly LocatedReceipt[] = [sealed]
  const { node } = fakeNode({ getBlockReceipts: async () => [...answer] })
  const m = receiptMethods(node)
  const first = await invoke(m, 'eth_getBlockReceipts', ['0x36'])
  assert.equal(await invoke(m, 'eth_getBlockReceipts', ['0x36']), first)
  assert.equal((await blockReceipts(m, ['0x36']))[0]!.blockHash, `0x${'03'.repeat(32)}`)
  answer = [located, { ...located, receipt: { ...receipt, transactionIndex: 1 } }]
  assert.equal((await blockReceipts(m, ['pending'])).length, 2)
  answer = [located]
  assert.equal((await blockReceipts(m, ['pending'])).length, 1)
  const empty = receiptMethods(fakeNode({ getBlockReceipts: async () => [] }).node)
  assert.deepEqual(await blockReceipts(empty, ['latest']), [])
})

test('eth_getTransactionReceipt: formatted or null', async () => {
  const { node, calls } = fakeNode({ getTransactionReceipt: async () => located })
  const hash = `0x${'07'.repeat(32)}`
  const out = (await invoke(receiptMethods(node), 'eth_getTransactionReceipt', [hash])) as Record<string, unknown>
  assert.equal(bytesToHex(calls[0]!.args[0] as Uint8Array), hash)
  assert.equal(out.transactionHash, hash)
  assert.equal(out.status, '0x1')
  assert.equal(await invoke(receiptMethods(fakeNode().node), 'eth_getTransactionReceipt', [hash]), null)
})
