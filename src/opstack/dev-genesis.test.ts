/**
 * The dev OP genesis through the public interface: a real node on it, and viem calling the GasPriceOracle and
 * L1Block predeploys over eth_call. Every answer is held against an independent computation: L1Block's getters
 * against the parameters the genesis was built from, and the oracle's fee quotes against l1-cost.ts fed the
 * same parameters (two implementations of one formula: the monorepo's Solidity, run by our EVM, and ours).
 *
 * The oracle quotes an unsigned transaction. Per the specs (Fjord's GasPriceOracle, `getL1Fee`), it adds 68
 * bytes to the FastLZ length of its input to stand for the signature; Ecotone's formula adds 68 non-zero bytes
 * (68·16 gas) to the calldata gas. So, exactly:
 *   oracle.getL1Fee(unsigned)     = l1DataFee(fork, params, counts of unsigned with fastLz + 68 / nonZeroes + 68)
 *   oracle.getL1GasUsed(unsigned) = the same call's gasUsed.
 * The receipt charges the signed bytes instead. The signature adds yParity, r and s (1 + 33 + 33 bytes of RLP,
 * nearly incompressible), and the list header may grow by a byte or two, so FastLZ's length of the signed
 * transaction lies within a few bytes of the unsigned length + 68 (literal runs cost one control byte per 32).
 * The test asserts that bound (SIGNATURE_SLACK bytes) on the lengths, and hence on the fees, for each transaction.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { parseAbi, serializeTransaction, toHex, type Hex, type PublicClient, type TransactionSerializableEIP1559 } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { opDevClient } from '../../test/support/op-dev-chain.ts'
import { ACCOUNTS, DEV_CHAIN_ID } from '../../test/support/dev-chain.ts'
import { Rng } from '../../test/support/rng.ts'
import { hexToBytes } from '../primitives/hex.ts'
import { BASE_LIKE_DEV_L1, devL1FeeParams, opPredeployAlloc, type DevL1Parameters } from './dev-genesis.ts'
import { opForkActive, type OpForkName } from './forks.ts'
import { l1DataFee, operatorFee, rollupCostData, type RollupCostData } from './l1-cost.ts'
import { GAS_PRICE_ORACLE_ADDRESS, L1_BLOCK_ADDRESS } from './predeploys.ts'
import { L1_BLOCK_ABI as l1BlockAbi } from '../../test/support/op-chain.ts'

const oracleAbi = parseAbi([
  'function getL1Fee(bytes) view returns (uint256)',
  'function getL1GasUsed(bytes) view returns (uint256)',
  'function getL1FeeUpperBound(uint256) view returns (uint256)',
  'function getOperatorFee(uint256) view returns (uint256)',
  'function l1BaseFee() view returns (uint256)',
  'function blobBaseFee() view returns (uint256)',
  'function baseFeeScalar() view returns (uint32)',
  'function blobBaseFeeScalar() view returns (uint32)',
  'function decimals() pure returns (uint256)',
  'function isEcotone() view returns (bool)',
  'function isFjord() view returns (bool)',
  'function isIsthmus() view returns (bool)',
  'function isJovian() view returns (bool)',
])

/** The signature bytes the oracle's padding stands for, per the specs. */
const SIGNATURE_PADDING = 68
/** How far FastLZ's length of a signed transaction may be from the unsigned length + 68 (see the top). */
const SIGNATURE_SLACK = 4

/** Distinct, non-default L1 parameters, so that a field read from the wrong slot or offset shows. */
const L1: DevL1Parameters = {
  l1BaseFee: 7_654_321_987n,
  l1BlobBaseFee: 3_210_987n,
  baseFeeScalar: 2269n,
  blobBaseFeeScalar: 1_055_762n,
  operatorFeeScalar: 7_777n,
  operatorFeeConstant: 123_456_789n,
  daFootprintGasScalar: 400n,
  number: 21_234_567n,
  timestamp: 1_750_000_123n,
  hash: hexToBytes(`0x${'ab'.repeat(31)}cd`),
  sequenceNumber: 5n,
  batcherHash: hexToBytes(`0x${'00'.repeat(12)}${'5050f69a'.repeat(5)}`),
}

