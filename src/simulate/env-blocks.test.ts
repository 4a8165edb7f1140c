import { test } from 'node:test'
import assert from 'node:assert/strict'
import { ChainRules } from '../execution/chain-config.ts'
import { testGenesis } from '../../test/support/dev-chain.ts'
import { environmentBlock } from './env-blocks.ts'

test('one frozen environment block per header and variant', () => {
  const common = new ChainRules(testGenesis()).at(1n, 12n)
  const header = () => ({ number: 1n, timestamp: 12n, gasLimit: 30_000_000n, baseFeePerGas: 7n, excessBlobGas: 0n, parentHash: new Uint8Array(32).fill(1) })
  const plain = environmentBlock(common, header(), { baseFeeZero: false, blobFee: undefined })
  assert.equal(environmentBlock(common, header(), { baseFeeZero: false, blobFee: undefined }), plain, 'equal headers share one block')
  assert.ok(Object.isFrozen(plain.header))
  const free = environmentBlock(common, header(), { baseFeeZero: true, blobFee: 5n })
  assert.deepEqual([free.header.baseFeePerGas, free.header.getBlobGasPrice()], [0n, 5n])
  assert.equal(plain.header.baseFeePerGas, 7n)
  const other = environmentBlock(common, { ...header(), parentHash: new Uint8Array(32).fill(2) }, { baseFeeZero: false, blobFee: undefined })
  assert.notEqual(other, plain)
})
