/**
 * The OP Stack predeploys a dev OP chain carries from genesis: their addresses, and the runtime code the files
 * under `predeploys/` hold (the Optimism monorepo's bytecode, MIT; `predeploys/README.md` names each source).
 *
 * Owns: the addresses (as the specs fix them) and the one table of code to install at each. It never decides
 * storage (dev-genesis.ts does) and never checks the code: `predeploy-code.test.ts` re-derives every runtime
 * from its creation code on a running node and holds the stated code hashes.
 */

import l1Block from './predeploys/l1-block.json' with { type: 'json' }
import gasPriceOracle from './predeploys/gas-price-oracle.json' with { type: 'json' }
import sequencerFeeVault from './predeploys/sequencer-fee-vault.json' with { type: 'json' }
import baseFeeVault from './predeploys/base-fee-vault.json' with { type: 'json' }
import l1FeeVault from './predeploys/l1-fee-vault.json' with { type: 'json' }
import operatorFeeVault from './predeploys/operator-fee-vault.json' with { type: 'json' }

export const L1_BLOCK_ADDRESS = '0x4200000000000000000000000000000000000015'
export const GAS_PRICE_ORACLE_ADDRESS = '0x420000000000000000000000000000000000000f'
export const SEQUENCER_FEE_VAULT_ADDRESS = '0x4200000000000000000000000000000000000011'
export const BASE_FEE_VAULT_ADDRESS = '0x4200000000000000000000000000000000000019'
export const L1_FEE_VAULT_ADDRESS = '0x420000000000000000000000000000000000001a'
export const OPERATOR_FEE_VAULT_ADDRESS = '0x420000000000000000000000000000000000001b'
/** The account that sends the L1-attributes deposit and alone may set L1Block's values and the oracle's flags. */
export const L1_INFO_DEPOSITOR_ADDRESS = '0xdeaddeaddeaddeaddeaddeaddeaddeaddead0001'

/** One predeploy's data file, as `predeploys/*.json` holds it. */
export interface PredeployArtifact {
  readonly contract: string
  readonly version: string
  readonly address: string
  readonly licence: string
  readonly source: Readonly<Record<string, string>>
  readonly creationCode: string
  readonly constructorArgs: string
  readonly runtimeCodeHash: string
  readonly expectedRuntimeCodeHash?: { readonly hash: string; readonly from: string }
  readonly runtimeCode: string
}

/** Every predeploy the dev OP genesis installs, in address order of the specs' table. */
export const PREDEPLOY_ARTIFACTS: readonly PredeployArtifact[] = [
  gasPriceOracle,
  sequencerFeeVault,
  l1Block,
  baseFeeVault,
  l1FeeVault,
  operatorFeeVault,
]