/** Transactions of different sizes and zero/non-zero mixes. */
function transactions(): { readonly name: string; readonly tx: TransactionSerializableEIP1559 }[] {
  const rng = new Rng(41)
  const random = (n: number): Hex => toHex(Uint8Array.from({ length: n }, () => rng.u32() & 0xff))
  const base = { type: 'eip1559', chainId: Number(DEV_CHAIN_ID), maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 1_000_000n } as const
  const to = '0x00000000000000000000000000000000000000aa'
  const transfer = `0xa9059cbb${'00'.repeat(12)}${'11'.repeat(20)}${'00'.repeat(28)}0bebc200` as Hex
  return [
    { name: 'plain transfer', tx: { ...base, nonce: 0, to, value: 10n ** 18n, gas: 21_000n } },
    { name: 'ERC-20 transfer', tx: { ...base, nonce: 7, to, data: transfer, gas: 60_000n } },
    { name: '1 KiB of zeroes', tx: { ...base, nonce: 1, to, data: `0x${'00'.repeat(1024)}`, gas: 100_000n } },
    { name: '1 KiB random', tx: { ...base, nonce: 2, to, data: random(1024), gas: 100_000n } },
    { name: '4 KiB mixed', tx: { ...base, nonce: 300, to, data: `${random(1024)}${'00'.repeat(1024)}${'deadbeef'.repeat(256)}${random(1024).slice(2)}` as Hex, gas: 300_000n } },
    { name: 'creation, 2 KiB random', tx: { ...base, nonce: 65_537, data: random(2048), gas: 1_000_000n } },
  ]
}

/** The counts the oracle prices for an unsigned transaction: its own bytes plus the specs' signature padding. */
function paddedCounts(unsigned: Uint8Array): RollupCostData {
  const counts = rollupCostData(unsigned)
  return { zeroes: counts.zeroes, nonZeroes: counts.nonZeroes + SIGNATURE_PADDING, fastLzLength: counts.fastLzLength + SIGNATURE_PADDING }
}

const readOracle = (client: PublicClient, functionName: 'getL1Fee' | 'getL1GasUsed', data: Hex) =>
  client.readContract({ address: GAS_PRICE_ORACLE_ADDRESS, abi: oracleAbi, functionName, args: [data] })

async function assertQuotes(client: PublicClient, fork: OpForkName, l1: DevL1Parameters): Promise<void> {
  const params = devL1FeeParams(fork, l1)
  const signer = privateKeyToAccount(ACCOUNTS[0]!.privateKey as Hex)
  for (const { name, tx } of transactions()) {
    const unsigned = serializeTransaction(tx)
    const expected = l1DataFee(fork, params, paddedCounts(hexToBytes(unsigned)))
    assert.equal(await readOracle(client, 'getL1Fee', unsigned), expected.fee, `${fork} ${name}: getL1Fee`)
    assert.equal(await readOracle(client, 'getL1GasUsed', unsigned), expected.gasUsed, `${fork} ${name}: getL1GasUsed`)
    if (!opForkActive(fork, 'fjord')) continue
    // The receipt's charge on the signed bytes, against the quote: within SIGNATURE_SLACK bytes of FastLZ length.
    const signed = rollupCostData(hexToBytes(await signer.signTransaction(tx)))
    const quoted = paddedCounts(hexToBytes(unsigned)).fastLzLength
    assert.ok(Math.abs(signed.fastLzLength - quoted) <= SIGNATURE_SLACK, `${name}: FastLZ ${signed.fastLzLength} signed vs ${quoted} quoted`)
    const bound = (delta: number) => l1DataFee(fork, params, { ...signed, fastLzLength: quoted + delta }).fee
    const charged = l1DataFee(fork, params, signed).fee
    assert.ok(charged >= bound(-SIGNATURE_SLACK) && charged <= bound(SIGNATURE_SLACK), `${name}: charged ${charged} vs quoted ${expected.fee}`)
    // getL1FeeUpperBound(size) prices a FastLZ length of (size + 68) + (size + 68)/255 + 16 (the specs' bound, from
    // LZ4's worst case). It is not a bound for incompressible input, where FastLZ grows by 1/32: the 2 KiB random
    // creation quotes above it. So the test holds the formula, not the inequality.
    const padded = hexToBytes(unsigned).length + SIGNATURE_PADDING
    const upperBound = await client.readContract({ address: GAS_PRICE_ORACLE_ADDRESS, abi: oracleAbi, functionName: 'getL1FeeUpperBound', args: [BigInt(hexToBytes(unsigned).length)] })
    assert.equal(upperBound, l1DataFee(fork, params, { ...signed, fastLzLength: padded + Math.floor(padded / 255) + 16 }).fee, `${name}: getL1FeeUpperBound`)
  }
}

async function assertFlags(client: PublicClient, fork: OpForkName): Promise<void> {
  const flags = { isEcotone: 'ecotone', isFjord: 'fjord', isIsthmus: 'isthmus', isJovian: 'jovian' } as const
  for (const [functionName, flagFork] of Object.entries(flags) as [keyof typeof flags, OpForkName][]) {
    const value = await client.readContract({ address: GAS_PRICE_ORACLE_ADDRESS, abi: oracleAbi, functionName })
    assert.equal(value, opForkActive(fork, flagFork), `${fork}: ${functionName}`)
  }
}

