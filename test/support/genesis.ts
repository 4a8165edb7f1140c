/**
 * Variants of the test dev chain's genesis (dev-chain.ts testGenesis): extra accounts with code, and the same
 * chain on Shanghai rules, where SELFDESTRUCT still deletes an existing contract with its storage (before
 * EIP-6780), so wiping storage that earlier blocks wrote can be tested.
 */

import type { GethGenesis } from '../../src/execution/chain-config.ts'
import { testGenesis } from './dev-chain.ts'

export interface GenesisOptions {
  /** Accounts holding code (runtime hex without 0x), by address. */
  readonly code?: Readonly<Record<string, string>>
  /** Shanghai rules: no Cancun, no Prague. */
  readonly shanghai?: boolean
}

export function genesisWith(opts: GenesisOptions): GethGenesis {
  const g = testGenesis() as unknown as { config: Record<string, unknown>; alloc: Record<string, unknown> }
  for (const [address, code] of Object.entries(opts.code ?? {})) g.alloc[address] = { balance: '0x0', code: `0x${code}` }
  if (opts.shanghai === true) {
    delete g.config.cancunTime
    delete g.config.pragueTime
    delete g.config.blobSchedule
  }
  return g as unknown as GethGenesis
}
