/**
 * The network-upgrade deposits an OP fork's activation block carries after its L1-attributes deposit and the
 * block's user deposits (specs protocol/<fork>/derivation.md, "Network upgrade automation transactions"; op-node
 * appends them in the same place): deploying the fork's new L1Block / GasPriceOracle implementations from fixed
 * deployer accounts, pointing the predeploy proxies at them (upgradeTo from the zero address, which the OP Proxy
 * lets act as its admin), the depositor's setEcotone()/setFjord() call on the oracle, and Ecotone's EIP-4788
 * beacon roots contract.
 *
 * Owns: the fields of those deposits, which are data (upgrades/<fork>.json: the specs' fields and bytecode,
 * byte for byte op-node's; the file names its source and licence), their source hashes (domain 2 and the
 * specs' intent string) and the rule of which block carries them: the first block whose timestamp reaches the
 * fork's activation time (its parent's does not), the forks in activation order when one block starts several.
 * It never executes them (block execution does, like any deposit) and never decides where in the block they
 * go (the sequencer's opening does).
 *
 * Isthmus and Jovian also carry upgrade deposits; they are not built here yet: `unbuiltUpgradeAt` names a block
 * that would need them, so the sequencer refuses it rather than build a block op-node would not.
 */

import ecotone from './upgrades/ecotone.json' with { type: 'json' }
import fjord from './upgrades/fjord.json' with { type: 'json' }
import { hexToBytes } from '../primitives/hex.ts'
import type { OpChainConfig } from './chain-config.ts'
import { encodeDepositTransaction, upgradeDepositSourceHash, type DepositTransaction } from './deposit-tx.ts'
import type { OpForkName } from './forks.ts'

/** One upgrade deposit as its data file states it. */
interface UpgradeTransactionData {
  readonly intent: string
  readonly from: string
  readonly to: string | null
  readonly gas: number
  readonly data: string
}

interface UpgradeFile {
  readonly fork: string
  readonly transactions: readonly UpgradeTransactionData[]
}

/** The forks whose upgrade deposits this module builds, in activation order. */
export const BUILT_UPGRADE_FORKS = ['ecotone', 'fjord'] as const
export type UpgradeFork = (typeof BUILT_UPGRADE_FORKS)[number]

/** Forks whose activation block carries upgrade deposits that are not built here. */
const UNBUILT_UPGRADE_FORKS = ['isthmus', 'jovian'] as const satisfies readonly OpForkName[]

const FILES: Readonly<Record<UpgradeFork, UpgradeFile>> = { ecotone, fjord }

const bytes = (hex: string): Uint8Array => hexToBytes(hex.toLowerCase())

function depositOf(tx: UpgradeTransactionData): DepositTransaction {
  return {
    sourceHash: upgradeDepositSourceHash(tx.intent),
    from: bytes(tx.from),
    to: tx.to === null ? null : bytes(tx.to),
    mint: 0n,
    value: 0n,
    gas: BigInt(tx.gas),
    isSystemTx: false,
    data: bytes(tx.data),
  }
}

/** A fork's upgrade deposits, in block order. */
export function upgradeDeposits(fork: UpgradeFork): DepositTransaction[] {
  const file = FILES[fork]
  if (file.fork !== fork) throw new Error(`upgrades/${fork}.json holds ${file.fork}'s transactions`)
  return file.transactions.map(depositOf)
}

/** True when a block at `timestamp` after a parent at `parentTimestamp` is `fork`'s first block. */
function activates(config: OpChainConfig, fork: Exclude<OpForkName, 'bedrock'>, parentTimestamp: bigint, timestamp: bigint): boolean {
  const time = config.times[fork]
  return time !== undefined && time > parentTimestamp && time <= timestamp
}

/** The upgrade deposits' envelopes of the block at `timestamp` after a parent at `parentTimestamp` (none mostly). */
export function upgradeDepositsAt(config: OpChainConfig, parentTimestamp: bigint, timestamp: bigint): Uint8Array[] {
  return BUILT_UPGRADE_FORKS.filter((fork) => activates(config, fork, parentTimestamp, timestamp)).flatMap((fork) =>
    upgradeDeposits(fork).map(encodeDepositTransaction),
  )
}

/** The first fork this block activates whose upgrade deposits are not built here, if any. */
export function unbuiltUpgradeAt(config: OpChainConfig, parentTimestamp: bigint, timestamp: bigint): OpForkName | undefined {
  return UNBUILT_UPGRADE_FORKS.find((fork) => activates(config, fork, parentTimestamp, timestamp))
}
