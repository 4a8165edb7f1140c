/**
 * The dev chain's fake L1 origin (dev-l1-origin.ts) and the L1-attributes deposit's fields and layout
 * (l1-info-deposit.ts), held to the rules their design comments state and to the specs' fixed values.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { devDepositL1Hash, devL1OriginHash, nextDevL1Origin } from './dev-l1-origin.ts'
import { l1InfoDeposit, l1InfoLayout } from './l1-info-deposit.ts'
import { decodeL1Info } from './l1-attributes.ts'
import { l1InfoDepositSourceHash } from './deposit-tx.ts'
import { bytesToHex } from '../primitives/hex.ts'
import { L1_BLOCK_ADDRESS, L1_INFO_DEPOSITOR_ADDRESS } from './predeploy-addresses.ts'

test('the fake L1 origin: set at the first block, kept within a 12 s slot (sequence + 1), moved on by whole slots (sequence 0)', () => {
  const first = nextDevL1Origin({ number: 7n, timestamp: 0n, sequenceNumber: 0n }, 1_000n)
  assert.deepEqual([first.origin.number, first.origin.timestamp, first.sequenceNumber], [7n, 1_000n, 0n])
  assert.deepEqual(first.origin.hash, devL1OriginHash(7n))
  const same = nextDevL1Origin({ number: 7n, timestamp: 1_000n, sequenceNumber: 4n }, 1_011n)
  assert.deepEqual([same.origin.number, same.origin.timestamp, same.sequenceNumber], [7n, 1_000n, 5n])
  const next = nextDevL1Origin({ number: 7n, timestamp: 1_000n, sequenceNumber: 5n }, 1_012n)
  assert.deepEqual([next.origin.number, next.origin.timestamp, next.sequenceNumber], [8n, 1_012n, 0n])
  const afterPause = nextDevL1Origin({ number: 8n, timestamp: 1_012n, sequenceNumber: 1n }, 1_100n)
  assert.deepEqual([afterPause.origin.number, afterPause.origin.timestamp, afterPause.sequenceNumber], [15n, 1_096n, 0n])
  assert.notDeepEqual(devL1OriginHash(8n), devL1OriginHash(9n))
  assert.notDeepEqual(devDepositL1Hash(8n), devL1OriginHash(8n))
})

test('the L1-attributes deposit: depositor to L1Block, 1,000,000 gas, no mint or value, not a system transaction, the layout of the parent\'s fork', () => {
  const origin = { number: 100n, timestamp: 1_200n, hash: new Uint8Array(32).fill(0xab) }
  const fees = { l1BaseFee: 9n, l1BlobBaseFee: 8n, baseFeeScalar: 7n, blobBaseFeeScalar: 6n, operatorFeeScalar: 5n, operatorFeeConstant: 4n, daFootprintGasScalar: 3n, batcherHash: new Uint8Array(32).fill(1) }
  const deposit = l1InfoDeposit('isthmus', origin, 2n, fees)
  assert.equal(bytesToHex(deposit.from), L1_INFO_DEPOSITOR_ADDRESS)
  assert.equal(bytesToHex(deposit.to!), L1_BLOCK_ADDRESS)
  assert.deepEqual([deposit.gas, deposit.mint, deposit.value, deposit.isSystemTx], [1_000_000n, 0n, 0n, false])
  assert.deepEqual(deposit.sourceHash, l1InfoDepositSourceHash(origin.hash, 2n))
  const info = decodeL1Info(deposit.data)
  assert.ok(info.kind === 'isthmus')
  assert.deepEqual([info.number, info.timestamp, info.sequenceNumber, info.baseFee, info.blobBaseFee, info.baseFeeScalar, info.blobBaseFeeScalar, info.operatorFeeScalar, info.operatorFeeConstant], [100n, 1_200n, 2n, 9n, 8n, 7n, 6n, 5n, 4n])
  assert.deepEqual([l1InfoLayout('ecotone'), l1InfoLayout('holocene'), l1InfoLayout('isthmus'), l1InfoLayout('jovian')], ['ecotone', 'ecotone', 'isthmus', 'jovian'])
  assert.deepEqual([l1InfoLayout('regolith'), l1InfoLayout('delta')], ['bedrock', 'bedrock'])
  assert.throws(() => l1InfoLayout('bedrock'), /pre-Regolith/)
})

test('after a Bedrock-era parent: the Bedrock setL1BlockValues with the overhead and scalar; then Ecotone\'s with the scalar as base fee scalar (op-node\'s version-0 system config scalar)', () => {
  const origin = { number: 100n, timestamp: 1_200n, hash: new Uint8Array(32).fill(0xab) }
  const fees = { l1BaseFee: 9n, l1BlobBaseFee: 0n, baseFeeScalar: 0n, blobBaseFeeScalar: 0n, operatorFeeScalar: 0n, operatorFeeConstant: 0n, daFootprintGasScalar: 0n, batcherHash: new Uint8Array(32).fill(1), l1FeeOverhead: 188n, l1FeeScalar: 684_000n }
  const bedrock = decodeL1Info(l1InfoDeposit('delta', origin, 3n, fees).data)
  assert.ok(bedrock.kind === 'bedrock')
  assert.deepEqual([bedrock.number, bedrock.sequenceNumber, bedrock.baseFee, bedrock.l1FeeOverhead, bedrock.l1FeeScalar], [100n, 3n, 9n, 188n, 684_000n])
  const ecotone = decodeL1Info(l1InfoDeposit('ecotone', origin, 4n, fees).data)
  assert.ok(ecotone.kind === 'ecotone')
  assert.deepEqual([ecotone.baseFeeScalar, ecotone.blobBaseFeeScalar], [684_000n, 0n])
  const tooBig = decodeL1Info(l1InfoDeposit('ecotone', origin, 4n, { ...fees, l1FeeScalar: 1n << 40n }).data)
  assert.ok(tooBig.kind === 'ecotone')
  assert.equal(tooBig.baseFeeScalar, 0xffff_ffffn, 'a scalar past uint32: the maximum')
  const set = decodeL1Info(l1InfoDeposit('ecotone', origin, 4n, { ...fees, baseFeeScalar: 5n, blobBaseFeeScalar: 6n }).data)
  assert.ok(set.kind === 'ecotone')
  assert.deepEqual([set.baseFeeScalar, set.blobBaseFeeScalar], [5n, 6n], 'scalars once set are carried as they are')
})