test('Jovian dev genesis: L1Block returns every parameter the genesis was built from', async (t) => {
  const client = await opDevClient(t, 'jovian', L1)
  const read = (functionName: (typeof l1BlockAbi)[number]['name']) => client.readContract({ address: L1_BLOCK_ADDRESS, abi: l1BlockAbi, functionName })
  assert.equal(await read('number'), L1.number)
  assert.equal(await read('timestamp'), L1.timestamp)
  assert.equal(await read('basefee'), L1.l1BaseFee)
  assert.equal(await read('hash'), toHex(L1.hash))
  assert.equal(await read('sequenceNumber'), L1.sequenceNumber)
  assert.equal(await read('batcherHash'), toHex(L1.batcherHash))
  assert.equal(BigInt(await read('baseFeeScalar')), L1.baseFeeScalar)
  assert.equal(BigInt(await read('blobBaseFeeScalar')), L1.blobBaseFeeScalar)
  assert.equal(await read('blobBaseFee'), L1.l1BlobBaseFee)
  assert.equal(BigInt(await read('operatorFeeScalar')), L1.operatorFeeScalar)
  assert.equal(await read('operatorFeeConstant'), L1.operatorFeeConstant)
  assert.equal(BigInt(await read('daFootprintGasScalar')), L1.daFootprintGasScalar)
})

test('Jovian dev genesis: the oracle reads L1Block, has every fork flag, and quotes as l1-cost.ts computes', async (t) => {
  const client = await opDevClient(t, 'jovian', L1)
  const read = (functionName: 'l1BaseFee' | 'blobBaseFee' | 'baseFeeScalar' | 'blobBaseFeeScalar' | 'decimals') =>
    client.readContract({ address: GAS_PRICE_ORACLE_ADDRESS, abi: oracleAbi, functionName })
  assert.equal(await read('l1BaseFee'), L1.l1BaseFee)
  assert.equal(await read('blobBaseFee'), L1.l1BlobBaseFee)
  assert.equal(BigInt(await read('baseFeeScalar')), L1.baseFeeScalar)
  assert.equal(BigInt(await read('blobBaseFeeScalar')), L1.blobBaseFeeScalar)
  // DECIMALS: the scalars' fixed-point digits; Fjord's divisor (1e12, in l1-cost.ts) is 10^(2·decimals).
  assert.equal(10n ** (2n * BigInt(await read('decimals'))), 1_000_000_000_000n)
  await assertFlags(client, 'jovian')
  await assertQuotes(client, 'jovian', L1)
  const params = devL1FeeParams('jovian', L1)
  for (const gas of [0n, 21_000n, 1_234_567n]) {
    const quoted = await client.readContract({ address: GAS_PRICE_ORACLE_ADDRESS, abi: oracleAbi, functionName: 'getOperatorFee', args: [gas] })
    assert.equal(quoted, operatorFee('jovian', params, gas), `getOperatorFee(${gas})`)
  }
})

test('Isthmus dev genesis: isJovian off, the operator fee by Isthmus rule, the same Fjord quotes', async (t) => {
  const client = await opDevClient(t, 'isthmus', L1)
  await assertFlags(client, 'isthmus')
  const params = devL1FeeParams('isthmus', L1)
  for (const gas of [21_000n, 1_234_567n]) {
    const quoted = await client.readContract({ address: GAS_PRICE_ORACLE_ADDRESS, abi: oracleAbi, functionName: 'getOperatorFee', args: [gas] })
    assert.equal(quoted, operatorFee('isthmus', params, gas), `getOperatorFee(${gas})`)
  }
  await assertQuotes(client, 'isthmus', L1)
})

test('Ecotone dev genesis: only isEcotone set, and the calldata-gas formula with 68 padded bytes', async (t) => {
  const client = await opDevClient(t, 'ecotone', L1)
  await assertFlags(client, 'ecotone')
  await assertQuotes(client, 'ecotone', L1)
})

test('default parameters are Base-like and quote as l1-cost.ts computes', async (t) => {
  const client = await opDevClient(t, 'jovian')
  assert.equal(await client.readContract({ address: GAS_PRICE_ORACLE_ADDRESS, abi: oracleAbi, functionName: 'l1BaseFee' }), BASE_LIKE_DEV_L1.l1BaseFee)
  await assertQuotes(client, 'jovian', BASE_LIKE_DEV_L1)
})

test('the builder refuses forks before Ecotone and fields that do not fit', () => {
  assert.throws(() => opPredeployAlloc('delta', L1), /Ecotone/)
  assert.throws(() => devL1FeeParams('delta', L1), /Ecotone/)
  assert.throws(() => opPredeployAlloc('jovian', { ...L1, baseFeeScalar: 1n << 32n }), /baseFeeScalar/)
  assert.throws(() => opPredeployAlloc('jovian', { ...L1, hash: new Uint8Array(31) }), /hash/)
})
