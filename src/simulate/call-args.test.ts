import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { ChainRules } from '../execution/chain-config.ts'
import { bytesToHex, hexToBytes } from '../primitives/hex.ts'
import { buildTransaction, resolveCall, type CallLimits } from './call-args.ts'
import { code } from './test-kit.ts'

const GENESIS = JSON.parse(readFileSync(new URL('../../../shared/rpc-compat/tests/genesis.json', import.meta.url), 'utf8'))
const rules = new ChainRules(GENESIS)
const CHAIN_ID = rules.chainId
const C0 = hexToBytes('0xc000000000000000000000000000000000000000')
const C1 = hexToBytes('0xc100000000000000000000000000000000000000')
const limits = (o: Partial<CallLimits> = {}): CallLimits => ({ blockGasLeft: 200_000_000n, budgetLeft: 50_000_000n, baseFee: 0n, chainId: CHAIN_ID, ...o })

test('defaults: nonce from the state, gas = the block\'s remainder cut to the budget, value 0, fees 0, EIP-1559 type', () => {
  const c = resolveCall({ from: C0, to: C1 }, 7n, limits())
  assert.equal(c.nonce, 7n)
  assert.equal(c.gas, 50_000_000n)
  assert.equal(c.gasCapped, true)
  assert.equal(c.type, 2)
  assert.equal(c.value, 0n)
  assert.deepEqual([c.msgGasPrice, c.msgFeeCap, c.msgTipCap], [0n, 0n, 0n])
  assert.equal(resolveCall({ to: C1 }, 0n, limits({ blockGasLeft: 30_000n })).gas, 30_000n)
  assert.equal(bytesToHex(resolveCall({ to: C1 }, 0n, limits()).from), `0x${'00'.repeat(20)}`)
})

test('the type follows the fields: gasPrice (or no London) legacy, auth list set-code, blob hashes blob', () => {
  assert.equal(resolveCall({ to: C1, gasPrice: 1n }, 0n, limits()).type, 0)
  assert.equal(resolveCall({ to: C1 }, 0n, limits({ baseFee: undefined })).type, 0)
  assert.equal(resolveCall({ to: C1, authorizationList: [] }, 0n, limits()).type, 4)
  assert.equal(resolveCall({ to: C1, blobVersionedHashes: [] }, 0n, limits()).maxFeePerBlobGas, 0n)
  assert.equal(resolveCall({ to: C1, blobVersionedHashes: [] }, 0n, limits()).type, 3)
})

test('the message pays min(tip + base fee, fee cap), or nothing when no fee is given', () => {
  const c = resolveCall({ to: C1, maxFeePerGas: 20n, maxPriorityFeePerGas: 3n }, 0n, limits({ baseFee: 10n }))
  assert.deepEqual([c.msgGasPrice, c.msgFeeCap, c.msgTipCap], [13n, 20n, 3n])
  assert.equal(resolveCall({ to: C1, maxFeePerGas: 11n, maxPriorityFeePerGas: 3n }, 0n, limits({ baseFee: 10n })).msgGasPrice, 11n)
  assert.equal(resolveCall({ to: C1 }, 0n, limits({ baseFee: 10n })).msgGasPrice, 0n)
  const legacy = resolveCall({ to: C1, gasPrice: 12n }, 0n, limits({ baseFee: 10n }))
  assert.deepEqual([legacy.msgGasPrice, legacy.msgFeeCap, legacy.msgTipCap], [12n, 12n, 12n])
})

test('refusals: more gas than the block has left (-38015), fees of both styles and another chain id (-32000)', () => {
  assert.equal(code(() => resolveCall({ to: C1, gas: 30_001n }, 0n, limits({ blockGasLeft: 30_000n }))), -38015)
  assert.equal(code(() => resolveCall({ to: C1, gasPrice: 1n, maxFeePerGas: 2n, conflictingFees: true }, 0n, limits())), -32000)
  assert.equal(code(() => resolveCall({ to: C1, chainId: 1n }, 0n, limits())), -32000)
  assert.equal(code(() => resolveCall({ to: C1, chainId: CHAIN_ID }, 0n, limits())), undefined)
})

test('the unsigned transaction hashes as geth\'s (rpc-compat ethSimulate-simple: a plain send)', () => {
  const common = rules.at(0x37n, 0x228n)
  const c = resolveCall({ from: C0, to: C1, value: 0x3e8n }, 0n, limits())
  const { tx, hash } = buildTransaction(c, common)
  assert.equal(bytesToHex(hash), '0xf1c5abb08809ef760f87aeabe7a87284c60797192dab6d2f0d26c27c9c038e9d')
  assert.equal(tx.gasLimit, 50_000_000n, 'above the EIP-7825 cap, as geth allows for calls')
  assert.equal(bytesToHex(tx.getSenderAddress().bytes), bytesToHex(C0))
})

test('a nonce of 2^64 - 1 is kept (the library refuses to construct it)', () => {
  const common = rules.at(0x37n, 0x228n)
  const c = resolveCall({ from: C0, to: C1 }, (1n << 64n) - 1n, limits())
  const { tx } = buildTransaction(c, common)
  assert.equal(tx.nonce, (1n << 64n) - 1n)
})
