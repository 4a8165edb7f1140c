/**
 * Header fields of the simulated blocks, as geth's simulator fills them.
 *
 * Before execution (`headerTemplates`), from the block before: coinbase and gas limit carry over from the
 * previous block (the base block first, then each simulated block with its overrides); difficulty carries
 * over too but is 0 once the block is past the merge; mixHash is prevRandao or zero; the parent beacon root
 * is zero (or the override) from Cancun on; extraData and nonce are empty; withdrawals default to none.
 * Overrides (number, time, gasLimit, feeRecipient, prevRandao, difficulty) apply last.
 *
 * Once the parent is final (`headerFields`): parentHash; from London the base fee is the override, else
 * (with validation) the EIP-1559 successor of the parent's, else 0; from Cancun the excess blob gas follows
 * from the parent when the parent is a Cancun block, else 0. On an OP Stack chain the excess blob gas is
 * always 0 (op-geth's eip4844.CalcExcessBlobGas answers 0 for an OP chain; Base's block assembler sets 0).
 *
 * On an OP Stack chain the base fee with validation is the OP chain's successor of the parent's
 * (opstack/base-fee.ts: the config's EIP-1559 parameters, from Holocene the parent's extraData's, from Jovian
 * its minimum base fee and max(gasUsed, blobGasUsed) metered), as op-geth's eip1559.CalcBaseFee and Base's
 * node (reth's simulate: the OP chain spec's next block base fee) compute it; and a simulated block's
 * extraData is its parent's, as Base's node builds it (the next block's attributes carry the parent's
 * extraData, which its OP block assembler writes), so the EIP-1559 parameters and the minimum base fee carry
 * through every simulated block.
 */

import type { BlockHeader } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import { opNextBaseFee } from '../opstack/base-fee.ts'
import type { OpChainConfig } from '../opstack/chain-config.ts'
import type { WithdrawalView } from '../chain/types.ts'
import type { ChainRules } from '../execution/chain-config.ts'
import type { BlockEnvFields } from '../execution/evm-env.ts'
import type { PlannedBlock } from './chain-plan.ts'

export interface HeaderTemplate {
  readonly number: bigint
  readonly timestamp: bigint
  readonly coinbase: Uint8Array
  readonly difficulty: bigint
  readonly gasLimit: bigint
  readonly mixHash: Uint8Array
  readonly baseFeeOverride: bigint | undefined
  readonly blobBaseFeeOverride: bigint | undefined
  readonly parentBeaconBlockRoot: Uint8Array | undefined
  /** Present exactly when the block is a Shanghai block. */
  readonly withdrawals: readonly WithdrawalView[] | undefined
}

/** A simulated block's header fields before it is built: what its EVM environment reads, and the rest. */
export interface SimHeaderData extends BlockEnvFields {
  readonly parentHash: Uint8Array
  readonly extraData: Uint8Array
  readonly nonce: Uint8Array
  readonly parentBeaconBlockRoot?: Uint8Array
}

const ZERO32 = new Uint8Array(32)

export function headerTemplates(plan: readonly PlannedBlock[], base: BlockHeader, rules: ChainRules): HeaderTemplate[] {
  const out: HeaderTemplate[] = []
  let coinbase = base.coinbase.bytes
  let gasLimit = base.gasLimit
  let difficulty = base.difficulty
  for (const block of plan) {
    const o = block.overrides
    const common = rules.at(block.number, block.time)
    if (common.gteHardfork('paris')) difficulty = 0n
    if (o.difficulty !== undefined) difficulty = o.difficulty
    if (o.feeRecipient !== undefined) coinbase = o.feeRecipient
    if (o.gasLimit !== undefined) gasLimit = o.gasLimit
    out.push({
      number: block.number,
      timestamp: block.time,
      coinbase,
      difficulty,
      gasLimit,
      mixHash: o.prevRandao ?? ZERO32,
      baseFeeOverride: o.baseFeePerGas,
      blobBaseFeeOverride: o.blobBaseFee,
      parentBeaconBlockRoot: common.isActivatedEIP(4788) ? (o.beaconRoot ?? ZERO32) : undefined,
      withdrawals: common.isActivatedEIP(4895) ? (o.withdrawals ?? []) : undefined,
    })
  }
  return out
}

/** geth's eip1559.CalcBaseFee: the initial base fee after a pre-London parent. */
function nextBaseFee(parent: BlockHeader, common: Common): bigint {
  if (!parent.common.isActivatedEIP(1559) || parent.baseFeePerGas === undefined) return common.param('initialBaseFee')
  return parent.calcNextBaseFee()
}

/** The OP chain's base fee after `parent` (an OP chain starts on London: the parent has a base fee). */
function opBaseFee(op: OpChainConfig, parent: BlockHeader, timestamp: bigint): bigint {
  const { gasLimit, gasUsed, blobGasUsed, baseFeePerGas, extraData } = parent
  if (baseFeePerGas === undefined) throw new Error('an OP Stack block whose parent has no base fee')
  return opNextBaseFee(op, { timestamp: parent.timestamp, gasLimit, gasUsed, ...(blobGasUsed !== undefined ? { blobGasUsed } : {}), baseFee: baseFeePerGas, extraData }, timestamp)
}

/**
 * The header data of a simulated block whose parent is final (roots and gas used come from building it);
 * `op`: the chain's OP config on an OP Stack chain.
 */
export function headerFields(t: HeaderTemplate, parent: BlockHeader, parentHash: Uint8Array, common: Common, validation: boolean, op?: OpChainConfig): SimHeaderData {
  const london = common.isActivatedEIP(1559)
  const cancun = common.isActivatedEIP(4844)
  const successor = (): bigint => (op !== undefined ? opBaseFee(op, parent, t.timestamp) : nextBaseFee(parent, common))
  const baseFee = london ? (t.baseFeeOverride ?? (validation ? successor() : 0n)) : undefined
  const excessBlobGas = cancun ? (op === undefined && parent.common.isActivatedEIP(4844) ? parent.calcNextExcessBlobGas(common) : 0n) : undefined
  return {
    number: t.number,
    parentHash,
    timestamp: t.timestamp,
    gasLimit: t.gasLimit,
    coinbase: t.coinbase,
    difficulty: t.difficulty,
    mixHash: t.mixHash,
    extraData: op !== undefined ? parent.extraData : new Uint8Array(0),
    nonce: new Uint8Array(8),
    ...(baseFee !== undefined ? { baseFeePerGas: baseFee } : {}),
    ...(excessBlobGas !== undefined ? { excessBlobGas } : {}),
    ...(t.parentBeaconBlockRoot !== undefined ? { parentBeaconBlockRoot: t.parentBeaconBlockRoot } : {}),
  }
}
