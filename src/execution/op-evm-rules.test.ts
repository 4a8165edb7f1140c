/**
 * The EVM's OP rules as execution/ hands them over (evm-env.ts rulesOf / evmRulesAt with the block's OP fork),
 * and the OP specs' "no blob transactions" for blocks (exec-engine.md, "Ecotone: disable Blob-transactions":
 * block building never selects one, a block state transition with one is invalid), on OP dev chains
 * (test/support/op-chain.ts) beside the same calls on the Ethereum dev chain, where nothing of it applies.
 * Also Isthmus's "Block Sealing": no EIP-7685 requests on an OP chain (the requests hash of none).
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { createTx } from '@ethereumjs/tx'
import { ACCOUNTS, DEV_CHAIN_ID, devNode, nextBlockEnv, openOnHead, signedTx, testGenesis } from '../../test/support/dev-chain.ts'
import { holoceneExtraData, ISTHMUS_AT_GENESIS, opGenesis, opNode } from '../../test/support/op-chain.ts'
import { FakeState } from '../txpool/test-kit.ts'
import { precompileAt } from '../evm/precompiles/registry.ts'
import { InvalidTransaction, type TxInput } from '../evm/types.ts'
import { OP_FORK_NAMES, opForkActive } from '../opstack/forks.ts'
import { SEQUENCER_FEE_VAULT } from '../opstack/fee-vaults.ts'
import { bigIntToFixedBytes, bytesToHex, hexToBytes } from '../primitives/hex.ts'
import { WITHDRAWAL_QUEUE_ADDRESS } from '../evm/system-call.ts'
import { BlockExecution, TX_TYPE_NOT_SUPPORTED } from './block-execution.ts'
import { TransactionNotIncluded } from './block-builder.ts'
import { ChainRules } from './chain-config.ts'
import { evmRulesAt, rulesOf } from './evm-env.ts'
import { ethConfig } from './fork-config.ts'
import type { FlashNode } from '../node/create-node.ts'

/** A signed blob transaction (its canonical form: what a block holds) from the first dev account. */
function blobTx(node: FlashNode) {
  const head = node.chain.header(node.chain.head())!
  return createTx(
    {
      type: 3,
      chainId: DEV_CHAIN_ID,
      nonce: 0n,
      to: ACCOUNTS[1]!.address as `0x${string}`,
      gasLimit: 50_000n,
      maxFeePerGas: 10_000_000_000n,
      maxPriorityFeePerGas: 1_000_000_000n,
      maxFeePerBlobGas: 10n,
      blobVersionedHashes: [`0x01${'ab'.repeat(31)}`],
    },
    { common: node.rules.at(head.number + 1n, head.timestamp + 2n) },
  ).sign(hexToBytes(ACCOUNTS[0]!.privateKey))
}

test('rulesOf carries the OP fork the EVM needs: each OP fork as the latest one at or before it that changes the EVM', () => {
  const common = new ChainRules(opGenesis(ISTHMUS_AT_GENESIS)).at(1n, 1n)
  for (const fork of OP_FORK_NAMES) {
    const op = rulesOf(common, fork).op!
    assert.equal(op.fjord, opForkActive(fork, 'fjord'), fork)
    assert.equal(op.granite, opForkActive(fork, 'granite'), fork)
    assert.equal(op.isthmus, opForkActive(fork, 'isthmus'), fork)
    assert.equal(op.jovian, opForkActive(fork, 'jovian'), fork)
  }
  assert.equal(rulesOf(common).op, undefined, 'no OP fork: Ethereum rules')
})

test('evmRulesAt follows the chain\'s OP fork schedule: no P256VERIFY before Fjord on a Prague OP chain, op-geth\'s from it', () => {
  const rules = new ChainRules(opGenesis({ bedrockBlock: 0, regolithTime: 0, canyonTime: 0, deltaTime: 0, ecotoneTime: 0, fjordTime: 100 }))
  const before = evmRulesAt(rules, 1n, 99n)
  const after = evmRulesAt(rules, 2n, 100n)
  assert.equal(before.op?.name, 'bedrock')
  assert.equal(after.op?.name, 'fjord')
  assert.equal(precompileAt(0x100n, before), undefined)
  assert.notEqual(precompileAt(0x100n, after), undefined)
  assert.equal(precompileAt(0x0bn, before) !== undefined, before.prague, 'before Fjord: the Ethereum fork\'s BLS12-381')
  assert.equal(precompileAt(0x0bn, after), undefined, 'Fjord\'s set has no BLS12-381 whatever the Ethereum fork')
})

