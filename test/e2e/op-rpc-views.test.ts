/**
 * An OP Stack chain's blocks, transactions and receipts over JSON-RPC, read by viem with its OP Stack chain
 * formatters (`chainConfig` of viem/op-stack) and as raw JSON: a real node on an OP genesis with the real
 * predeploys (src/opstack/dev-genesis.ts), a block built through the execution API (an L1-attributes deposit,
 * a user deposit that mints, two signed transactions), committed and served by a real server.
 *
 * Every expected value comes from another computation than the one under test: deposits' fields from the
 * envelopes the test built and their hashes from viem's keccak256; deposit nonces from the state before the
 * block (eth_getTransactionCount at block 0); the receipts' OP keys from opstack/receipt-fields.ts fed the
 * signed transaction's bytes and the block's first transaction's input as served, and their l1Fee against
 * what the executor charged (read from the L1Block predeploy's storage, set by the real contract's code) and
 * against the L1 fee vault's balance.
 */

import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { createPublicClient, defineChain, http, keccak256, type Hex, type PublicClient } from 'viem'
import { chainConfig } from 'viem/op-stack'
import { ACCOUNTS, nextBlockEnv, signedTx } from '../support/dev-chain.ts'
import { holoceneExtraData, ISTHMUS_AT_GENESIS, isthmusL1Info, l1InfoDeposit, opGenesis, userDeposit, type OpForkTimes } from '../support/op-chain.ts'
import { startNode, type RunningNode } from '../support/server.ts'
import { tempDir } from '../support/temp-dir.ts'
import { Rng } from '../support/rng.ts'
import { VIEM_DEV_CHAIN } from '../support/viem-chain.ts'
import { OpenBlock } from '../../src/execution/block-builder.ts'
import { withOpPredeploys } from '../../src/opstack/dev-genesis.ts'
import { decodeDepositTransaction, type DepositTransaction } from '../../src/opstack/deposit-tx.ts'
import { encodeL1Info } from '../../src/opstack/l1-attributes.ts'
import { CANYON_DEPOSIT_RECEIPT_VERSION, l1CostReceiptFields } from '../../src/opstack/receipt-fields.ts'
import { L1_FEE_VAULT_ADDRESS, SEQUENCER_FEE_VAULT_ADDRESS } from '../../src/opstack/predeploy-addresses.ts'
import type { OpForkName } from '../../src/opstack/forks.ts'
import { bytesToHex, hexToBytes } from '../../src/primitives/hex.ts'

const ETHER = 10n ** 18n
const FEES = { baseFee: 30_000_000_000n, blobBaseFee: 2_000_000_000n, baseFeeScalar: 2_269n, blobBaseFeeScalar: 1_055_762n, operatorFeeScalar: 1_500_000n, operatorFeeConstant: 7_000n }
const OP_CHAIN = defineChain({ ...VIEM_DEV_CHAIN, ...chainConfig })

interface BuiltBlock {
  readonly running: RunningNode
  readonly client: PublicClient<ReturnType<typeof http>, typeof OP_CHAIN>
  readonly url: string
  readonly deposits: readonly { readonly envelope: Uint8Array; readonly tx: DepositTransaction }[]
  readonly signed: readonly { readonly hash: Hex; readonly bytes: Uint8Array; readonly l1Fee: bigint }[]
}

