/**
 * The OP block rules of Canyon, Isthmus and Jovian on the CLI's `--op-stack` dev chain (Bedrock through Jovian
 * at genesis), through the public interface: a real node served on loopback, read and driven with viem, its
 * blocks imported by a second node from debug_getRawBlock's bytes.
 *
 * - Isthmus (specs isthmus/exec-engine.md; op-geth): a header's withdrawalsRoot is the L2ToL1MessagePasser's
 *   storage root after the block, which eth_getProof's storageHash states independently (the proof's account
 *   leaf); a withdrawal sent through initiateWithdrawal changes it; an importer rejects a header with another.
 * - Canyon: the create2Deployer is there from genesis (a preinstall: op-geth installs it only in the block at
 *   Canyon's exact time), code hashing to op-geth's stated hash, and deploys with CREATE2 where its own
 *   computeAddress and viem's getContractAddress say.
 * - Jovian (specs jovian/exec-engine.md): the minimum base fee of `--op-l1` in the extraData (bytes [9, 17)) and
 *   as the floor of the base fee; the header's blobGasUsed is the block's DA footprint (each non-deposit
 *   transaction's Fjord size estimate × the scalar, computed here from its signed bytes with the specs'
 *   constants); a transaction that would take it over the gas limit waits for the next block; the next base fee
 *   meters max(gasUsed, blobGasUsed) by EIP-1559's formula (elasticity 6, denominator 250); an importer
 *   rejects a header whose blobGasUsed differs.
 */

import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { createPublicClient, createWalletClient, getContractAddress, http, keccak256, parseAbi, parseEventLogs, toHex, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { RLP } from '@ethereumjs/rlp'
import { devAccounts } from '../../src/node/dev-genesis.ts'
import { CREATE2_DEPLOYER_ADDRESS, L2_TO_L1_MESSAGE_PASSER_ADDRESS } from '../../src/opstack/predeploy-addresses.ts'
import { fastLzCompressedLength } from '../../src/opstack/fastlz.ts'
import { hexToBytes } from '../../src/primitives/hex.ts'
import { opStackCliConfig } from '../support/op-chain.ts'
import { startNode } from '../support/server.ts'
import { tempDir } from '../support/temp-dir.ts'

const L1 = { l1BaseFee: 1_000_000_000n, l1BlobBaseFee: 1n, baseFeeScalar: 0n, blobBaseFeeScalar: 0n }
/** keccak256(rlp('')): the empty trie's root, also the empty withdrawals list's. */
const EMPTY_ROOT = '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421'
const PASSER = L2_TO_L1_MESSAGE_PASSER_ADDRESS as Hex
const passerAbi = parseAbi([
  'function initiateWithdrawal(address _target, uint256 _gasLimit, bytes _data) payable',
  'function sentMessages(bytes32) view returns (bool)',
  'function messageNonce() view returns (uint256)',
  'event MessagePassed(uint256 indexed nonce, address indexed sender, address indexed target, uint256 value, uint256 gasLimit, bytes data, bytes32 withdrawalHash)',
])
const deployerAbi = parseAbi([
  'function deploy(uint256 value, bytes32 salt, bytes code)',
  'function computeAddress(bytes32 salt, bytes32 codeHash) view returns (address)',
])
/** Header field positions in a block's RLP (parentHash 0 … withdrawalsRoot 16, blobGasUsed 17). */
const WITHDRAWALS_ROOT = 16
const BLOB_GAS_USED = 17

async function opChain(t: TestContext, l1: Readonly<Record<string, bigint>>) {
  const dir = tempDir(t)
  const config = opStackCliConfig(join(dir, '..'), l1)
  const running = await startNode(t, join(dir, 'chain'), config.genesis, { sequencer: config.sequencer })
  await running.node.start()
  const client = createPublicClient({ transport: http(running.url) })
  const account = privateKeyToAccount(devAccounts(1)[0]!.privateKey as Hex)
  const chain = { id: Number(running.node.rules.chainId), name: 'op', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [running.url] } } } as const
  const wallet = createWalletClient({ account, chain, transport: http(running.url) })
  const seal = async () => {
    await running.node.sequencer!.seal()
    return client.getBlock({ blockTag: 'latest' })
  }
  const rawBlock = async (n: bigint) => hexToBytes(await client.request({ method: 'debug_getRawBlock' as never, params: [toHex(n)] as never }) as Hex)
  /** A second node on the same genesis, which imports block bytes as `flashnode import` does. */
  const importer = async () => (await startNode(t, join(tempDir(t), 'importer'), config.genesis)).node
  const flashblock = () => running.node.sequencer!.flashblock()
  return { client, wallet, account, seal, flashblock, rawBlock, importer }
}

