/**
 * The OP Stack predeploys a dev OP chain carries from genesis: their addresses, and the runtime code the files
 * under `predeploys/` hold (the Optimism monorepo's bytecode, MIT; `predeploys/README.md` names each source).
 *
 * Owns: the one table of code to install at each address (predeploy-addresses.ts, re-exported here). It never decides
 * storage (dev-genesis.ts does) and never checks the code: `predeploy-code.test.ts` re-derives every runtime
 * from its creation code on a running node and holds the stated code hashes.
 */

import l1Block from './predeploys/l1-block.json' with { type: 'json' }
import gasPriceOracle from './predeploys/gas-price-oracle.json' with { type: 'json' }
import sequencerFeeVault from './predeploys/sequencer-fee-vault.json' with { type: 'json' }
import baseFeeVault from './predeploys/base-fee-vault.json' with { type: 'json' }
import l1FeeVault from './predeploys/l1-fee-vault.json' with { type: 'json' }
import operatorFeeVault from './predeploys/operator-fee-vault.json' with { type: 'json' }
import l2ToL1MessagePasser from './predeploys/l2-to-l1-message-passer.json' with { type: 'json' }

export {
  BASE_FEE_VAULT_ADDRESS,
  GAS_PRICE_ORACLE_ADDRESS,
  L1_BLOCK_ADDRESS,
  L1_FEE_VAULT_ADDRESS,
  L1_INFO_DEPOSITOR_ADDRESS,
  L2_TO_L1_MESSAGE_PASSER_ADDRESS,
  OPERATOR_FEE_VAULT_ADDRESS,
  SEQUENCER_FEE_VAULT_ADDRESS,
} from './predeploy-addresses.ts'

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
  /** Where a third party holds the same runtime code byte for byte. */
  readonly expectedRuntimeCode?: { readonly from: string }
  readonly runtimeCode: string
}

/** Every predeploy the dev OP genesis installs, in address order of the specs' table. */
export const PREDEPLOY_ARTIFACTS: readonly PredeployArtifact[] = [
  gasPriceOracle,
  sequencerFeeVault,
  l1Block,
  l2ToL1MessagePasser,
  baseFeeVault,
  l1FeeVault,
  operatorFeeVault,
]

