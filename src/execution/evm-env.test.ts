import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createBlockHeader } from '@ethereumjs/block'
import { createTx } from '@ethereumjs/tx'
import { Address } from '@ethereumjs/util'
import { ChainRules } from './chain-config.ts'
import { blobGasPrice, blockEnvFrom, blockEnvOf, rulesOf, txInputOf } from './evm-env.ts'
import { readFileSync } from 'node:fs'
import { RPC_COMPAT_DIR } from '../../test/support/shared.ts'
import { FORK_NAMES } from '../evm/fork.ts'
import { bytesToBigInt } from '../primitives/hex.ts'

// The conformance chain's genesis: every fork from Homestead at block 0 to Osaka and its blob-parameter forks by time.
const genesis = JSON.parse(readFileSync(`${RPC_COMPAT_DIR}genesis.json`, 'utf8'))
const rules = new ChainRules(genesis)
const CHAIN_ID = BigInt(genesis.config.chainId)
const KEY = new Uint8Array(32).fill(7)

test('every fork the library names up to Osaka maps to our rules, in order; later forks are refused', () => {
  const common = rules.mutableCopy()
  const seen: number[] = []
  for (const hf of common.hardforks()) {
    common.setHardfork(hf.name)
    if (hf.name === 'amsterdam') {
      assert.throws(() => rulesOf(common), /not supported/)
      continue
    }
    seen.push(FORK_NAMES.indexOf(rulesOf(common).name))
  }
  assert.deepEqual([...seen].sort((a, b) => a - b), seen, 'the mapped forks never go back')
  assert.equal(FORK_NAMES[seen.at(-1)!], 'osaka')
})

test('a header reads as the EVM environment of its block', () => {
  const common = rules.at(50n, 1_000n)
  const header = createBlockHeader(
    { number: 50n, timestamp: 1_000n, gasLimit: 30_000_000n, coinbase: `0x${'11'.repeat(20)}`, mixHash: new Uint8Array(32).fill(9), baseFeePerGas: 7n, excessBlobGas: 0n, blobGasUsed: 0n, parentBeaconBlockRoot: new Uint8Array(32) },
    { common },
  )
  const env = blockEnvOf(header, { blockHash: (n) => n * 2n })
  assert.equal(env.number, 50n)
  assert.equal(env.timestamp, 1_000n)
  assert.equal(env.coinbase, BigInt(`0x${'11'.repeat(20)}`))
  assert.equal(env.baseFee, 7n)
  assert.equal(env.prevRandao, BigInt(`0x${'09'.repeat(32)}`))
  assert.equal(env.blobBaseFee, 1n)
  assert.ok(env.maxBlobGasPerBlock > 0n)
  assert.equal(env.chainId, CHAIN_ID)
  assert.equal(env.blockHash(3n), 6n)
  assert.equal(blockEnvOf(header, { blockHash: () => 0n, zeroBaseFee: true, blobBaseFee: 99n }).baseFee, 0n)
  assert.equal(blockEnvOf(header, { blockHash: () => 0n, blobBaseFee: 99n }).blobBaseFee, 99n)
})

test('a block\'s fields read as the same environment as the header built from them', () => {
  const common = rules.at(50n, 1_000n)
  const fields = { number: 50n, timestamp: 1_000n, gasLimit: 30_000_000n, coinbase: new Uint8Array(20).fill(0x11), mixHash: new Uint8Array(32).fill(9), difficulty: 0n, baseFeePerGas: 7n, excessBlobGas: 50_000_000n }
  const header = createBlockHeader({ ...fields, blobGasUsed: 0n, parentBeaconBlockRoot: new Uint8Array(32) }, { common })
  const options = { blockHash: (n: bigint) => n * 2n }
  const { blockHash: _a, ...fromFields } = blockEnvFrom(fields, common, options)
  const { blockHash: _b, ...fromHeader } = blockEnvOf(header, options)
  assert.deepEqual(fromFields, fromHeader)
  assert.ok(fromFields.blobBaseFee > 1n, 'the excess gives a price above the minimum')
  assert.throws(() => blockEnvFrom({ ...fields, excessBlobGas: undefined }, common, options), /excessBlobGas/)
})

