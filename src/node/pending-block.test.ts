/**
 * The pending block as JSON-RPC answers it: a block of its own built from the pre-confirmed transactions of
 * every flashblock so far (in order), with the open block's number, no hash yet, gas used and logs bloom
 * summed over its receipts, and receipts whose log indexes run across the whole block.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { ACCOUNTS, deployCode, signedTx } from '../../test/support/dev-chain.ts'
import { manualNode, rpc } from '../../test/support/sequencing-node.ts'
import { bytesToHex } from '../primitives/hex.ts'

/** Runtime code: LOG1 with topic 0x2a and no data. */
const EMITTER = '602a60006000a100'

const orBlooms = (blooms: string[]): string => {
  const out = new Uint8Array(256)
  for (const b of blooms) Buffer.from(b.slice(2), 'hex').forEach((x, i) => (out[i]! |= x))
  return `0x${Buffer.from(out).toString('hex')}`
}
const ZERO_BLOOM = `0x${'00'.repeat(256)}`

test('the pending block holds every flashblock\'s transactions in order, with summed gas and bloom, and block-wide log indexes', async (t) => {
  const node = await manualNode(t)
  const deploy = signedTx(node, 0, 0n, { data: deployCode(EMITTER) })
  await node.api.sendRawTransaction(deploy.serialize())
  await node.api.mine()
  const emitter = (await rpc(node, 'eth_getTransactionReceipt', [bytesToHex(deploy.hash())])).contractAddress as string
  const latest = await rpc(node, 'eth_getBlockByNumber', ['latest', false])

  const a = signedTx(node, 1, 0n, { to: emitter })
  const b = signedTx(node, 2, 0n, { to: ACCOUNTS[3]!.address, value: 5n, gasLimit: 21_000n })
  const c = signedTx(node, 3, 0n, { to: emitter })
  await node.api.sendRawTransaction(a.serialize())
  await node.api.sendRawTransaction(b.serialize())
  await node.api.flashblock()
  await node.api.sendRawTransaction(c.serialize())
  await node.api.flashblock()
  const hashes = [a, b, c].map((tx) => bytesToHex(tx.hash()))

  const receipts = await rpc(node, 'eth_getBlockReceipts', ['pending'])
  assert.deepEqual(receipts.map((r: any) => r.transactionHash), hashes)
  assert.deepEqual(receipts.map((r: any) => r.transactionIndex), ['0x0', '0x1', '0x2'])
  assert.deepEqual(receipts.map((r: any) => r.logs.map((l: any) => l.logIndex)), [['0x0'], [], ['0x1']], 'log indexes run across the block')
  assert.deepEqual(receipts.map((r: any) => r.logs.map((l: any) => l.transactionIndex)), [['0x0'], [], ['0x2']])
  assert.notEqual(receipts[0].logsBloom, ZERO_BLOOM, 'a receipt with a log has its bloom')
  assert.equal(receipts[1].logsBloom, ZERO_BLOOM)
  assert.deepEqual(await rpc(node, 'eth_getTransactionReceipt', [hashes[2]]), receipts[2], 'one receipt, however it is asked for')

  const block = await rpc(node, 'eth_getBlockByNumber', ['pending', false])
  assert.equal(block.number, '0x2', 'the open block after the sealed one')
  assert.equal(block.hash, null, 'no hash before the seal')
  assert.equal(block.miner, null, 'geth answers the pending block\'s miner and nonce as null')
  assert.equal(block.nonce, null)
  assert.deepEqual(block.uncles, [])
  assert.equal(block.parentHash, latest.hash)
  assert.deepEqual(block.transactions, hashes)
  assert.equal(BigInt(block.gasUsed), BigInt(receipts[2].cumulativeGasUsed))
  assert.equal(BigInt(block.gasUsed), receipts.reduce((n: bigint, r: any) => n + BigInt(r.gasUsed), 0n))
  assert.equal(block.logsBloom, orBlooms(receipts.map((r: any) => r.logsBloom)))
  assert.notEqual(block.logsBloom, ZERO_BLOOM)
  assert.deepEqual(block.withdrawals, [], 'a post-Shanghai block lists its (no) withdrawals')
  const serialized = [a, b, c].reduce((n, tx) => n + tx.serialize().length, 0)
  assert.ok(Number(block.size) >= serialized, `size ${Number(block.size)} holds the transactions' ${serialized} bytes`)

  const full = await rpc(node, 'eth_getBlockByNumber', ['pending', true])
  assert.deepEqual(full.transactions.map((x: any) => [x.hash, x.transactionIndex, x.blockNumber]), hashes.map((h, i) => [h, `0x${i}`, '0x2']))
  const baseFee = BigInt(block.baseFeePerGas)
  for (const [i, x] of full.transactions.entries()) {
    const [feeCap, tip] = [BigInt(x.maxFeePerGas), BigInt(x.maxPriorityFeePerGas)]
    const price = feeCap < baseFee + tip ? feeCap : baseFee + tip
    assert.equal(BigInt(x.gasPrice), price, 'priced at the pending block\'s own base fee')
    assert.equal(BigInt(receipts[i].effectiveGasPrice), price)
    const byHash = await rpc(node, 'eth_getTransactionByHash', [x.hash])
    assert.equal(BigInt(byHash.gasPrice), price, 'the same price when asked by hash')
    assert.equal(byHash.blockNumber, '0x2')
  }
})
