/**
 * Pool settings and their defaults (geth's legacypool DefaultConfig and rpc defaults, unless noted).
 * Owns nothing else: plain data, resolved once when a pool is built.
 */

import type { AdmissionRules } from './validate.ts'

export interface PoolConfig extends AdmissionRules {
  /** Percent both fee caps (and the tip) must rise by to replace a transaction with the same nonce. */
  readonly priceBumpPercent: number
  /** Executable transactions per account that eviction never touches. */
  readonly accountSlots: number
  /** Executable transactions overall (beyond it only accounts over accountSlots give way). */
  readonly globalSlots: number
  /** Non-executable (gapped) transactions per account. */
  readonly accountQueue: number
  /** Non-executable transactions overall. */
  readonly globalQueue: number
  /** How long an account's gapped transactions may wait without progress (ms). */
  readonly queueLifetimeMs: number
}

export const DEFAULT_POOL_CONFIG: PoolConfig = {
  maxTxSize: 128 * 1024,
  maxBlobTxSize: 1024 * 1024,
  maxBlobsPerTx: 6,
  txFeeCapEther: 1,
  allowUnprotected: false,
  minTip: 1n,
  rejectFeeCapBelowBaseFee: false,
  priceBumpPercent: 10,
  accountSlots: 16,
  globalSlots: 4096 + 1024,
  accountQueue: 64,
  globalQueue: 1024,
  queueLifetimeMs: 3 * 60 * 60 * 1000,
}

export function resolvePoolConfig(overrides: Partial<PoolConfig> = {}): PoolConfig {
  const c = { ...DEFAULT_POOL_CONFIG, ...overrides }
  for (const key of ['accountSlots', 'globalSlots', 'accountQueue', 'globalQueue', 'priceBumpPercent'] as const) {
    if (!Number.isInteger(c[key]) || c[key] < 1) throw new RangeError(`txpool: ${key} must be a positive integer`)
  }
  return c
}
