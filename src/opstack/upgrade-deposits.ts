/**
 * The network-upgrade deposits an OP fork's activation block carries after its L1-attributes deposit and the
 * block's user deposits (specs protocol/<fork>/derivation.md, "Network upgrade automation transactions"; op-node
 * appends them in the same place) for Ecotone, Fjord, Isthmus and Jovian: deploying the fork's new L1Block /
 * GasPriceOracle (Isthmus: also OperatorFeeVault) implementations from fixed deployer accounts, pointing the
 * predeploy proxies at them (upgradeTo from the zero address, which the OP Proxy lets act as its admin), the
 * depositor's setEcotone()/setFjord()/setIsthmus()/setJovian() call on the oracle, and the system contracts
 * the fork's Ethereum counterpart needs (Ecotone: EIP-4788's beacon roots, Isthmus: EIP-2935's block hashes).
 *
 * Owns: the fields of those deposits, which are data (upgrades/<fork>.json: the specs' fields and bytecode,
 * byte for byte op-node's and Base's node's; each file names its sources, its licences, and where they
 * disagree), their source hashes (domain 2 and the intent string) and the rule of which block carries them:
 * the first block whose timestamp reaches the fork's activation time (its parent's does not), the forks in
 * activation order when one block starts several. It never executes them (block execution does, like any
 * deposit) and never decides where in the block they go (the sequencer's opening does).
 */

import ecotone from './upgrades/ecotone.json' with { type: 'json' }
import fjord from './upgrades/fjord.json' with { type: 'json' }
import isthmus from './upgrades/isthmus.json' with { type: 'json' }
import jovian from './upgrades/jovian.json' with { type: 'json' }
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

/** The forks whose first block carries upgrade deposits, in activation order. */
export const UPGRADE_FORKS = ['ecotone', 'fjord', 'isthmus', 'jovian'] as const satisfies readonly OpForkName[]
export type UpgradeFork = (typeof UPGRADE_FORKS)[number]

const FILES: Readonly<Record<UpgradeFork, UpgradeFile>> = { ecotone, fjord, isthmus, jovian }

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

/** Whether the block at `timestamp` after a parent at `parentTimestamp` is a fork's first block that carries upgrade deposits. */
export function upgradesAt(config: OpChainConfig, parentTimestamp: bigint, timestamp: bigint): boolean {
  return UPGRADE_FORKS.some((fork) => activates(config, fork, parentTimestamp, timestamp))
}

/** The upgrade deposits of the block at `timestamp` after a parent at `parentTimestamp` (none mostly), in block order. */
export function upgradeDepositsAt(config: OpChainConfig, parentTimestamp: bigint, timestamp: bigint): DepositTransaction[] {
  return UPGRADE_FORKS.filter((fork) => activates(config, fork, parentTimestamp, timestamp)).flatMap(upgradeDeposits)
}

/** The same deposits' envelopes. */
export function upgradeDepositEnvelopesAt(config: OpChainConfig, parentTimestamp: bigint, timestamp: bigint): Uint8Array[] {
  return upgradeDepositsAt(config, parentTimestamp, timestamp).map(encodeDepositTransaction)
}