/** A block's bytes with one header field replaced. */
function withHeaderField(block: Uint8Array, index: number, value: Uint8Array): Uint8Array {
  const decoded = RLP.decode(block) as unknown as Uint8Array[][]
  const header = [...decoded[0]!]
  header[index] = value
  return RLP.encode([header, ...decoded.slice(1)] as never)
}

const storageHash = async (client: ReturnType<typeof createPublicClient>, blockNumber: bigint) =>
  (await client.getProof({ address: PASSER, storageKeys: [], blockNumber })).storageHash

test('Isthmus: withdrawalsRoot is the L2ToL1MessagePasser\'s storage root; a withdrawal changes it; an importer checks it', async (t) => {
  const { client, wallet, account, seal, rawBlock, importer } = await opChain(t, L1)
  const genesis = await client.getBlock({ blockNumber: 0n })
  assert.equal(genesis.withdrawalsRoot, await storageHash(client, 0n))
  assert.equal(genesis.withdrawalsRoot, EMPTY_ROOT, 'no withdrawal yet: the passer has no storage')

  const target = '0x000000000000000000000000000000000000dEaD'
  const hash = await wallet.writeContract({ address: PASSER, abi: passerAbi, functionName: 'initiateWithdrawal', args: [target, 100_000n, '0x1234'], value: 10n ** 18n, gas: 200_000n })
  const block1 = await seal()
  const receipt = await client.getTransactionReceipt({ hash })
  assert.equal(receipt.status, 'success')
  const [passed] = parseEventLogs({ abi: passerAbi, logs: receipt.logs, eventName: 'MessagePassed' })
  assert.equal(passed!.args.sender.toLowerCase(), account.address.toLowerCase())
  assert.equal(await client.readContract({ address: PASSER, abi: passerAbi, functionName: 'sentMessages', args: [passed!.args.withdrawalHash] }), true)
  assert.equal(block1.withdrawalsRoot, await storageHash(client, block1.number))
  assert.notEqual(block1.withdrawalsRoot, EMPTY_ROOT, 'the withdrawal is in the passer\'s storage')

  // A block without a withdrawal keeps the root.
  const block2 = await seal()
  assert.equal(block2.withdrawalsRoot, block1.withdrawalsRoot)

  const other = await importer()
  const bytes1 = await rawBlock(1n)
  await assert.rejects(other.writer.importRlp(withHeaderField(bytes1, WITHDRAWALS_ROOT, hexToBytes(EMPTY_ROOT))), /withdrawalsRoot/)
  assert.equal((await other.writer.importRlp(bytes1)).imported, 1)
  assert.equal((await other.writer.importRlp(await rawBlock(2n))).imported, 1)
})

