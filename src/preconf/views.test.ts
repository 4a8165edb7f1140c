import assert from 'node:assert/strict'
import { test } from 'node:test'
import { deployCode, devNode, openOnHead, signedTx } from '../../test/support/dev-chain.ts'
import { bytesToHex } from '../primitives/hex.ts'
import type { IncludedTransaction } from '../execution/block-builder.ts'
import { makeSnapshot } from './snapshot.ts'
import { pendingReceipts } from './views.ts'

// LOG0 of 32 zero bytes, then STOP: one log per call.
const LOGGER_RUNTIME = '602060006000a000'

test('a receipt view is made for the transaction\'s place: the same transaction at another place in another snapshot gets its own index and log index', async (t) => {
  const node = await devNode(t)
  const block = await openOnHead(node)
  const create = signedTx(node, 0, 0n, { data: deployCode(LOGGER_RUNTIME), gasLimit: 200_000n })
  const created = await block.add(create, create.getSenderAddress().bytes, create.hash())
  assert.equal(created.receipt.status, 1, 'deployed')
  const logger = bytesToHex(created.receipt.contractAddress!)
  const calls: IncludedTransaction[] = []
  for (let nonce = 1n; nonce <= 2n; nonce++) {
    const tx = signedTx(node, 0, nonce, { to: logger, gasLimit: 100_000n })
    calls.push(await block.add(tx, tx.getSenderAddress().bytes, tx.hash()))
  }
  assert.equal(calls[0]!.receipt.logs.length, 1)
  const plainTx = signedTx(node, 1, 0n, { to: `0x${'77'.repeat(20)}`, value: 1n, gasLimit: 21_000n })
  const plain = await block.add(plainTx, plainTx.getSenderAddress().bytes, plainTx.hash())
  assert.equal(plain.receipt.logs.length, 0)
  const parent = node.chain.header(node.chain.head())!
  const snapshot = (transactions: typeof calls) => makeSnapshot(parent, block.header, 1, transactions, 0, block.diff(), 0n, 0n)
  const places = (s: ReturnType<typeof snapshot>) => pendingReceipts(s).map((r) => [bytesToHex(r.transactionHash), r.transactionIndex, r.firstLogIndex])
  const name = (x: { hash: Uint8Array }) => bytesToHex(x.hash)
  const inOrder = snapshot([created, calls[0]!, calls[1]!])
  assert.deepEqual(places(inOrder), [[name(created), 0, 0], [name(calls[0]!), 1, 0], [name(calls[1]!), 2, 1]])
  // The same objects elsewhere: another index with the same first log index, and the same index with another.
  assert.deepEqual(places(snapshot([calls[0]!, created, calls[1]!])), [[name(calls[0]!), 0, 0], [name(created), 1, 1], [name(calls[1]!), 2, 1]])
  assert.deepEqual(places(snapshot([created, plain, calls[1]!])), [[name(created), 0, 0], [name(plain), 1, 0], [name(calls[1]!), 2, 0]])
  assert.strictEqual(pendingReceipts(inOrder)[1], pendingReceipts(inOrder)[1], 'a snapshot\'s views are made once')
})

test('a receipt view carries exactly the optional fields of its record: a pre-Byzantium root instead of a status, a blob transaction\'s blob gas and price', async (t) => {
  const node = await devNode(t)
  const block = await openOnHead(node)
  const tx = signedTx(node, 1, 0n, { to: `0x${'77'.repeat(20)}`, value: 1n, gasLimit: 21_000n })
  const plain = await block.add(tx, tx.getSenderAddress().bytes, tx.hash())
  const { status: _status, ...withoutStatus } = plain.receipt
  const variants: IncludedTransaction[] = [
    plain,
    { ...plain, receipt: { ...withoutStatus, root: new Uint8Array(32).fill(7) } },
    { ...plain, receipt: { ...plain.receipt, blobGasUsed: 131_072n, blobGasPrice: 3n } },
  ]
  const parent = node.chain.header(node.chain.head())!
  const OPTIONAL = ['status', 'root', 'blobGasUsed', 'blobGasPrice'] as const
  for (const variant of variants) {
    const [view] = pendingReceipts(makeSnapshot(parent, block.header, 1, [variant], 0, block.diff(), 0n, 0n))
    const record = variant.receipt as unknown as Record<string, unknown>
    for (const field of OPTIONAL) {
      assert.equal(field in view!, field in record, `${field}: in the view exactly when in the record`)
      assert.deepEqual((view as unknown as Record<string, unknown>)[field], record[field], field)
    }
  }
})
