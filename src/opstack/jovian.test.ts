/**
 * Jovian's block and fee rules as pure functions, held to named sources:
 * - the base fee: Base's node (base/base crates/execution/chainspec/src/basefee.rs @ 98a8db8d, its tests
 *   test_next_base_fee_jovian_blob_gas_used_{greater,less}_than_gas_used and _min_base_fee: gas limit 10e9,
 *   gas used 1e9, blobGasUsed 5e9 or 1e8, minimum base fee 1e8 or 5e9, Base Sepolia's parameters (denominator
 *   250, elasticity 10)): the fee is EIP-1559's for max(gasUsed, blobGasUsed), never under the minimum;
 * - the extraData layout of specs jovian/exec-engine.md (version 1, denominator u32, elasticity u32, u64);
 * - the DA footprint of specs jovian/exec-engine.md: max(minTransactionSize, (intercept + fastlzCoef ·
 *   fastlzSize) // 1e6) × daFootprintGasScalar, the Fjord constants of specs fjord/exec-engine.md;
 * - the scalar's default 400 of specs jovian/l1-attributes.md;
 * - Canyon's create2Deployer rule of op-geth consensus/misc/create2deployer.go (Canyon's exact time).
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { keccak256 } from '../primitives/keccak.ts'
import { bytesToHex } from '../primitives/hex.ts'
import { decodeEip1559ExtraData, encodeHoloceneExtraData, encodeJovianExtraData, opNextBaseFee, type ParentFeeFields } from './base-fee.ts'
import { parseOpChainConfig } from './chain-config.ts'
import { CREATE2_DEPLOYER_CODE, CREATE2_DEPLOYER_CODE_HASH, installsCreate2Deployer } from './create2-deployer.ts'
import { DEFAULT_DA_FOOTPRINT_GAS_SCALAR, transactionDAFootprint } from './da-footprint.ts'
import { fastLzCompressedLength } from './fastlz.ts'
import { l1InfoOf } from './l1-info-deposit.ts'
import { BASE_LIKE_DEV_L1 } from './dev-genesis.ts'

const OPTIMISM = { eip1559Elasticity: 10, eip1559Denominator: 50, eip1559DenominatorCanyon: 250 }
const JOVIAN_TIME = 1_900_000_000n
const op = parseOpChainConfig({
  optimism: OPTIMISM, bedrockBlock: 0, regolithTime: 0, canyonTime: 0, ecotoneTime: 0, fjordTime: 0, graniteTime: 0, holoceneTime: 0, isthmusTime: 0, jovianTime: Number(JOVIAN_TIME),
})!

/** EIP-1559 with Base Sepolia's parameters (denominator 250, elasticity 10): the reference Base's tests compare to. */
function eip1559(gasUsed: bigint, gasLimit: bigint, baseFee: bigint): bigint {
  const target = gasLimit / 10n
  if (gasUsed === target) return baseFee
  if (gasUsed > target) {
    const delta = ((gasUsed - target) * baseFee) / target / 250n
    return baseFee + (delta < 1n ? 1n : delta)
  }
  return baseFee - ((target - gasUsed) * baseFee) / target / 250n
}

const parent = (gasUsed: bigint, blobGasUsed: bigint, minBaseFee: bigint): ParentFeeFields => ({
  timestamp: JOVIAN_TIME,
  gasLimit: 10_000_000_000n,
  gasUsed,
  blobGasUsed,
  baseFee: 1_000_000_000n,
  extraData: encodeJovianExtraData(250n, 10n, minBaseFee),
})