/** A node on an OP genesis with the real predeploys, and block 1: two deposits, then two signed transactions. */
async function opBlock(t: TestContext, forks: OpForkTimes, fork: OpForkName): Promise<BuiltBlock> {
  const running = await startNode(t, tempDir(t), withOpPredeploys(opGenesis(forks), fork))
  const node = running.node
  const env = { ...nextBlockEnv(node, hexToBytes(SEQUENCER_FEE_VAULT_ADDRESS)), extraData: holoceneExtraData(250, 6) }
  const head = node.chain.header(node.chain.head())!
  const block = await OpenBlock.open(node.rules, node.chain.store.kv, node.chain.store, head, env)
  const alice = hexToBytes('0x00000000000000000000000000000000000a11ce')
  const envelopes = [
    l1InfoDeposit(isthmusL1Info(FEES)),
    userDeposit({ from: alice, to: hexToBytes(ACCOUNTS[3]!.address), mint: 3n * ETHER, value: ETHER, gas: 100_000n, isSystemTx: false, data: Uint8Array.of(1, 2, 3) }),
  ]
  for (const envelope of envelopes) assert.equal(block.addDeposit(envelope).receipt.status, 1)
  // Incompressible calldata of two sizes: FastLZ's estimate then lies above Fjord's 100-byte floor, and
  // differs per transaction, so each receipt's keys depend on its own bytes.
  const rng = new Rng(41)
  const random = (n: number): string => bytesToHex(Uint8Array.from({ length: n }, () => rng.u32() & 0xff))
  const txs = [
    signedTx(node, 0, 0n, { to: ACCOUNTS[1]!.address, value: 12_345n, data: random(300), gasLimit: 100_000n }),
    signedTx(node, 2, 0n, { to: ACCOUNTS[3]!.address, data: random(900), gasLimit: 200_000n }),
  ]
  for (const tx of txs) await block.add(tx, tx.getSenderAddress().bytes, tx.hash())
  const signed = block.included.map((included, i) => ({ hash: bytesToHex(txs[i]!.hash()), bytes: txs[i]!.serialize(), l1Fee: included.rollupCosts!.l1Fee }))
  node.writer.commit(await block.seal())
  const client = createPublicClient({ chain: OP_CHAIN, transport: http(running.url) })
  return { running, client, url: running.url, deposits: envelopes.map((envelope) => ({ envelope, tx: decodeDepositTransaction(envelope) })), signed }
}

async function rpc<T = Record<string, unknown>>(url: string, method: string, params: unknown[]): Promise<T> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
  const body = (await response.json()) as { result?: unknown; error?: unknown }
  assert.equal(body.error, undefined, `${method}: ${JSON.stringify(body.error)}`)
  return body.result as T
}

/** The receipt's keys op-geth adds to a non-deposit receipt (receipt-fields.ts's names). */
const OP_KEYS = ['l1GasPrice', 'l1GasUsed', 'l1Fee', 'l1FeeScalar', 'l1BlobBaseFee', 'l1BaseFeeScalar', 'l1BlobBaseFeeScalar', 'operatorFeeScalar', 'operatorFeeConstant', 'daFootprintGasScalar', 'blobGasUsed']
const opKeysOf = (receipt: Record<string, unknown>): Record<string, unknown> => Object.fromEntries(OP_KEYS.filter((k) => k in receipt).map((k) => [k, receipt[k]]))

test('OP Stack blocks and transactions over JSON-RPC: deposits as op-geth shows them, read by viem OP formatters', async (t) => {
  const { client, url, deposits, signed } = await opBlock(t, ISTHMUS_AT_GENESIS, 'isthmus')
  const depositHashes = deposits.map((d) => keccak256(d.envelope))
  const allHashes = [...depositHashes, ...signed.map((s) => s.hash)]

  const hashesOnly = await client.getBlock({ blockNumber: 1n })
  assert.deepEqual(hashesOnly.transactions, allHashes)
  const block = await client.getBlock({ blockNumber: 1n, includeTransactions: true })
  assert.deepEqual(await client.getBlock({ blockHash: block.hash, includeTransactions: true }), block)
  assert.deepEqual(block.transactions.map((tx) => tx.hash), allHashes)

  for (const [i, { tx: built }] of deposits.entries()) {
    const tx = block.transactions[i]!
    // Each deposit's sender nonce before the block: the receipt's depositNonce, the transaction's nonce.
    const nonceBefore = await client.getTransactionCount({ address: bytesToHex(built.from), blockNumber: 0n })
    assert.equal(tx.type, 'deposit')
    assert.equal(tx.typeHex, '0x7e')
    assert.equal(tx.sourceHash, bytesToHex(built.sourceHash))
    assert.equal(tx.mint, built.mint === 0n ? undefined : built.mint)
    assert.equal(tx.isSystemTx, undefined)
    assert.equal(tx.from, bytesToHex(built.from))
    assert.equal(tx.to, bytesToHex(built.to!))
    assert.equal(tx.value, built.value)
    assert.equal(tx.gas, built.gas)
    assert.equal(tx.input, bytesToHex(built.data))
    assert.equal(tx.nonce, nonceBefore)
    assert.equal(tx.blockNumber, 1n)
    assert.equal(tx.transactionIndex, i)
    assert.deepEqual(await client.getTransaction({ hash: tx.hash }), tx)
    assert.deepEqual(await client.getTransaction({ blockNumber: 1n, index: i }), tx)
    assert.deepEqual(await client.getTransaction({ blockHash: block.hash, index: i }), tx)

    const raw = await rpc(url, 'eth_getTransactionByHash', [tx.hash])
    assert.equal(raw.depositReceiptVersion, `0x${CANYON_DEPOSIT_RECEIPT_VERSION.toString(16)}`)
    assert.deepEqual([raw.gasPrice, raw.v, raw.r, raw.s], ['0x0', '0x0', '0x0', '0x0'])
    for (const absent of ['chainId', 'yParity', 'maxFeePerGas', 'accessList']) assert.ok(!(absent in raw), absent)
    assert.equal(await rpc<string>(url, 'debug_getRawTransaction', [tx.hash]), bytesToHex(deposits[i]!.envelope))

    const receipt = await client.getTransactionReceipt({ hash: tx.hash })
    assert.equal(receipt.status, 'success')
    assert.equal(receipt.type, '0x7e')
    assert.equal(receipt.depositNonce, BigInt(nonceBefore))
    assert.equal(receipt.depositReceiptVersion, Number(CANYON_DEPOSIT_RECEIPT_VERSION))
    assert.equal(receipt.l1Fee, null)
    assert.deepEqual(opKeysOf(await rpc(url, 'eth_getTransactionReceipt', [tx.hash])), {})
  }
  for (const [j, s] of signed.entries()) {
    const tx = block.transactions[deposits.length + j]!
    assert.equal(tx.type, 'eip1559')
    assert.equal(tx.hash, s.hash)
    assert.equal(tx.sourceHash, undefined)
  }
})

