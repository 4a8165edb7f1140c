/**
 * The dev chain `flashnode start --op-stack` runs: the Ethereum dev genesis (dev-genesis.ts: Prague rules,
 * the funded test accounts) made a Base-like OP Stack chain.
 *
 * - The `optimism` section with Base mainnet's EIP-1559 parameters as the superchain registry and op-alloy's
 *   Base constants give them: elasticity 6, denominator 50, denominator from Canyon 250.
 * - Every OP fork from Bedrock through Jovian active at genesis, as Base runs them now.
 * - Jovian's extraData on the genesis header (the denominator from Canyon, the elasticity and the minimum base
 *   fee, 0 unless given: the system config's default), as the next block's base fee reads it from its parent.
 * - The predeploys (L1Block, GasPriceOracle, L2ToL1MessagePasser, the fee vaults) with their real code,
 *   L1Block's storage holding the dev L1 values (default: opstack/dev-genesis.ts BASE_LIKE_DEV_L1), and the
 *   create2Deployer preinstall (Canyon at genesis: op-geth installs it in no block).
 * Block timing (2 s blocks of 10 flashblocks of 200 ms) and the coinbase (the SequencerFeeVault) are the
 * sequencer's: its defaults and its OP opening (sequencer/op-opening.ts).
 */

import type { GethGenesis } from '../execution/chain-config.ts'
import { encodeJovianExtraData } from '../opstack/base-fee.ts'
import { BASE_LIKE_DEV_L1, withOpPredeploys, type DevL1Parameters } from '../opstack/dev-genesis.ts'
import type { OpForkName } from '../opstack/forks.ts'
import { bytesToHex } from '../primitives/hex.ts'
import { devGenesis, type DevChainOptions } from './dev-genesis.ts'

/** The newest OP fork the dev chain runs. */
export const OP_DEV_FORK: OpForkName = 'jovian'

/** Base mainnet's EIP-1559 parameters (superchain registry; op-alloy's BASE_MAINNET constants). */
export const BASE_EIP1559 = { elasticity: 6n, denominator: 50n, denominatorCanyon: 250n } as const

/** Every OP fork up to OP_DEV_FORK, active from genesis (op-geth's genesis keys). */
export const FORKS_AT_GENESIS = {
  bedrockBlock: 0,
  regolithTime: 0,
  canyonTime: 0,
  deltaTime: 0,
  ecotoneTime: 0,
  fjordTime: 0,
  graniteTime: 0,
  holoceneTime: 0,
  isthmusTime: 0,
  jovianTime: 0,
}

export function opDevGenesis(opts: DevChainOptions, l1: DevL1Parameters = BASE_LIKE_DEV_L1, minBaseFee = 0n): GethGenesis {
  const base = devGenesis(opts) as unknown as { config: Record<string, unknown>; alloc: Record<string, unknown> }
  const genesis = {
    ...base,
    config: {
      ...base.config,
      ...FORKS_AT_GENESIS,
      optimism: {
        eip1559Elasticity: Number(BASE_EIP1559.elasticity),
        eip1559Denominator: Number(BASE_EIP1559.denominator),
        eip1559DenominatorCanyon: Number(BASE_EIP1559.denominatorCanyon),
      },
    },
    extraData: bytesToHex(encodeJovianExtraData(BASE_EIP1559.denominatorCanyon, BASE_EIP1559.elasticity, minBaseFee)),
  }
  return withOpPredeploys(genesis, OP_DEV_FORK, l1) as unknown as GethGenesis
}
