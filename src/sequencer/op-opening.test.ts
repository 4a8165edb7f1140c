/**
 * The sequencer's OP Stack duties through the public interface: a real node on the chain `--op-stack` builds
 * (the genesis and sequencer settings the CLI makes of `--op-stack --op-l1 FILE --sealing manual`), viem on
 * its JSON-RPC endpoint. Expected values come from the configured L1 file and src/opstack's pure rule
 * modules, never from the executor. Blocks are read as the node's own sealed bytes (the sequencer's seal):
 * eth_getBlockByNumber on a block with deposits is the RPC views' work, not here.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { RLP } from '@ethereumjs/rlp'
import { createPublicClient, http, parseAbi, serializeTransaction, toHex, type Hex, type TransactionSerializableEIP1559 } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { devAccounts } from '../node/dev-genesis.ts'
import type { ExecutedBlock } from '../execution/block-runner.ts'
import { decodeDepositTransaction, depositTransactionHash } from '../opstack/deposit-tx.ts'
import { decodeL1Info, l1FeeParamsFromCalldata } from '../opstack/l1-attributes.ts'
import { l1DataFee, rollupCostData } from '../opstack/l1-cost.ts'
import { l1CostReceiptFields } from '../opstack/receipt-fields.ts'
import { BASE_FEE_VAULT_ADDRESS, GAS_PRICE_ORACLE_ADDRESS, L1_BLOCK_ADDRESS, L1_FEE_VAULT_ADDRESS, L1_INFO_DEPOSITOR_ADDRESS, SEQUENCER_FEE_VAULT_ADDRESS } from '../opstack/predeploy-addresses.ts'
import { bytesToHex, hexToBytes } from '../primitives/hex.ts'
import { MessageBuilder } from '../stream/message-builder.ts'
import type { PreconfirmedSnapshot } from '../preconf/snapshot.ts'
import { startNode } from '../../test/support/server.ts'
import { BASE_LIKE_DEV_L1 } from '../opstack/dev-genesis.ts'
import { L1_BLOCK_ABI as l1BlockAbi, opStackCliConfig } from '../../test/support/op-chain.ts'
import { tempDir } from '../../test/support/temp-dir.ts'

const ETHER = 10n ** 18n
const L1 = { l1BaseFee: 7_654_321_987n, l1BlobBaseFee: 3_210_987n, baseFeeScalar: 2_269n, blobBaseFeeScalar: 1_055_762n, operatorFeeScalar: 0n, operatorFeeConstant: 0n }
const [ALICE, BOB] = ['0x00000000000000000000000000000000000a11ce', '0x0000000000000000000000000000000000000b0b'] as const

const oracleAbi = parseAbi(['function getL1Fee(bytes) view returns (uint256)'])

/** A sealed block's transactions as its bytes hold them (typed envelopes). */
const bodyOf = (executed: ExecutedBlock): Uint8Array[] => (RLP.decode(executed.stored.blockRlp) as unknown as Uint8Array[][])[1]!