test('an OP block never takes a blob transaction; an Ethereum block does', async (t) => {
  const op = await opNode(t, opGenesis(ISTHMUS_AT_GENESIS))
  const opBlock = await openOnHead(op, { ...nextBlockEnv(op, bigIntToFixedBytes(SEQUENCER_FEE_VAULT, 20)), extraData: holoceneExtraData(250, 6) })
  const tx = blobTx(op)
  await assert.rejects(opBlock.add(tx, tx.getSenderAddress().bytes, tx.hash()), (e: unknown) => {
    assert.ok(e instanceof TransactionNotIncluded)
    assert.equal(e.message, TX_TYPE_NOT_SUPPORTED)
    assert.equal(e.retryable, false)
    return true
  })
  assert.equal(opBlock.included.length, 0)

  const eth = await devNode(t)
  const ethBlock = await openOnHead(eth, nextBlockEnv(eth))
  const ethTx = blobTx(eth)
  await ethBlock.add(ethTx, ethTx.getSenderAddress().bytes, ethTx.hash())
  assert.equal(ethBlock.included.length, 1)
})

test('a block state transition with a blob transaction is invalid on an OP chain (import runs the same BlockExecution)', async (t) => {
  const node = await opNode(t, opGenesis(ISTHMUS_AT_GENESIS))
  const { header } = await openOnHead(node, { ...nextBlockEnv(node, bigIntToFixedBytes(SEQUENCER_FEE_VAULT, 20)), extraData: holoceneExtraData(250, 6) })
  const input: TxInput = { type: 3, from: 1n, nonce: 0n, gasLimit: 50_000n, to: 2n, value: 0n, data: new Uint8Array(), maxFeePerGas: 1n, maxPriorityFeePerGas: 0n, maxFeePerBlobGas: 1n, blobVersionedHashes: [1n << 248n] }
  const onOp = new BlockExecution(new FakeState(), header, () => 0n, 'isthmus')
  assert.throws(() => onOp.run(input, undefined, new Uint8Array([3])), (e: unknown) => e instanceof InvalidTransaction && e.reason === TX_TYPE_NOT_SUPPORTED)
  assert.equal(onOp.refusal(2), undefined, 'other types are not refused for their type')
  const onEthereum = new BlockExecution(new FakeState(), header, () => 0n)
  assert.equal(onEthereum.refusal(3), undefined)
  assert.throws(() => onEthereum.run(input), (e: unknown) => e instanceof InvalidTransaction && e.reason !== TX_TYPE_NOT_SUPPORTED, 'refused for other reasons only')
})

test('an OP block makes no EIP-7685 requests: a withdrawal request queued on an OP chain stays queued, the requests hash is of none', async (t) => {
  const NO_REQUESTS = bytesToHex(new Uint8Array(createHash('sha256').digest()))
  // An EIP-7002 withdrawal request: a 48-byte validator key and an 8-byte amount, with more than the fee.
  const request = (node: FlashNode) => signedTx(node, 0, 0n, { to: '0x' + WITHDRAWAL_QUEUE_ADDRESS.toString(16).padStart(40, '0'), data: '0x' + '11'.repeat(48) + '00'.repeat(8), value: 1_000_000n, gasLimit: 500_000n })
  const requestsHashAfter = async (node: FlashNode, env: ReturnType<typeof nextBlockEnv>): Promise<string> => {
    const block = await openOnHead(node, env)
    const tx = request(node)
    const included = await block.add(tx, tx.getSenderAddress().bytes, tx.hash())
    assert.equal(included.receipt.status, 1, 'the request is queued')
    const sealed = await block.seal()
    node.writer.commit(sealed)
    return bytesToHex(node.chain.header(sealed.stored.number)!.requestsHash!)
  }
  const eth = await devNode(t)
  assert.notEqual(await requestsHashAfter(eth, nextBlockEnv(eth)), NO_REQUESTS, 'Ethereum: the request is dequeued into the block')
  const op = await opNode(t, opGenesis(ISTHMUS_AT_GENESIS))
  assert.equal(await requestsHashAfter(op, { ...nextBlockEnv(op, bigIntToFixedBytes(SEQUENCER_FEE_VAULT, 20)), extraData: holoceneExtraData(250, 6) }), NO_REQUESTS)
})

