/**
 * The OP Stack's execution rules through the block builder (OpenBlock), import and eth_call, on an OP dev
 * chain (test/support/op-chain.ts). Expected values come from the deposits spec's rules and from the pure
 * rule modules of src/opstack/ reading the block's own L1-attributes calldata (receipt-fields.ts, l1-cost.ts),
 * never from the executor's own numbers: the executor reads the same parameters from the L1Block predeploy's
 * storage instead.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { ACCOUNTS, devNode, nextBlockEnv, openOnHead, signedTx, deployCode } from '../../test/support/dev-chain.ts'
import { holoceneExtraData, ISTHMUS_AT_GENESIS, isthmusL1Info, l1InfoDeposit, opGenesis, opNode, userDeposit } from '../../test/support/op-chain.ts'
import { BASE_FEE_VAULT, L1_FEE_VAULT, OPERATOR_FEE_VAULT, SEQUENCER_FEE_VAULT } from '../opstack/fee-vaults.ts'
import { encodeL1Info } from '../opstack/l1-attributes.ts'
import { l1FeeParamsFromCalldata } from '../opstack/l1-attributes.ts'
import { operatorFee } from '../opstack/l1-cost.ts'
import { l1CostReceiptFields } from '../opstack/receipt-fields.ts'
import { bigIntToFixedBytes, bytesToHex, hexToBytes } from '../primitives/hex.ts'
import { LATEST } from '../primitives/block-id.ts'
import type { FlashNode } from '../node/create-node.ts'

const ETHER = 10n ** 18n
const addr = (n: bigint): Uint8Array => bigIntToFixedBytes(n, 20)
const balance = (node: FlashNode, a: Uint8Array): Promise<bigint> => node.api.getBalance(a, LATEST)
const nonce = (node: FlashNode, a: Uint8Array): Promise<bigint> => node.api.getTransactionCount(a, LATEST)
const REVERTER = '0x00000000000000000000000000000000000000e1'
const LOOPER = '0x00000000000000000000000000000000000000e2'
const CODE = { [REVERTER]: '60006000fd', [LOOPER]: '5b600056' }
const FEES = { baseFee: 30_000_000_000n, blobBaseFee: 2_000_000_000n, baseFeeScalar: 2_269n, blobBaseFeeScalar: 1_055_762n, operatorFeeScalar: 1_500_000n, operatorFeeConstant: 7_000n }

/** The OP environment of the next block: the sequencer fee vault as coinbase, Holocene's extraData. */
function opEnv(node: FlashNode) {
  return { ...nextBlockEnv(node, addr(SEQUENCER_FEE_VAULT)), extraData: holoceneExtraData(250, 6) }
}

test('a normal transaction pays its L1 data fee and operator fee; the vaults get the L1 fees, gas used × base fee, the operator fees, the coinbase the tips', async (t) => {
  const node = await opNode(t, opGenesis(ISTHMUS_AT_GENESIS))
  const block = await openOnHead(node, opEnv(node))
  const info = isthmusL1Info(FEES)
  block.addDeposit(l1InfoDeposit(info))
  const txs = [
    signedTx(node, 0, 0n, { to: ACCOUNTS[1]!.address, value: 12_345n, gasLimit: 21_000n }),
    signedTx(node, 0, 1n, { data: deployCode('602a60005260206000f3'), gasLimit: 200_000n }),
    signedTx(node, 2, 0n, { to: ACCOUNTS[3]!.address, data: '0x' + '00ff'.repeat(300), gasLimit: 100_000n }),
  ]
  const sender0 = hexToBytes(ACCOUNTS[0]!.address)
  const before0 = await balance(node, sender0)
  for (const tx of txs) await block.add(tx, tx.getSenderAddress().bytes, tx.hash())
  const baseFee = block.header.baseFeePerGas!
  // Holocene: the genesis's extraData (denominator 250, elasticity 6) and its empty block give the base fee.
  const target = 30_000_000n / 6n
  assert.equal(baseFee, 1_000_000_000n - (target * 1_000_000_000n) / target / 250n)

  const calldata = encodeL1Info(info)
  const params = l1FeeParamsFromCalldata('isthmus', calldata)
  let l1Fees = 0n
  let baseFees = 0n
  let operatorFees = 0n
  let tips = 0n
  let paidBy0 = 0n
  for (const [i, included] of block.included.entries()) {
    const raw = txs[i]!.serialize()
    const expected = l1CostReceiptFields('isthmus', calldata, raw)
    const gasUsed = included.receipt.gasUsed
    const opFee = operatorFee('isthmus', params, gasUsed)
    assert.equal(included.rollupCosts?.l1Fee, BigInt(expected.l1Fee!), `tx ${i} l1Fee`)
    assert.equal(included.rollupCosts?.l1GasUsed, BigInt(expected.l1GasUsed!), `tx ${i} l1GasUsed`)
    assert.equal(included.rollupCosts?.operatorFee, opFee, `tx ${i} operator fee`)
    assert.ok(BigInt(expected.l1Fee!) > 0n && opFee > 0n)
    l1Fees += BigInt(expected.l1Fee!)
    baseFees += gasUsed * baseFee
    operatorFees += opFee
    tips += gasUsed * (included.receipt.effectiveGasPrice - baseFee)
    if (i < 2) paidBy0 += gasUsed * included.receipt.effectiveGasPrice + BigInt(expected.l1Fee!) + opFee
  }
  const sealed = await block.seal()
  node.writer.commit(sealed)
  assert.equal(await balance(node, addr(L1_FEE_VAULT)), l1Fees)
  assert.equal(await balance(node, addr(BASE_FEE_VAULT)), baseFees)
  assert.equal(await balance(node, addr(OPERATOR_FEE_VAULT)), operatorFees)
  assert.equal(await balance(node, addr(SEQUENCER_FEE_VAULT)), tips)
  assert.equal(await balance(node, sender0), before0 - paidBy0 - 12_345n)

  // The same block imported by another node: every commitment (gas, receipts root, state root) checks out.
  const other = await opNode(t, opGenesis(ISTHMUS_AT_GENESIS))
  const result = await other.writer.importRlp(sealed.stored.blockRlp)
  assert.equal(result.imported, 1)
  assert.equal(await balance(other, addr(L1_FEE_VAULT)), l1Fees)
})

