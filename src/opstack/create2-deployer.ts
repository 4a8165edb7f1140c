/**
 * Canyon's create2Deployer: the irregular state change that sets the create2Deployer's code at
 * 0x13b0D85CcB8bf860b6b79AF3029fCA081AE9beF2 (specs protocol/canyon/overview.md; the contract is one of the
 * preinstalls of specs protocol/preinstalls.md), as op-geth makes it (consensus/misc/create2deployer.go
 * EnsureCreate2Deployer, called before a block's transactions): only in the block whose timestamp IS Canyon's
 * activation time, code set and nothing else (balance, nonce and storage kept).
 *
 * A chain whose Canyon is active at genesis therefore never gets it from a block (the genesis block runs no
 * state transition, and no later block has Canyon's time): OP Stack genesis tooling puts it in the genesis
 * state as a preinstall instead (contracts-bedrock scripts SetPreinstalls.s.sol: the code, nonce 1), which
 * `create2DeployerPreinstall` gives for the dev genesis.
 *
 * Owns: the code (predeploys/create2-deployer.json: the Optimism monorepo's Preinstalls.sol, MIT; the same
 * bytes as Base's node, MIT; its hash the one op-geth states) and the activation rule. It never writes state
 * (execution/block-execution.ts does).
 */

import create2Deployer from './predeploys/create2-deployer.json' with { type: 'json' }
import { hexToBytes, type Hex } from '../primitives/hex.ts'
import type { OpChainConfig } from './chain-config.ts'
import { CREATE2_DEPLOYER_ADDRESS } from './predeploy-addresses.ts'

export { CREATE2_DEPLOYER_ADDRESS }

/** The create2Deployer's runtime code. */
export const CREATE2_DEPLOYER_CODE: Uint8Array = hexToBytes(create2Deployer.runtimeCode.toLowerCase())

/** The code hash op-geth holds the code to (create2DeployerCodeHash). */
export const CREATE2_DEPLOYER_CODE_HASH = create2Deployer.expectedRuntimeCodeHash.hash as Hex

/** True when the block at `timestamp` sets the create2Deployer's code: Canyon activates exactly then. */
export function installsCreate2Deployer(config: OpChainConfig, timestamp: bigint): boolean {
  return config.times.canyon === timestamp
}

/** The preinstall's genesis allocation entry (code, nonce 1, as the OP Stack's genesis scripts set preinstalls). */
export function create2DeployerPreinstall(): { readonly balance: Hex; readonly nonce: Hex; readonly code: Hex } {
  return { balance: '0x0', nonce: '0x1', code: create2Deployer.runtimeCode.toLowerCase() as Hex }
}