test('eth_config on an OP chain lists the OP fork\'s precompiles: P256VERIFY from Fjord on Prague', () => {
  const point = { genesisHash: new Uint8Array(32).fill(7), genesisTime: 0n, headNumber: 5n, headTime: 10n }
  const op = ethConfig(new ChainRules(opGenesis(ISTHMUS_AT_GENESIS)), point)
  assert.equal(op.current!.precompiles.P256VERIFY, '0x0000000000000000000000000000000000000100')
  assert.equal(Object.keys(op.current!.precompiles).length, 18, 'Isthmus: 0x01..0x11 and 0x100')
  const eth = ethConfig(new ChainRules(testGenesis()), point)
  assert.equal(eth.current!.precompiles.P256VERIFY, undefined, 'Ethereum Prague: none at 0x100')
})

// Base's node (base/base crates/execution/rpc/src/config.rs): a zero blob schedule in every fork; the beacon
// roots contract from Ecotone, the history storage contract from Isthmus, no deposit or request contracts.
test('eth_config on an OP chain answers as Base\'s node: no blob capacity, only the system contracts the OP forks bring', () => {
  const point = { genesisHash: new Uint8Array(32).fill(7), genesisTime: 0n, headNumber: 5n, headTime: 10n }
  const BEACON_ROOTS = '0x000f3df6d732807ef1319fb7b8bb8522d0beac02'
  const HISTORY_STORAGE = '0x0000f90827f1c53a10cb7a02335b175320002935'
  const NO_BLOBS = { target: 0, max: 0, baseFeeUpdateFraction: 0 }
  const isthmus = ethConfig(new ChainRules(opGenesis(ISTHMUS_AT_GENESIS)), point)
  assert.deepEqual(isthmus.current!.blobSchedule, NO_BLOBS)
  assert.deepEqual(isthmus.current!.systemContracts, { BEACON_ROOTS_ADDRESS: BEACON_ROOTS, HISTORY_STORAGE_ADDRESS: HISTORY_STORAGE })
  // Isthmus (with Prague, as op-geth requires) after the head: the current fork lacks the history contract, the next has it.
  const later = opGenesis({ ...ISTHMUS_AT_GENESIS, isthmusTime: 1_000 }) as unknown as { config: Record<string, unknown> }
  later.config.pragueTime = 1_000
  const scheduled = ethConfig(new ChainRules(later as never), point)
  assert.deepEqual(scheduled.current!.systemContracts, { BEACON_ROOTS_ADDRESS: BEACON_ROOTS })
  assert.deepEqual(scheduled.current!.blobSchedule, NO_BLOBS)
  assert.equal(scheduled.next!.activationTime, 1_000n)
  assert.deepEqual(scheduled.next!.systemContracts, { BEACON_ROOTS_ADDRESS: BEACON_ROOTS, HISTORY_STORAGE_ADDRESS: HISTORY_STORAGE })
  assert.deepEqual(scheduled.next!.blobSchedule, NO_BLOBS)
  // Ethereum keeps geth's answer: Prague's blob schedule and its five system contracts.
  const eth = ethConfig(new ChainRules(testGenesis()), point)
  assert.deepEqual(Object.keys(eth.current!.systemContracts).sort(), ['BEACON_ROOTS_ADDRESS', 'CONSOLIDATION_REQUEST_PREDEPLOY_ADDRESS', 'DEPOSIT_CONTRACT_ADDRESS', 'HISTORY_STORAGE_ADDRESS', 'WITHDRAWAL_REQUEST_PREDEPLOY_ADDRESS'])
  assert.notDeepEqual(eth.current!.blobSchedule, NO_BLOBS)
})