test('the L1 fee and the upfront operator fee count in the balance check: a sender short of them cannot be included', async (t) => {
  const node = await opNode(t, opGenesis(ISTHMUS_AT_GENESIS))
  const block = await openOnHead(node, opEnv(node))
  block.addDeposit(l1InfoDeposit(isthmusL1Info(FEES)))
  const poor = ACCOUNTS[1]!
  const tx = signedTx(node, 1, 1n, { to: ACCOUNTS[2]!.address, gasLimit: 21_000n, maxFeePerGas: 10_000_000_000n })
  // Gas limit × fee cap + L1 fee + operator fee for the limit: what the balance check asks for.
  const calldata = encodeL1Info(isthmusL1Info(FEES))
  const need = 21_000n * 10_000_000_000n + BigInt(l1CostReceiptFields('isthmus', calldata, tx.serialize()).l1Fee!) + operatorFee('isthmus', l1FeeParamsFromCalldata('isthmus', calldata), 21_000n)
  const have = await balance(node, hexToBytes(poor.address))
  assert.ok(have > need)
  // A deposit from the poor account moves all but 1 wei short of `need` away (deposits pay no fee).
  const surplus = have - need + 1n
  const moved = block.addDeposit(userDeposit({ from: hexToBytes(poor.address), to: hexToBytes(ACCOUNTS[3]!.address), mint: 0n, value: surplus, gas: 21_000n, isSystemTx: false, data: new Uint8Array(0) }))
  assert.equal(moved.receipt.status, 1)
  await assert.rejects(block.add(tx, tx.getSenderAddress().bytes, tx.hash()), /insufficient funds for gas \* price \+ value/)
})

test('deposits: a mint, a revert, a refused one, one out of gas: mint kept, nonce + 1, gas used and receipts as the specs state', async (t) => {
  const node = await opNode(t, opGenesis(ISTHMUS_AT_GENESIS, CODE))
  const block = await openOnHead(node, opEnv(node))
  const alice = hexToBytes('0x00000000000000000000000000000000000a11ce')
  const bob = hexToBytes('0x0000000000000000000000000000000000000b0b')
  const plain = { isSystemTx: false, data: new Uint8Array(0) }
  const minted = block.addDeposit(userDeposit({ from: alice, to: bob, mint: 5n * ETHER, value: ETHER, gas: 100_000n, ...plain }))
  const reverted = block.addDeposit(userDeposit({ from: alice, to: hexToBytes(REVERTER), mint: 2n * ETHER, value: ETHER, gas: 100_000n, ...plain }))
  const refused = block.addDeposit(userDeposit({ from: alice, to: bob, mint: ETHER, value: 100n * ETHER, gas: 60_000n, ...plain }))
  const outOfGas = block.addDeposit(userDeposit({ from: alice, to: hexToBytes(LOOPER), mint: 0n, value: 0n, gas: 50_000n, ...plain }))

  assert.deepEqual([minted, reverted, refused, outOfGas].map((d) => d.receipt.status), [1, 0, 0, 0])
  assert.deepEqual([minted, reverted, refused, outOfGas].map((d) => d.failed), [false, false, true, false])
  // Regolith on: the gas the execution used; a refused deposit its whole limit; out of gas: all of it.
  assert.equal(minted.receipt.gasUsed, 21_000n)
  assert.ok(reverted.receipt.gasUsed > 21_000n && reverted.receipt.gasUsed < 100_000n)
  assert.equal(refused.receipt.gasUsed, 60_000n)
  assert.equal(outOfGas.receipt.gasUsed, 50_000n)
  // depositNonce: the nonce before execution; Canyon on: receipt version 1. No fee: effective gas price 0.
  assert.deepEqual([minted, reverted, refused, outOfGas].map((d) => d.receipt.depositNonce), [0n, 1n, 2n, 3n])
  assert.ok([minted, reverted, refused, outOfGas].every((d) => d.receipt.depositReceiptVersion === 1n && d.receipt.effectiveGasPrice === 0n))
  assert.deepEqual(refused.receipt.logs, [])

  node.writer.commit(await block.seal())
  // Mints 5 + 2 + 1 ether, 1 ether to bob (the revert gave its value back, the refused one moved nothing).
  assert.equal(await balance(node, alice), 7n * ETHER)
  assert.equal(await balance(node, bob), ETHER)
  assert.equal(await nonce(node, alice), 4n)
  const receipts = await node.api.getBlockReceipts(LATEST)
  assert.deepEqual(receipts!.map((r) => r.receipt.depositNonce), [0n, 1n, 2n, 3n])
  assert.equal(receipts!.at(-1)!.receipt.cumulativeGasUsed, 21_000n + reverted.receipt.gasUsed + 60_000n + 50_000n)
})

