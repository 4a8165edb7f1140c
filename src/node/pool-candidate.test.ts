/**
 * The pool's candidates run from their records (execution/tx-view.ts) give what their library objects give:
 * each transaction of types 0 to 2 is added twice, to two blocks opened on the same head: once as the pool
 * offers it (a record prepared as an admission worker prepares it, through the worker's wire format and a
 * structured clone, counting builds of its library object), once through its library object (the oracle:
 * evm-env.ts txInputOf). Receipts, rollup costs, bytes, state and the sealed blocks must be the same.
 */

import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { createTx, type TypedTransaction, type TypedTxData } from '@ethereumjs/tx'
import type { OpenBlock, IncludedTransaction } from '../execution/block-builder.ts'
import { ACCOUNTS, deployCode, devNode, nextBlockEnv, openOnHead, signedTx } from '../../test/support/dev-chain.ts'
import { holoceneExtraData, ISTHMUS_AT_GENESIS, isthmusL1Info, l1InfoDeposit, opGenesis, opNode } from '../../test/support/op-chain.ts'
import { SEQUENCER_FEE_VAULT } from '../opstack/fee-vaults.ts'
import { bigIntToFixedBytes, bytesToHex, hexToBytes } from '../primitives/hex.ts'
import { keccak256 } from '../primitives/keccak.ts'
import { decodeTx, type PooledTx } from '../txpool/decode.ts'
import { pooledFromPrepared, prepareTx, type PreparedTx } from '../txpool/prepared.ts'
import type { FlashNode } from './create-node.ts'
import { packBatch, unpackRecord } from './sender-recovery/wire.ts'
import { poolCandidate } from './pool-candidate.ts'

/**
 * `raw` as the pool holds it after an admission worker prepared it for `block`'s fork and sent the record
 * over (packBatch, a structured clone, unpackRecord), counting builds of its library object.
 */
function pooled(raw: Uint8Array, block: OpenBlock, alter: Partial<PreparedTx> = {}): { pooled: PooledTx; builds: () => number } {
  const common = block.header.common
  const record = unpackRecord(structuredClone(packBatch(7, [{ ...prepareTx(raw, common), ...alter }])), 0)!
  const inner = pooledFromPrepared(raw, record, common, 0)
  let builds = 0
  const counting = Object.create(inner, { tx: { get: () => (builds++, inner.tx) } }) as PooledTx
  return { pooled: counting, builds: () => builds }
}

async function twoBlocks(t: TestContext) {
  const node = await devNode(t)
  return { node, viaCandidates: await openOnHead(node), viaLibrary: await openOnHead(node) }
}

/** Adds `tx` to both blocks (as the pool offers it, and by its library object) and checks the two agree. */
async function addBoth(tx: TypedTransaction, viaCandidates: OpenBlock, viaLibrary: OpenBlock, builds: number[], label: string): Promise<IncludedTransaction> {
  const raw = tx.serialize()
  const c = pooled(raw, viaCandidates)
  const a = await viaCandidates.addCandidate(poolCandidate(c.pooled))
  const b = await viaLibrary.add(tx, tx.getSenderAddress().bytes, tx.hash())
  assert.deepEqual(a.receipt, b.receipt, label)
  assert.deepEqual(a.rollupCosts, b.rollupCosts, label)
  assert.deepEqual(a.raw, b.raw, label)
  builds.push(c.builds())
  return a
}

const key = (i: number): Uint8Array => hexToBytes(ACCOUNTS[i]!.privateKey)
const word = (n: number): Uint8Array => bigIntToFixedBytes(BigInt(n), 32)

/**
 * Runtime code: stores the first calldata word in slot 0, logs it with the caller as topic, reads slot 1,
 * stops. PUSH1 0 CALLDATALOAD DUP1 PUSH1 0 SSTORE PUSH1 0 MSTORE CALLER PUSH1 32 PUSH1 0 LOG1
 * PUSH1 1 SLOAD POP STOP
 */
const LOGGER = '600035806000556000523360206000a16001545000'
/** Runtime code: REVERT(0, 0). */
const REVERTER = '60006000fd'

/** The address a creation from `from` with `nonce` makes (rlp([sender, nonce]) for nonces below 128). */
function createdBy(from: number, nonce: number): `0x${string}` {
  const sender = hexToBytes(ACCOUNTS[from]!.address)
  const preimage = Uint8Array.of(0xd6, 0x94, ...sender, nonce === 0 ? 0x80 : nonce)
  return bytesToHex(keccak256(preimage).subarray(12))
}