test('--op-stack: every block opens with the L1-attributes deposit, user deposits follow it and mint, the L1 fee vault takes the receipts\' L1 fees, a restart resumes the opening', async (t) => {
  const dir = tempDir(t)
  const config = opStackCliConfig(join(dir, '..'), L1)
  const dataDir = join(dir, 'chain')
  const running = await startNode(t, dataDir, config.genesis, { sequencer: config.sequencer })
  const node = running.node
  await node.start()
  const sequencer = node.sequencer!
  const client = createPublicClient({ transport: http(running.url) })
  const signer = privateKeyToAccount(devAccounts(1)[0]!.privateKey as Hex)
  const openings: PreconfirmedSnapshot[] = []
  sequencer.on('flashblock', (s) => {
    if (s.index === 0) openings.push(s)
  })
  const chainId = await client.getChainId()
  const tx = (nonce: number, data: Hex): TransactionSerializableEIP1559 => ({
    type: 'eip1559', chainId, nonce, to: BOB, value: 1n, data, gas: 100_000n, maxFeePerGas: 10_000_000_000n, maxPriorityFeePerGas: 1_000_000n,
  })
  const send = async (t: TransactionSerializableEIP1559) => client.sendRawTransaction({ serializedTransaction: await signer.signTransaction(t) })

  // Block 1: its opening (L1 info) was built at start; a user transaction; a deposit sent now waits for block 2.
  const depositHash = await client.request({ method: 'flashnode_sendDeposit' as never, params: [{ from: ALICE, to: BOB, mint: toHex(5n * ETHER), value: toHex(2n * ETHER), gas: toHex(100_000) }] as never }) as Hex
  await send(tx(0, `0x${'00ff'.repeat(200)}`))
  const block1 = await sequencer.seal()
  const tx2 = tx(1, `0x${'01020304'.repeat(50)}`)
  await send(tx2)
  const secondDeposit = await client.request({ method: 'flashnode_sendDeposit' as never, params: [{ from: ALICE, isCreation: true, gas: toHex(200_000), data: '0x600160005260206000f3' }] as never }) as Hex
  const block2 = await sequencer.seal()

  // The open block 3, pre-confirmed: its opening's deposits read over RPC like sealed ones (L1 info, then the
  // creation deposit queued during block 2), their receipts with the deposit nonce and version.
  type RpcTx = { hash: Hex; type: Hex; from: Hex; sourceHash?: Hex }
  type RpcReceipt = { transactionHash: Hex; depositNonce?: Hex; depositReceiptVersion?: Hex }
  const pending = await client.request({ method: 'eth_getBlockByNumber', params: ['pending', true] }) as unknown as { number: Hex; transactions: RpcTx[] }
  assert.equal(BigInt(pending.number), 3n)
  assert.deepEqual(pending.transactions.map((x) => x.type), ['0x7e', '0x7e'])
  assert.equal(pending.transactions[0]!.from, L1_INFO_DEPOSITOR_ADDRESS)
  assert.equal(pending.transactions[1]!.hash, secondDeposit)
  assert.deepEqual(pending.transactions.map((x) => x.hash), sequencer.snapshot().transactions.map((x) => bytesToHex(x.hash)))
  const pendingReceipts = await client.request({ method: 'eth_getBlockReceipts' as never, params: ['pending'] as never }) as unknown as RpcReceipt[]
  assert.deepEqual(pendingReceipts.map((r) => r.transactionHash), pending.transactions.map((x) => x.hash))
  for (const r of pendingReceipts) assert.ok(r.depositNonce !== undefined && r.depositReceiptVersion === '0x1', `pending deposit receipt ${r.transactionHash}`)

  for (const [n, executed] of [block1, block2].entries()) {
    const body = bodyOf(executed)
    const first = decodeDepositTransaction(body[0]!)
    assert.equal(bytesToHex(first.from), L1_INFO_DEPOSITOR_ADDRESS, `block ${n + 1}: from the depositor`)
    assert.equal(bytesToHex(first.to!), L1_BLOCK_ADDRESS, `block ${n + 1}: to L1Block`)
    assert.deepEqual([first.mint, first.value, first.gas, first.isSystemTx], [0n, 0n, 1_000_000n, false])
    const info = decodeL1Info(first.data)
    assert.equal(info.kind, 'jovian')
    assert.ok(info.kind === 'jovian')
    assert.deepEqual([info.baseFee, info.blobBaseFee, info.baseFeeScalar, info.blobBaseFeeScalar], [L1.l1BaseFee, L1.l1BlobBaseFee, L1.baseFeeScalar, L1.blobBaseFeeScalar])
    assert.equal(executed.stored.receipts[0]!.status, 1, 'the L1-attributes deposit succeeds')
    assert.equal(bytesToHex(node.chain.header(executed.stored.number)!.coinbase.bytes), SEQUENCER_FEE_VAULT_ADDRESS)
  }
  // Block 2: L1 info, the user deposit (the hash flashnode_sendDeposit answered), then the user transaction.
  const body2 = bodyOf(block2)
  assert.equal(body2.length, 3)
  assert.equal(bytesToHex(depositTransactionHash(body2[1]!)), depositHash)
  assert.equal(body2[2]![0], 2, 'the user transaction comes after the deposits')
  const info1 = decodeL1Info(decodeDepositTransaction(bodyOf(block1)[0]!).data)
  const info2 = decodeL1Info(decodeDepositTransaction(body2[0]!).data)
  // The fake L1 origin: the first block starts it; 2 s later the same origin, sequence number + 1 (or a new origin, 0).
  assert.equal(info1.sequenceNumber, 0n)
  assert.ok(info2.number === info1.number ? info2.sequenceNumber === 1n : info2.sequenceNumber === 0n && info2.number > info1.number)

  // The deposit minted 5 ether to Alice, who sent 2 to Bob (plus 1 wei of each user transaction).
  assert.equal(await client.getBalance({ address: ALICE, blockNumber: 2n }), 3n * ETHER)
  assert.equal(await client.getBalance({ address: BOB, blockNumber: 2n }), 2n * ETHER + 2n)

  // L1Block answers what block 2's L1-attributes deposit set.
  const read = (functionName: (typeof l1BlockAbi)[number]['name']) => client.readContract({ address: L1_BLOCK_ADDRESS, abi: l1BlockAbi, functionName, blockNumber: 2n })
  assert.equal(await read('basefee'), L1.l1BaseFee)
  assert.equal(await read('blobBaseFee'), L1.l1BlobBaseFee)
  assert.equal(BigInt(await read('baseFeeScalar')), L1.baseFeeScalar)
  assert.equal(BigInt(await read('blobBaseFeeScalar')), L1.blobBaseFeeScalar)
  assert.equal(await read('number'), info2.number)
  assert.equal(await read('timestamp'), info2.timestamp)
  assert.equal(await read('hash'), bytesToHex(info2.blockHash))
  assert.equal(await read('sequenceNumber'), info2.sequenceNumber)
  // Jovian's scalar: the dev L1's is 0 (unset), which the deposit carries as the default (jovian/l1-attributes.md: 400).
  assert.ok(info2.kind === 'jovian')
  assert.equal(BASE_LIKE_DEV_L1.daFootprintGasScalar, 0n, 'the dev L1 leaves it unset')
  assert.equal(info2.daFootprintGasScalar, 400n)
  assert.equal(BigInt(await read('daFootprintGasScalar')), 400n)

  // The oracle's quote of an unsigned transaction: l1-cost.ts on its bytes plus the specs' 68 signature bytes.
  const unsigned = hexToBytes(serializeTransaction(tx2))
  const counts = rollupCostData(unsigned)
  const params = l1FeeParamsFromCalldata('jovian', decodeDepositTransaction(body2[0]!).data)
  const quoted = await client.readContract({ address: GAS_PRICE_ORACLE_ADDRESS, abi: oracleAbi, functionName: 'getL1Fee', args: [bytesToHex(unsigned)], blockNumber: 2n })
  assert.equal(quoted, l1DataFee('jovian', params, { ...counts, nonZeroes: counts.nonZeroes + 68, fastLzLength: counts.fastLzLength + 68 }).fee)

  // Each block's vaults: the L1 fee vault grows by the sum of its receipts' L1 fees (from its own bytes), the
  // base fee vault by base fee × the gas its non-deposit transactions used.
  for (const [n, executed] of [block1, block2].entries()) {
    const number = BigInt(n + 1)
    const body = bodyOf(executed)
    const calldata = decodeDepositTransaction(body[0]!).data
    const baseFee = node.chain.header(number)!.baseFeePerGas!
    let l1Fees = 0n
    let baseFees = 0n
    body.forEach((raw, i) => {
      if (raw[0] === 0x7e) return
      l1Fees += BigInt(l1CostReceiptFields('jovian', calldata, raw).l1Fee!)
      baseFees += executed.stored.receipts[i]!.gasUsed * baseFee
    })
    assert.ok(l1Fees > 0n)
    const grew = async (address: Hex) => (await client.getBalance({ address, blockNumber: number })) - (await client.getBalance({ address, blockNumber: number - 1n }))
    assert.equal(await grew(L1_FEE_VAULT_ADDRESS), l1Fees, `block ${number}: L1 fee vault`)
    assert.equal(await grew(BASE_FEE_VAULT_ADDRESS), baseFees, `block ${number}: base fee vault`)
  }

  // The stream's opening messages (index 0) carry the block's deposits, as Base's do.
  assert.equal(openings.length, 2)
  const opening3 = openings[1]!
  const message = new MessageBuilder((() => { let s = 0; return () => ++s })()).flashblock(opening3)
  assert.equal(message.payload.index, 0)
  assert.ok(message.payload.base !== undefined)
  assert.equal(message.payload.diff.transactions.length, 2, 'block 3 opens with L1 info and the creation deposit')
  assert.equal(bytesToHex(depositTransactionHash(hexToBytes(message.payload.diff.transactions[1]!))), secondDeposit)

  // A restart resumes block 3 with the same opening deposits (journaled with the opening).
  const before = sequencer.snapshot().transactions.map((e) => bytesToHex(e.hash))
  await running.stop()
  const again = await startNode(t, dataDir, config.genesis, { sequencer: config.sequencer })
  await again.node.start()
  const resumed = again.node.sequencer!.snapshot()
  assert.equal(resumed.header.number, 3n)
  assert.deepEqual(resumed.transactions.map((e) => bytesToHex(e.hash)), before)
  const block3 = await again.node.sequencer!.seal()
  assert.deepEqual(bodyOf(block3).map((raw) => bytesToHex(depositTransactionHash(raw))), before)
  assert.equal(block3.stored.receipts[1]!.status, 1)
  assert.ok(block3.stored.receipts[1]!.contractAddress !== null)
})
