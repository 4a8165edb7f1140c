/**
 * Which genesis a command uses: an explicit --genesis file, else the chain already in the data directory,
 * else the dev chain built from the dev-chain options (the OP Stack one with --op-stack). --op-l1 goes with an
 * OP chain only: --op-stack's, or a genesis file with an `optimism` section (the sequencer's L1 values).
 */

import { readFileSync } from 'node:fs'
import type { GethGenesis } from '../execution/chain-config.ts'
import { devGenesis } from '../node/dev-genesis.ts'
import { opDevGenesis } from '../node/op-dev-genesis.ts'
import { BASE_LIKE_DEV_L1 } from '../opstack/dev-genesis.ts'
import { readOpL1File } from './op-l1-file.ts'
import { impliedForkTimesError } from '../opstack/chain-config.ts'
import { etherToWei, type ParsedOptions, UsageError } from './options.ts'

export interface GenesisChoice {
  readonly genesis: GethGenesis
  readonly isDevChain: boolean
}

export function chooseGenesis(options: ParsedOptions): GenesisChoice {
  if (options.genesis !== undefined) {
    if (options['op-stack']) throw new UsageError('--op-stack builds its own genesis: it excludes --genesis (a genesis with an optimism section is an OP chain by itself)')
    let text: string
    try {
      text = readFileSync(options.genesis, 'utf8')
    } catch (e) {
      throw new UsageError(`cannot read genesis file ${options.genesis}: ${(e as Error).message}`)
    }
    let genesis: GethGenesis
    try {
      genesis = JSON.parse(text) as GethGenesis
    } catch (e) {
      throw new UsageError(`genesis file ${options.genesis} is not JSON: ${(e as Error).message}`)
    }
    // The L1 values of an OP chain's blocks (its genesis's L1Block may hold none: an op-node genesis leaves them to L1).
    const config = (genesis as { config?: { optimism?: unknown } }).config
    if (options['op-l1'] !== undefined && (config?.optimism === undefined || config.optimism === null)) {
      throw new UsageError(`--op-l1 is for an OP Stack chain: genesis file ${options.genesis} has no optimism section`)
    }
    const implied = config?.optimism === undefined || config.optimism === null ? undefined : impliedForkTimesError(config as Record<string, unknown>)
    if (implied !== undefined) throw new UsageError(`genesis file ${options.genesis}: ${implied} (an OP fork activates the Ethereum fork it implies)`)
    return { genesis, isDevChain: false }
  }
  const dev = {
    chainId: options['chain-id'],
    gasLimit: options['gas-limit'],
    baseFee: options['base-fee'],
    accounts: options.accounts,
    balance: etherToWei(options.balance),
  }
  if (options['op-l1'] !== undefined && !options['op-stack']) throw new UsageError('--op-l1 is for an OP Stack chain: an --op-stack dev chain or a --genesis file with an optimism section')
  if (!options['op-stack']) return { genesis: devGenesis(dev), isDevChain: true }
  const { minBaseFee, ...l1 } = options['op-l1'] === undefined ? {} : readOpL1File(options['op-l1'])
  return { genesis: opDevGenesis(dev, { ...BASE_LIKE_DEV_L1, ...l1 }, minBaseFee), isDevChain: true }
}