/** A signed transaction of any type under the next block's fork; `unprotected`: a legacy one without EIP-155. */
function sign(node: FlashNode, from: number, data: TypedTxData & { type: number }, unprotected = false): TypedTransaction {
  const head = node.chain.header(node.chain.head())!
  const common = node.rules.at(head.number + 1n, head.timestamp + 1n).copy()
  if (unprotected) common.setHardfork('tangerineWhistle') // before EIP-155: the library signs with v = 27/28
  const fees = data.type === 2 ? { maxFeePerGas: 10_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n } : { gasPrice: 10_000_000_000n }
  const signed = createTx({ ...fees, ...data } as TypedTxData, { common }).sign(key(from))
  // Read back under the block's fork, as the pool reads it.
  return createTx(signed.toJSON() as TypedTxData, { common: node.rules.at(head.number + 1n, head.timestamp + 1n) })
}

/**
 * Every shape the record path takes: creations (one that deploys, one whose init code reverts, one out of
 * gas), calls with data, legacy with and without EIP-155, an access list on type 1 and 2, a revert, an
 * out-of-gas call, plain transfers. Expected statuses are this list's design.
 */
function mixed(node: FlashNode): { txs: TypedTransaction[]; statuses: number[]; logs: number[] } {
  const logger = createdBy(0, 0)
  const reverter = createdBy(0, 1)
  const warm = [{ address: logger, storageKeys: [bytesToHex(word(0)), bytesToHex(word(1))] }]
  const call = (n: number): `0x${string}` => bytesToHex(word(n))
  const txs = [
    sign(node, 0, { type: 2, nonce: 0n, data: deployCode(LOGGER) as `0x${string}`, gasLimit: 200_000n }),
    sign(node, 0, { type: 1, nonce: 1n, data: deployCode(REVERTER) as `0x${string}`, gasLimit: 200_000n }),
    sign(node, 1, { type: 0, nonce: 0n, to: logger, data: call(11), gasLimit: 100_000n }),
    sign(node, 1, { type: 0, nonce: 1n, to: logger, data: call(12), gasLimit: 100_000n }, true),
    sign(node, 2, { type: 1, nonce: 0n, to: logger, data: call(13), gasLimit: 100_000n, accessList: warm }),
    sign(node, 3, { type: 2, nonce: 0n, to: logger, value: 3n, data: `${call(14)}00ff`, gasLimit: 100_000n, accessList: warm }),
    sign(node, 2, { type: 2, nonce: 1n, to: reverter, data: call(15), gasLimit: 100_000n }),
    sign(node, 3, { type: 2, nonce: 1n, to: logger, data: call(16), gasLimit: 25_000n }),
    sign(node, 0, { type: 0, nonce: 2n, data: deployCode(LOGGER) as `0x${string}`, gasLimit: 54_000n }),
    sign(node, 0, { type: 2, nonce: 3n, data: '0x60006000fd', gasLimit: 100_000n }),
    sign(node, 1, { type: 0, nonce: 2n, to: ACCOUNTS[2]!.address as `0x${string}`, value: 5n, gasLimit: 21_000n }, true),
    sign(node, 2, { type: 1, nonce: 2n, to: ACCOUNTS[3]!.address as `0x${string}`, value: 6n, gasLimit: 21_000n }),
  ]
  return { txs, statuses: [1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1], logs: [0, 0, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0] }
}

test('transactions of types 0 to 2 from the pool run from their records, as their library objects run them', async (t) => {
  const { node, viaCandidates, viaLibrary } = await twoBlocks(t)
  const { txs, statuses, logs } = mixed(node)
  const builds: number[] = []
  for (const [i, tx] of txs.entries()) await addBoth(tx, viaCandidates, viaLibrary, builds, `tx ${i}`)
  assert.deepEqual(viaCandidates.included.map((i) => i.receipt.status), statuses)
  assert.deepEqual(viaCandidates.included.map((i) => i.receipt.logs.length), logs)
  // The shapes the list means to hold: type 0 with and without EIP-155, out of gas using the whole limit.
  assert.equal(txs[2]!.type, 0)
  assert.equal(txs[3]!.supports(155), false)
  assert.equal(txs[2]!.supports(155), true)
  assert.equal(viaCandidates.included[7]!.receipt.gasUsed, 25_000n)
  assert.equal(bytesToHex(viaCandidates.included[0]!.receipt.contractAddress!), createdBy(0, 0))
  assert.deepEqual(builds, txs.map(() => 0))
  assert.equal(viaCandidates.ranFromViews, txs.length)
  assert.equal(viaLibrary.ranFromViews, 0)
  assert.deepEqual(viaCandidates.diff(), viaLibrary.diff())
  // Asked for later (a read of the pending block), the library object is the transaction.
  assert.equal(bytesToHex(viaCandidates.included[5]!.tx.hash()), bytesToHex(txs[5]!.hash()))
  const [x, y] = [await viaCandidates.seal(), await viaLibrary.seal()]
  assert.equal(bytesToHex(x.stored.hash), bytesToHex(y.stored.hash))
  assert.deepEqual(x.stored.blockRlp, y.stored.blockRlp)
  assert.deepEqual(x.stored.receipts, y.stored.receipts)
})