test('Canyon: the create2Deployer is there from genesis (a preinstall) and deploys with CREATE2', async (t) => {
  const { client, wallet, seal } = await opChain(t, L1)
  const code = await client.getCode({ address: CREATE2_DEPLOYER_ADDRESS, blockNumber: 0n })
  // op-geth consensus/misc/create2deployer.go: create2DeployerCodeHash.
  assert.equal(keccak256(code!), '0xb0550b5b431e30d38000efb7107aaa0ade03d48a7198a140edda9d27134468b2')
  assert.equal(await client.getTransactionCount({ address: CREATE2_DEPLOYER_ADDRESS, blockNumber: 0n }), 1, 'preinstalls have nonce 1')

  const runtime = '0x602a60005260206000f3' as Hex
  const initcode = `0x69${runtime.slice(2)}600052600a6016f3` as Hex
  const salt = `0x${'11'.repeat(32)}` as Hex
  const expected = getContractAddress({ opcode: 'CREATE2', from: CREATE2_DEPLOYER_ADDRESS, salt, bytecode: initcode })
  assert.equal(await client.readContract({ address: CREATE2_DEPLOYER_ADDRESS, abi: deployerAbi, functionName: 'computeAddress', args: [salt, keccak256(initcode)] }), expected)
  await wallet.writeContract({ address: CREATE2_DEPLOYER_ADDRESS, abi: deployerAbi, functionName: 'deploy', args: [0n, salt, initcode], gas: 300_000n })
  await seal()
  assert.equal(await client.getCode({ address: expected }), runtime)
})

/** Jovian's DA footprint of a non-deposit transaction: the specs' formula on its signed bytes. */
function daFootprint(signed: Hex, scalar: bigint): bigint {
  const size = (-42_585_600n + 836_500n * BigInt(fastLzCompressedLength(hexToBytes(signed)))) / 1_000_000n
  return (size < 100n ? 100n : size) * scalar
}

test('Jovian: the minimum base fee, blobGasUsed as the DA footprint within the gas limit, the base fee metering it; an importer checks it', async (t) => {
  const MIN_BASE_FEE = 5_000_000_000n
  const SCALAR = 65_535n
  const { client, wallet, seal, rawBlock, importer } = await opChain(t, { ...L1, minBaseFee: MIN_BASE_FEE, daFootprintGasScalar: SCALAR })
  const genesis = await client.getBlock({ blockNumber: 0n })
  assert.equal(BigInt(`0x${genesis.extraData.slice(2 + 18)}`), MIN_BASE_FEE)
  const block1 = await seal()
  assert.equal(block1.baseFeePerGas, MIN_BASE_FEE, 'the empty genesis would lower the fee: the minimum holds it')
  assert.equal(BigInt(`0x${block1.extraData.slice(2 + 18)}`), MIN_BASE_FEE)
  assert.equal(block1.blobGasUsed, 0n, 'only deposits: no DA footprint')

  // Two transactions of incompressible calldata whose footprints together exceed the gas limit.
  const data = (seed: number) => toHex(Uint8Array.from({ length: 420 }, (_, i) => (i * 131 + seed * 7 + (i >> 3) * 17) & 0xff))
  const nonce = await client.getTransactionCount({ address: wallet.account.address })
  const signed = await Promise.all([0, 1].map((i) =>
    wallet.signTransaction({ to: '0x000000000000000000000000000000000000bEEF', data: data(i), gas: 100_000n, maxFeePerGas: 50_000_000_000n, maxPriorityFeePerGas: 1n, nonce: nonce + i }),
  ))
  const footprints = signed.map((s) => daFootprint(s, SCALAR))
  assert.ok(footprints[0]! <= block1.gasLimit && footprints[0]! + footprints[1]! > block1.gasLimit, 'one fits a block, both do not')
  for (const s of signed) await client.sendRawTransaction({ serializedTransaction: s })
  const block2 = await seal()
  assert.equal(block2.transactions.length, 2, 'the L1-attributes deposit and the first transaction')
  assert.equal(block2.blobGasUsed, footprints[0])
  assert.ok(block2.blobGasUsed > block2.gasUsed)
  const block3 = await seal()
  assert.equal(block3.transactions.length, 2, 'the second one waited for the next block')
  assert.equal(block3.blobGasUsed, footprints[1])
  assert.equal(block3.transactions[1], keccak256(signed[1]!))

  // The base fee of block 3 meters block 2's DA footprint (EIP-1559: target gasLimit / 6, denominator 250).
  const target = block2.gasLimit / 6n
  const metered = block2.blobGasUsed
  const delta = ((metered - target) * block2.baseFeePerGas!) / target / 250n
  assert.equal(block3.baseFeePerGas, block2.baseFeePerGas! + (delta < 1n ? 1n : delta))

  const other = await importer()
  assert.equal((await other.writer.importRlp(await rawBlock(1n))).imported, 1)
  const bytes2 = await rawBlock(2n)
  await assert.rejects(other.writer.importRlp(withHeaderField(bytes2, BLOB_GAS_USED, new Uint8Array(0))), /blobGasUsed/)
  assert.equal((await other.writer.importRlp(bytes2)).imported, 1)
  assert.equal((await other.writer.importRlp(await rawBlock(3n))).imported, 1)
})

