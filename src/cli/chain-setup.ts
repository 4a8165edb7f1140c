/**
 * Which genesis a command uses: an explicit --genesis file, else the chain already in the data directory,
 * else the dev chain built from the dev-chain options.
 */

import { readFileSync } from 'node:fs'
import type { GethGenesis } from '../execution/chain-config.ts'
import { devGenesis } from '../node/dev-genesis.ts'
import { etherToWei, type ParsedOptions, UsageError } from './options.ts'

export interface GenesisChoice {
  readonly genesis: GethGenesis
  readonly isDevChain: boolean
}

export function chooseGenesis(options: ParsedOptions): GenesisChoice {
  if (options.genesis !== undefined) {
    let text: string
    try {
      text = readFileSync(options.genesis, 'utf8')
    } catch (e) {
      throw new UsageError(`cannot read genesis file ${options.genesis}: ${(e as Error).message}`)
    }
    try {
      return { genesis: JSON.parse(text) as GethGenesis, isDevChain: false }
    } catch (e) {
      throw new UsageError(`genesis file ${options.genesis} is not JSON: ${(e as Error).message}`)
    }
  }
  return {
    genesis: devGenesis({
      chainId: options['chain-id'],
      gasLimit: options['gas-limit'],
      baseFee: options['base-fee'],
      accounts: options.accounts,
      balance: etherToWei(options.balance),
    }),
    isDevChain: true,
  }
}
