/**
 * Pool settings: geth's defaults, overridable one at a time, and counts that must be positive integers refused
 * with the setting's name.
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { DEFAULT_POOL_CONFIG, resolvePoolConfig } from './config.ts'

test('the defaults are geth\'s, and an override changes only its own setting', () => {
  assert.deepEqual(resolvePoolConfig(), DEFAULT_POOL_CONFIG)
  assert.equal(DEFAULT_POOL_CONFIG.priceBumpPercent, 10)
  assert.equal(DEFAULT_POOL_CONFIG.accountSlots, 16)
  assert.equal(DEFAULT_POOL_CONFIG.globalSlots, 5120)
  assert.equal(DEFAULT_POOL_CONFIG.accountQueue, 64)
  assert.equal(DEFAULT_POOL_CONFIG.globalQueue, 1024)
  assert.equal(DEFAULT_POOL_CONFIG.queueLifetimeMs, 3 * 3600 * 1000)
  assert.equal(DEFAULT_POOL_CONFIG.maxTxSize, 131_072)
  assert.equal(DEFAULT_POOL_CONFIG.maxBlobTxSize, 1_048_576)
  assert.equal(DEFAULT_POOL_CONFIG.txFeeCapEther, 1)
  assert.equal(DEFAULT_POOL_CONFIG.minTip, 1n)
  assert.deepEqual(resolvePoolConfig({ accountSlots: 4 }), { ...DEFAULT_POOL_CONFIG, accountSlots: 4 })
})

test('counts must be positive integers, named in the refusal', () => {
  for (const key of ['accountSlots', 'globalSlots', 'accountQueue', 'globalQueue', 'priceBumpPercent'] as const) {
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      assert.throws(() => resolvePoolConfig({ [key]: bad }), (e: unknown) => e instanceof RangeError && e.message === `txpool: ${key} must be a positive integer`)
    }
    assert.equal(resolvePoolConfig({ [key]: 1 })[key], 1, 'one is allowed')
  }
})
