/**
 * Where an OP Stack chain's fees go, and what a non-deposit transaction owes each, as op-geth's state
 * transition settles them (core/state_transition.go, innerExecute and refundIsthmusOperatorCost):
 * - the tip (gas used × (effective price − base fee)) to the block's coinbase, as on Ethereum: on an OP chain
 *   the sequencer sets the coinbase to the SequencerFeeVault, so the vault is the block's choice, not a rule;
 * - gas used × base fee to the BaseFeeVault instead of being burnt;
 * - the L1 data fee to the L1FeeVault;
 * - from Isthmus, the operator fee for the gas used to the OperatorFeeVault; the sender paid it upfront for the
 *   gas limit and gets the difference back.
 *
 * Owns: the settlement amounts (the vaults' addresses are predeploy-addresses.ts's). It never touches state: the
 * executor applies them.
 */

import { BASE_FEE_VAULT_ADDRESS, L1_FEE_VAULT_ADDRESS, OPERATOR_FEE_VAULT_ADDRESS, SEQUENCER_FEE_VAULT_ADDRESS } from './predeploy-addresses.ts'

export const SEQUENCER_FEE_VAULT = BigInt(SEQUENCER_FEE_VAULT_ADDRESS)
export const BASE_FEE_VAULT = BigInt(BASE_FEE_VAULT_ADDRESS)
export const L1_FEE_VAULT = BigInt(L1_FEE_VAULT_ADDRESS)
export const OPERATOR_FEE_VAULT = BigInt(OPERATOR_FEE_VAULT_ADDRESS)

/** The balance moves after a non-deposit transaction ran, beyond the sender's gas refund and the tip. */
export interface FeeSettlement {
  readonly baseFeeVault: bigint
  readonly l1FeeVault: bigint
  readonly operatorFeeVault: bigint
  /** Operator fee paid upfront for the gas limit but not owed for the gas used: back to the sender. */
  readonly senderRefund: bigint
}

/**
 * The settlement of a transaction that used `gasUsed` in a block with `baseFee`, charged `l1Fee` (0n when none)
 * and, from Isthmus, `operatorFeeForLimit` upfront where `operatorFeeForUsed` is owed.
 */
export function feeSettlement(gasUsed: bigint, baseFee: bigint, l1Fee: bigint, operatorFeeForLimit: bigint, operatorFeeForUsed: bigint): FeeSettlement {
  if (operatorFeeForUsed > operatorFeeForLimit) throw new Error('operator fee for the gas used exceeds the fee for the gas limit')
  return {
    baseFeeVault: gasUsed * baseFee,
    l1FeeVault: l1Fee,
    operatorFeeVault: operatorFeeForUsed,
    senderRefund: operatorFeeForLimit - operatorFeeForUsed,
  }
}