test('a system deposit: before Regolith it runs and uses no gas; from Regolith it fails with its mint kept, nonce + 1, all its gas used', async (t) => {
  const system = (from: Uint8Array, to: Uint8Array) => userDeposit({ from, to, mint: 3n * ETHER, value: ETHER, gas: 80_000n, isSystemTx: true, data: new Uint8Array(0) })
  const carol = hexToBytes('0x00000000000000000000000000000000000ca201')
  const dave = hexToBytes('0x00000000000000000000000000000000000da7e0')

  const bedrock = await opNode(t, opGenesis({ bedrockBlock: 0 }))
  const pre = await openOnHead(bedrock)
  const ran = pre.addDeposit(system(carol, dave))
  const normal = pre.addDeposit(userDeposit({ from: carol, to: dave, mint: 0n, value: 1n, gas: 70_000n, isSystemTx: false, data: new Uint8Array(0) }))
  assert.equal(ran.receipt.status, 1)
  assert.equal(ran.receipt.gasUsed, 0n)
  // Before Regolith a deposit uses its whole gas limit, and no receipt records a nonce.
  assert.equal(normal.receipt.gasUsed, 70_000n)
  assert.equal(ran.receipt.depositNonce, undefined)
  const sealedPre = await pre.seal()
  bedrock.writer.commit(sealedPre)
  assert.equal(await balance(bedrock, dave), ETHER + 1n)
  assert.equal(await balance(bedrock, carol), 2n * ETHER - 1n)
  assert.equal(await nonce(bedrock, carol), 2n)
  assert.equal(bedrock.chain.header(bedrock.chain.head())!.gasUsed, 70_000n)

  const regolith = await opNode(t, opGenesis({ bedrockBlock: 0, regolithTime: 0 }))
  const post = await openOnHead(regolith)
  const failed = post.addDeposit(system(carol, dave))
  assert.equal(failed.failed, true)
  assert.equal(failed.receipt.status, 0)
  assert.equal(failed.receipt.gasUsed, 80_000n)
  assert.equal(failed.receipt.depositNonce, 0n)
  assert.equal(failed.receipt.depositReceiptVersion, undefined) // Canyon off
  regolith.writer.commit(await post.seal())
  assert.equal(await balance(regolith, carol), 3n * ETHER)
  assert.equal(await balance(regolith, dave), 0n)
  assert.equal(await nonce(regolith, carol), 1n)
})

test('eth_call and eth_estimateGas on an OP chain: the L1 fee is not part of gas, nor of the balance a call needs', async (t) => {
  const node = await opNode(t, opGenesis(ISTHMUS_AT_GENESIS))
  const block = await openOnHead(node, opEnv(node))
  block.addDeposit(l1InfoDeposit(isthmusL1Info(FEES)))
  node.writer.commit(await block.seal())
  const empty = hexToBytes('0x00000000000000000000000000000000000e3971')
  const req = { from: empty, to: hexToBytes(ACCOUNTS[1]!.address), data: hexToBytes('0x' + 'ff'.repeat(100)) }
  // The same estimate as on the Ethereum dev chain: no L1 gas in it.
  const ethereum = await devNode(t)
  assert.equal(await node.api.estimateGas(req, LATEST), await ethereum.api.estimateGas(req, LATEST))
  // A sender with nothing can call without a fee (no L1 fee charged or checked).
  assert.equal(bytesToHex(await node.api.call(req, LATEST)), '0x')
  // A call naming a fee runs the settlement (base fee vault, operator fee) as op-geth's message does.
  const paying = { ...req, from: hexToBytes(ACCOUNTS[0]!.address), maxFeePerGas: 5_000_000_000n, maxPriorityFeePerGas: 1n }
  assert.equal(bytesToHex(await node.api.call(paying, LATEST)), '0x')
})