test('OP Stack receipts over JSON-RPC: each non-deposit receipt carries the L1 fee keys receipt-fields.ts derives from its bytes and the block\'s L1 attributes', async (t) => {
  const { client, url, deposits, signed } = await opBlock(t, ISTHMUS_AT_GENESIS, 'isthmus')
  const block = await client.getBlock({ blockNumber: 1n, includeTransactions: true })
  const l1Attributes = hexToBytes(block.transactions[0]!.input)
  assert.deepEqual(l1Attributes, encodeL1Info(isthmusL1Info(FEES)))

  let l1Fees = 0n
  const l1GasUsed = new Set<unknown>()
  for (const s of signed) {
    const expected = l1CostReceiptFields('isthmus', l1Attributes, s.bytes)
    const raw = await rpc(url, 'eth_getTransactionReceipt', [s.hash])
    assert.deepEqual(opKeysOf(raw), expected)
    assert.ok(raw.operatorFeeScalar !== undefined && raw.l1BlobBaseFee !== undefined)
    assert.ok(!('depositNonce' in raw))
    l1GasUsed.add(raw.l1GasUsed)
    // What the executor charged (from L1Block's storage, as the real contract's code stored it) is what the receipt says.
    assert.equal(BigInt(raw.l1Fee as string), s.l1Fee)
    const receipt = await client.getTransactionReceipt({ hash: s.hash })
    assert.equal(receipt.l1Fee, BigInt(expected.l1Fee!))
    assert.equal(receipt.l1GasUsed, BigInt(expected.l1GasUsed!))
    assert.equal(receipt.l1GasPrice, BigInt(expected.l1GasPrice!))
    assert.equal(receipt.depositNonce, undefined)
    l1Fees += receipt.l1Fee!
  }
  assert.ok(l1Fees > 0n)
  assert.equal(l1GasUsed.size, signed.length, 'each transaction has its own L1 gas')
  assert.equal(await client.getBalance({ address: L1_FEE_VAULT_ADDRESS as Hex, blockNumber: 1n }), l1Fees)

  // eth_getBlockReceipts answers each receipt exactly as eth_getTransactionReceipt does, deposits first.
  const all = await rpc<Record<string, unknown>[]>(url, 'eth_getBlockReceipts', ['0x1'])
  const hashes = [...deposits.map((d) => keccak256(d.envelope)), ...signed.map((s) => s.hash)]
  assert.deepEqual(all, await Promise.all(hashes.map((h) => rpc(url, 'eth_getTransactionReceipt', [h]))))
  assert.deepEqual(
    (await client.getBlockReceipts({ blockNumber: 1n })).map((r) => r.l1Fee),
    [null, null, ...signed.map((s) => s.l1Fee)],
  )
})
