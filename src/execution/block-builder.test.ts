import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Address } from '@ethereumjs/util'
import { TransactionNotIncluded } from './block-builder.ts'
import { ACCOUNTS, deployCode, devNode, openOnHead, signedTx } from '../../test/support/dev-chain.ts'
import { bytesToHex, hexToBytes } from '../primitives/hex.ts'
import { LATEST } from '../primitives/block-id.ts'

test('a built block commits, reads back, and validates when imported by another node', async (t) => {
  const node = await devNode(t)
  const block = await openOnHead(node)
  const transfer = signedTx(node, 0, 0n, { to: ACCOUNTS[1]!.address, value: 12345n, gasLimit: 21_000n })
  const deploy = signedTx(node, 0, 1n, { data: deployCode('602a60005260206000f3') })
  for (const tx of [transfer, deploy]) await block.add(tx, tx.getSenderAddress().bytes, tx.hash())
  assert.equal(block.included.length, 2)
  assert.equal(block.included[0]!.receipt.status, 1)
  const created = block.included[1]!.receipt.contractAddress!
  assert.ok(created)

  const sealed = await block.seal()
  node.writer.commit(sealed)
  assert.equal(node.api.blockNumber(), 1n)
  const before = 10n ** 22n
  assert.equal(await node.api.getBalance(hexToBytes(ACCOUNTS[1]!.address), LATEST), before + 12345n)
  assert.equal(bytesToHex(await node.api.getCode(created, LATEST)), '0x602a60005260206000f3')
  assert.equal(bytesToHex(await node.api.call({ to: created }, LATEST)), `0x${'00'.repeat(31)}2a`)
  const receipts = await node.api.getBlockReceipts(LATEST)
  assert.deepEqual(receipts!.map((r) => bytesToHex(r.receipt.transactionHash)), [transfer, deploy].map((tx) => bytesToHex(tx.hash())))

  const other = await devNode(t)
  const result = await other.writer.importRlp(sealed.stored.blockRlp)
  assert.equal(result.imported, 1)
  const theirs = await other.api.getBlock(LATEST)
  assert.equal(bytesToHex(theirs!.header.hash), bytesToHex(sealed.stored.hash))
})

test('a transaction that cannot be included leaves the block and its state untouched', async (t) => {
  const node = await devNode(t)
  const block = await openOnHead(node)
  const gapped = signedTx(node, 0, 5n, { to: ACCOUNTS[1]!.address, value: 1n, gasLimit: 21_000n })
  await assert.rejects(block.add(gapped, gapped.getSenderAddress().bytes, gapped.hash()), TransactionNotIncluded)
  const tooBig = signedTx(node, 0, 0n, { to: ACCOUNTS[1]!.address, gasLimit: 40_000_000n })
  await assert.rejects(block.add(tooBig, tooBig.getSenderAddress().bytes, tooBig.hash()), TransactionNotIncluded)
  assert.equal(block.included.length, 0)
  const sender = await block.state.getAccount(new Address(hexToBytes(ACCOUNTS[0]!.address)))
  assert.equal(sender!.nonce, 0n)
})

test('a reverting transaction is included with status 0 and its gas charged', async (t) => {
  const node = await devNode(t)
  const block = await openOnHead(node)
  const deploy = signedTx(node, 2, 0n, { data: deployCode('60006000fd') })
  await block.add(deploy, deploy.getSenderAddress().bytes, deploy.hash())
  const target = bytesToHex(block.included[0]!.receipt.contractAddress!)
  const call = signedTx(node, 2, 1n, { to: target, gasLimit: 50_000n })
  const included = await block.add(call, call.getSenderAddress().bytes, call.hash())
  assert.equal(included.receipt.status, 0)
  assert.ok(included.receipt.gasUsed > 21_000n)
})