test('Jovian base fee: EIP-1559 for max(gasUsed, blobGasUsed), never under the minimum (Base\'s node tests)', () => {
  const next = JOVIAN_TIME + 2n
  const greater = parent(1_000_000_000n, 5_000_000_000n, 100_000_000n)
  assert.equal(opNextBaseFee(op, greater, next), eip1559(5_000_000_000n, 10_000_000_000n, 1_000_000_000n))
  assert.notEqual(opNextBaseFee(op, greater, next), eip1559(1_000_000_000n, 10_000_000_000n, 1_000_000_000n))
  const less = parent(1_000_000_000n, 100_000_000n, 100_000_000n)
  assert.equal(opNextBaseFee(op, less, next), eip1559(1_000_000_000n, 10_000_000_000n, 1_000_000_000n))
  assert.equal(opNextBaseFee(op, parent(1_000_000_000n, 100_000_000n, 5_000_000_000n), next), 5_000_000_000n)
  // Before Jovian (a Holocene parent) the DA footprint does not count: blobGasUsed is 0 there anyway.
  const holocene = { ...greater, timestamp: JOVIAN_TIME - 2n, extraData: encodeHoloceneExtraData(250n, 10n) }
  assert.equal(opNextBaseFee(op, holocene, JOVIAN_TIME), eip1559(1_000_000_000n, 10_000_000_000n, 1_000_000_000n))
})

test('Jovian extraData: 17 bytes, version 1, denominator, elasticity, minimum base fee (jovian/exec-engine.md)', () => {
  const bytes = encodeJovianExtraData(250n, 6n, 0x0102030405060708n)
  assert.equal(bytesToHex(bytes), '0x01000000fa000000060102030405060708')
  assert.deepEqual(decodeEip1559ExtraData(bytes, true), { denominator: 250n, elasticity: 6n, minBaseFee: 0x0102030405060708n })
  assert.equal(decodeEip1559ExtraData(bytes, false), undefined, 'not a Holocene extraData')
  assert.throws(() => encodeJovianExtraData(250n, 6n, 1n << 64n))
})

test('DA footprint: the Fjord size estimate, at least 100 bytes, times the scalar (jovian/exec-engine.md)', () => {
  // A small transaction: the estimate is under the 100-byte minimum.
  assert.equal(transactionDAFootprint(new Uint8Array(50).fill(7), 400n), 100n * 400n)
  // Incompressible bytes: the spec's formula on FastLZ's length (fastlz.ts holds op-geth's vectors).
  const data = Uint8Array.from({ length: 2_000 }, (_, i) => (i * 131 + (i >> 3) * 17) & 0xff)
  const size = (-42_585_600n + 836_500n * BigInt(fastLzCompressedLength(data))) / 1_000_000n
  assert.ok(size > 100n)
  assert.equal(transactionDAFootprint(data, 7n), size * 7n)
})

test('the L1-attributes deposit carries 400 for a DA footprint scalar of 0, the value otherwise (jovian/l1-attributes.md)', () => {
  const origin = { number: 1n, timestamp: 12n, hash: new Uint8Array(32) }
  const unset = l1InfoOf('jovian', origin, 0n, { ...BASE_LIKE_DEV_L1, daFootprintGasScalar: 0n })
  assert.ok(unset.kind === 'jovian')
  assert.equal(unset.daFootprintGasScalar, DEFAULT_DA_FOOTPRINT_GAS_SCALAR)
  assert.equal(DEFAULT_DA_FOOTPRINT_GAS_SCALAR, 400n)
  const set = l1InfoOf('jovian', origin, 0n, { ...BASE_LIKE_DEV_L1, daFootprintGasScalar: 9n })
  assert.ok(set.kind === 'jovian')
  assert.equal(set.daFootprintGasScalar, 9n)
})

test('Canyon\'s create2Deployer: set in the block at Canyon\'s exact time only; its code hashes to op-geth\'s stated hash', () => {
  const at100 = parseOpChainConfig({ optimism: OPTIMISM, bedrockBlock: 0, regolithTime: 0, canyonTime: 100 })!
  assert.equal(installsCreate2Deployer(at100, 100n), true)
  assert.equal(installsCreate2Deployer(at100, 98n), false)
  assert.equal(installsCreate2Deployer(at100, 102n), false)
  // Canyon at genesis: no block has time 0 after the genesis block, which runs no state transition.
  assert.equal(installsCreate2Deployer(op, 2n), false)
  assert.equal(bytesToHex(keccak256(CREATE2_DEPLOYER_CODE)), CREATE2_DEPLOYER_CODE_HASH)
  assert.equal(CREATE2_DEPLOYER_CODE_HASH, '0xb0550b5b431e30d38000efb7107aaa0ade03d48a7198a140edda9d27134468b2')
})
