import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { FlashnodeError } from '../errors/errors.ts'
import { ChainRules } from '../execution/chain-config.ts'
import { hexToBytes } from '../primitives/hex.ts'
import { resolveCall, type CallLimits } from './call-args.ts'
import { checkBeforeExecution, checkGas, type CheckContext } from './call-checks.ts'
import type { SimCall } from './types.ts'

const GENESIS = JSON.parse(readFileSync(new URL('../../../shared/rpc-compat/tests/genesis.json', import.meta.url), 'utf8'))
const rules = new ChainRules(GENESIS)
const common = rules.at(0x37n, 0x228n)
const C1 = hexToBytes('0xc100000000000000000000000000000000000000')

function check(call: SimCall, ctx: Partial<CheckContext>, lim: Partial<CallLimits> = {}, intrinsic = 21_000n): number | undefined {
  const c = resolveCall(call, 0n, { blockGasLeft: 30_000_000n, budgetLeft: 50_000_000n, baseFee: 10n, chainId: rules.chainId, ...lim })
  const full: CheckContext = { common, validation: false, baseFee: 10n, blobBaseFee: 1n, senderNonce: 0n, senderBalance: 0n, ...ctx }
  try {
    checkBeforeExecution(c, full)
    checkGas(c, full, intrinsic, 0n)
  } catch (e) {
    if (e instanceof FlashnodeError) return e.code
    throw e
  }
  return undefined
}

test('without validation a call that gives no fee skips the base fee; nonces are not checked', () => {
  assert.equal(check({ to: C1, nonce: 5n }, {}), undefined)
  assert.equal(check({ to: C1, maxFeePerGas: 1n }, {}), -38012, 'a fee that is given is checked')
})

test('with validation: nonce too high / too low / at its maximum, then the fee caps', () => {
  const v = { validation: true, baseFee: 0n, senderBalance: 10n ** 18n }
  const lim = { baseFee: 0n }
  assert.equal(check({ to: C1, nonce: 1n }, v, lim), -38011)
  assert.equal(check({ to: C1, nonce: 0n }, { ...v, senderNonce: 3n }, lim), -38010)
  assert.equal(check({ to: C1, nonce: (1n << 64n) - 1n }, { ...v, senderNonce: (1n << 64n) - 1n }, lim), -32603)
  assert.equal(check({ to: C1, nonce: 0n }, { ...v, baseFee: 10n }, { baseFee: 10n }), -38012)
  assert.equal(check({ to: C1, nonce: 0n, maxFeePerGas: 5n, maxPriorityFeePerGas: 6n }, v, lim), -32602)
  assert.equal(check({ to: C1, nonce: 1n, maxFeePerGas: 0n }, { ...v, baseFee: 10n }, { baseFee: 10n }), -38011, 'the nonce comes first')
})

test('funds for gas * fee cap + value (-38014) come before intrinsic gas (-38013)', () => {
  assert.equal(check({ to: C1, value: 1n, gas: 0n }, {}), -38014)
  assert.equal(check({ to: C1, gas: 0n }, {}), -38013)
  assert.equal(check({ to: C1, gas: 21_000n, maxFeePerGas: 10n }, { senderBalance: 210_000n - 1n }), -38014)
  assert.equal(check({ to: C1, gas: 21_000n, maxFeePerGas: 10n }, { senderBalance: 210_000n }), undefined)
})

test('init code over the limit is -38025; blob shape errors are the caller\'s: -32602', () => {
  const big = new Uint8Array(Number(common.param('maxInitCodeSize')) + 1)
  assert.equal(check({ data: big }, { senderBalance: 0n }, {}, 0n), -38025)
  assert.equal(check({ to: C1, blobVersionedHashes: [] }, {}), -32602)
  assert.equal(check({ to: C1, blobVersionedHashes: [new Uint8Array(32)] }, {}), -32602, 'hash version must be 1')
  assert.equal(check({ blobVersionedHashes: [new Uint8Array(32).fill(1)] }, {}), -32602, 'a blob call needs a recipient')
})

test('the EIP-7623 floor: a call needs 21000 + 10 per token of its data (zero byte 1, other byte 4)', () => {
  const data = new Uint8Array([0, 0, 1])
  const floor = 21_000n + 10n * (2n + 4n)
  assert.equal(check({ to: C1, data, gas: floor }, {}), undefined)
  assert.equal(check({ to: C1, data, gas: floor - 1n }, {}), -38013, 'under the floor reads as intrinsic gas too low')
})