test('a transaction decoded inline (its library object built at admission) runs from its fields the same way', async (t) => {
  const { node, viaCandidates, viaLibrary } = await twoBlocks(t)
  const { txs } = mixed(node)
  for (const [i, tx] of txs.entries()) {
    const inline = decodeTx(tx.serialize(), viaCandidates.header.common)
    const a = await viaCandidates.addCandidate(poolCandidate(inline))
    const b = await viaLibrary.add(tx, tx.getSenderAddress().bytes, tx.hash())
    assert.deepEqual(a.receipt, b.receipt, `tx ${i}`)
  }
  assert.equal(viaCandidates.ranFromViews, txs.length)
  assert.deepEqual(viaCandidates.diff(), viaLibrary.diff())
  assert.equal(bytesToHex((await viaCandidates.seal()).stored.hash), bytesToHex((await viaLibrary.seal()).stored.hash))
})

test('with fromViews off, the same candidates run through their library objects, built then', async (t) => {
  const node = await devNode(t)
  const viaLibraryObjects = await openOnHead(node, nextBlockEnv(node), { fromViews: false })
  const viaLibrary = await openOnHead(node)
  const tx = signedTx(node, 0, 0n, { to: ACCOUNTS[1]!.address, value: 12_345n, gasLimit: 21_000n })
  const c = pooled(tx.serialize(), viaLibraryObjects)
  const a = await viaLibraryObjects.addCandidate(poolCandidate(c.pooled))
  const b = await viaLibrary.add(tx, tx.getSenderAddress().bytes, tx.hash())
  assert.deepEqual(a.receipt, b.receipt)
  assert.ok(c.builds() > 0)
  assert.equal(viaLibraryObjects.ranFromViews, 0)
})

test('a record prepared under another fork runs from its view all the same: the EVM charges by the block\'s rules, not the record\'s gas figures', async (t) => {
  const { node, viaCandidates, viaLibrary } = await twoBlocks(t)
  const tx = signedTx(node, 0, 0n, { to: ACCOUNTS[1]!.address, value: 5n, gasLimit: 50_000n, data: '0x00ff' })
  // Figures that would show in the receipt if they were used.
  const c = pooled(tx.serialize(), viaCandidates, { fork: 'cancun', intrinsicGas: 1n, floorDataGas: 40_000n })
  assert.notEqual(viaCandidates.header.common.hardfork(), 'cancun')
  const a = await viaCandidates.addCandidate(poolCandidate(c.pooled))
  const b = await viaLibrary.add(tx, tx.getSenderAddress().bytes, tx.hash())
  assert.deepEqual(a.receipt, b.receipt)
  assert.equal(c.builds(), 0)
})

test('OP Stack: the record path sends the bytes as received to the L1 data fee and operator fee, as the library path does', async (t) => {
  const node = await opNode(t, opGenesis(ISTHMUS_AT_GENESIS))
  const env = { ...nextBlockEnv(node, bigIntToFixedBytes(SEQUENCER_FEE_VAULT, 20)), extraData: holoceneExtraData(250, 6) }
  const [viaCandidates, viaLibrary] = [await openOnHead(node, env), await openOnHead(node, env)]
  const info = isthmusL1Info({ baseFee: 30_000_000_000n, blobBaseFee: 2_000_000_000n, baseFeeScalar: 2_269n, blobBaseFeeScalar: 1_055_762n, operatorFeeScalar: 1_500_000n, operatorFeeConstant: 7_000n })
  viaCandidates.addDeposit(l1InfoDeposit(info))
  viaLibrary.addDeposit(l1InfoDeposit(info))
  const { txs, statuses } = mixed(node)
  const builds: number[] = []
  for (const [i, tx] of txs.entries()) {
    const a = await addBoth(tx, viaCandidates, viaLibrary, builds, `tx ${i}`)
    assert.ok(a.rollupCosts !== undefined && a.rollupCosts.l1Fee > 0n && a.rollupCosts.operatorFee > 0n, `tx ${i}`)
  }
  assert.deepEqual(viaCandidates.included.map((i) => i.receipt.status), statuses)
  assert.deepEqual(builds, txs.map(() => 0))
  assert.deepEqual(viaCandidates.diff(), viaLibrary.diff())
  const [x, y] = [await viaCandidates.seal(), await viaLibrary.seal()]
  assert.equal(bytesToHex(x.stored.hash), bytesToHex(y.stored.hash))
  assert.deepEqual(x.stored.receipts, y.stored.receipts)
})