test('the blob gas price is the library header\'s for every blob fork, from no excess to a price far above the minimum', () => {
  const common = rules.mutableCopy()
  let forks = 0
  for (const hf of common.hardforks()) {
    common.setHardfork(hf.name)
    if (!common.isActivatedEIP(4844) || hf.name === 'amsterdam') continue
    forks++
    const fraction = common.param('blobGasPriceUpdateFraction')
    for (const excess of [0n, 1n, 131_071n, fraction - 1n, fraction, 3n * fraction + 12_345n, 40n * fraction, 123_456_789n]) {
      const header = createBlockHeader({ excessBlobGas: excess, blobGasUsed: 0n, parentBeaconBlockRoot: new Uint8Array(32), baseFeePerGas: 1n }, { common })
      assert.equal(blobGasPrice(excess, common), header.getBlobGasPrice(), `${hf.name}, excess ${excess}`)
    }
  }
  assert.ok(forks >= 3, `blob forks checked: ${forks}`)
})

test('each transaction type reads as a TxInput with its own fields', () => {
  const common = rules.at(50n, 1_000n)
  const to = `0x${'22'.repeat(20)}` as const
  const base = { nonce: 3n, gasLimit: 100_000n, to, value: 5n, data: '0xabcd' as const }
  const accessList = [{ address: `0x${'33'.repeat(20)}` as const, storageKeys: [`0x${'00'.repeat(31)}01` as const] }]
  const sender = new Uint8Array(20).fill(0x44)
  const legacy = txInputOf(createTx({ ...base, type: 0 as const, gasPrice: 10n }, { common }).sign(KEY), sender)
  assert.deepEqual([legacy.type, legacy.from, legacy.nonce, legacy.gasLimit, legacy.to, legacy.value, legacy.gasPrice, legacy.accessList], [0, bytesToBigInt(sender), 3n, 100_000n, BigInt(to), 5n, 10n, undefined])
  assert.deepEqual([...legacy.data], [0xab, 0xcd])
  const withList = txInputOf(createTx({ ...base, type: 1 as const, gasPrice: 10n, accessList }, { common }).sign(KEY), sender)
  assert.deepEqual(withList.accessList, [{ address: BigInt(accessList[0]!.address), storageKeys: [1n] }])
  const dynamic = txInputOf(createTx({ ...base, type: 2 as const, maxFeePerGas: 20n, maxPriorityFeePerGas: 2n }, { common }).sign(KEY), sender)
  assert.deepEqual([dynamic.maxFeePerGas, dynamic.maxPriorityFeePerGas, dynamic.gasPrice], [20n, 2n, undefined])
  const hash = `0x01${'55'.repeat(31)}` as const
  const blob = txInputOf(createTx({ ...base, type: 3 as const, maxFeePerGas: 20n, maxPriorityFeePerGas: 2n, maxFeePerBlobGas: 4n, blobVersionedHashes: [hash] }, { common }).sign(KEY), sender)
  assert.deepEqual([blob.maxFeePerBlobGas, blob.blobVersionedHashes], [4n, [BigInt(hash)]])
  const auth = { chainId: `0x${CHAIN_ID.toString(16)}`, address: `0x${'66'.repeat(20)}`, nonce: '0x1', yParity: '0x1', r: '0x1234', s: '0x5678' }
  const setCode = txInputOf(createTx({ ...base, type: 4, maxFeePerGas: 20n, maxPriorityFeePerGas: 2n, authorizationList: [auth] } as never, { common }).sign(KEY), sender)
  assert.deepEqual(setCode.authorizationList, [{ chainId: CHAIN_ID, address: BigInt(auth.address), nonce: 1n, yParity: 1n, r: 0x1234n, s: 0x5678n }])
  const create = txInputOf(createTx({ ...base, to: undefined, type: 2 as const, maxFeePerGas: 20n, maxPriorityFeePerGas: 2n }, { common }).sign(KEY), new Address(sender).bytes)
  assert.equal(create.to, undefined)
})