test('Jovian: the pending block shows the blobGasUsed (DA footprint) its sealed header will carry', async (t) => {
  const SCALAR = 1_000n
  const { client, wallet, seal, flashblock } = await opChain(t, { ...L1, daFootprintGasScalar: SCALAR })
  await seal()
  const opened = await client.getBlock({ blockTag: 'pending' })
  assert.equal(opened.blobGasUsed, 0n, 'only the L1-attributes deposit so far')
  const nonce = await client.getTransactionCount({ address: wallet.account.address })
  const signed = await Promise.all([0, 1].map((i) =>
    wallet.signTransaction({ to: '0x000000000000000000000000000000000000bEEF', data: toHex(new Uint8Array(200).fill(i + 1)), gas: 100_000n, maxFeePerGas: 50_000_000_000n, maxPriorityFeePerGas: 1n, nonce: nonce + i }),
  ))
  await client.sendRawTransaction({ serializedTransaction: signed[0]! })
  await flashblock()
  const first = await client.getBlock({ blockTag: 'pending' })
  assert.equal(first.transactions.length, 2)
  assert.equal(first.blobGasUsed, daFootprint(signed[0]!, SCALAR))
  await client.sendRawTransaction({ serializedTransaction: signed[1]! })
  await flashblock()
  const pending = await client.getBlock({ blockTag: 'pending' })
  assert.equal(pending.transactions.length, 3)
  const expected = daFootprint(signed[0]!, SCALAR) + daFootprint(signed[1]!, SCALAR)
  assert.equal(pending.blobGasUsed, expected)
  const sealed = await seal()
  assert.equal(sealed.number, pending.number)
  assert.equal(sealed.transactions.length, 3)
  assert.equal(sealed.blobGasUsed, pending.blobGasUsed)
})

test('Jovian eth_simulateV1: excess blob gas 0 (an OP chain has no blob market), blobGasUsed the calls\' DA footprint', async (t) => {
  const SCALAR = 65_535n
  const { client, seal } = await opChain(t, { ...L1, daFootprintGasScalar: SCALAR })
  await seal()
  const from = devAccounts(1)[0]!.address as Hex
  const call = { from, to: '0x000000000000000000000000000000000000bEEF' as Hex }
  const blocks = await client.request({
    method: 'eth_simulateV1' as never,
    params: [{ blockStateCalls: [{ calls: [call, call] }, { calls: [call] }] }, 'latest'] as never,
  }) as { blobGasUsed: Hex; excessBlobGas: Hex }[]
  // A call without data is far below the Fjord estimate's floor of 100 bytes (specs fjord/exec-engine.md), so
  // each one's footprint is 100 × the scalar; two of them exceed Ethereum's blob target many times over, which
  // would give the next block an excess under EIP-4844's formula.
  assert.equal(BigInt(blocks[0]!.blobGasUsed), 2n * 100n * SCALAR)
  assert.equal(BigInt(blocks[1]!.blobGasUsed), 100n * SCALAR)
  assert.deepEqual(blocks.map((b) => BigInt(b.excessBlobGas)), [0n, 0n])
})
