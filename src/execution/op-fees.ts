/**
 * The execution hook of the OP Stack's fees (issue 41): what a non-deposit transaction pays beyond L2 gas and
 * where its fees go, as op-geth's state transition does it, on our EVM's two generic hooks
 * (TxOptions.extraUpfrontFee and settleFees). Only an OP chain builds an OpFees; Ethereum blocks never reach
 * this file, and the EVM's cost for them is two undefined checks.
 *
 * - The L1 parameters are read from the L1Block predeploy's storage once per block, at the first non-deposit
 *   transaction (after the block's deposits ran, where op-geth's cost functions first read them), and once
 *   per call for calls.
 * - A transaction in a block (and eth_simulateV1 with validation) is charged its L1 data fee and its operator
 *   fee for the gas limit with the gas purchase, and both count in the balance check (op-geth's buyGas). After
 *   it ran: gas used × base fee to the base fee vault, the L1 fee to the L1 fee vault, and from Isthmus the
 *   operator fee for the gas used to its vault with the rest of the upfront operator fee back to the sender.
 * - A call (eth_call, eth_estimateGas, eth_createAccessList, a simulation without validation) is op-geth's
 *   message with its nonce and transaction checks skipped: nothing is charged upfront, and its cost data are
 *   empty, so no L1 fee anywhere (the L1 fee is never part of gas). op-geth still settles the rest when the
 *   call names a fee: the base fee vault is credited, and from Isthmus the operator fee for the gas used goes
 *   to its vault and the difference to the gas limit's operator fee to the sender, though neither was
 *   charged. That is followed here as op-geth does it. A call that names no fee settles nothing (op-geth's
 *   NoBaseFee path): the caller passes no hook then.
 * - A transaction's bytes are counted (zeroes, FastLZ length) once: its DA footprint and its L1 data fee read
 *   the same count (the last transaction's is kept).
 */

import { daFootprintGasScalarFromStorage, daFootprintOf } from '../opstack/da-footprint.ts'
import { feeSettlement, BASE_FEE_VAULT, L1_FEE_VAULT, OPERATOR_FEE_VAULT } from '../opstack/fee-vaults.ts'
import { DEPOSIT_TX_TYPE } from '../opstack/deposit-tx.ts'
import { opForkActive, type OpForkName } from '../opstack/forks.ts'
import { L1_BLOCK_ADDRESS, l1FeeParamsFromStorage, operatorFeeParamsFromStorage } from '../opstack/l1-block-storage.ts'
import { l1DataFee, operatorFeeOf, rollupCostData, type L1FeeParams, type OperatorFeeParams, type RollupCostData } from '../opstack/l1-cost.ts'
import type { TxOptions } from '../evm/types.ts'
import type { WorldState } from '../evm/world-state.ts'

export type OpFeeHooks = Pick<TxOptions, 'extraUpfrontFee' | 'settleFees'>

/** What a transaction in a block paid beyond L2 gas (its receipt's L1 fields derive from the same rules). */
export interface ChargedRollupCosts {
  readonly l1Fee: bigint
  readonly l1GasUsed: bigint
  /** The operator fee kept for the gas used (0n before Isthmus and without operator fee parameters). */
  readonly operatorFee: bigint
}

/** The OP fees of one block (or one call's block environment) on its WorldState. */
export class OpFees {
  private l1Params: L1FeeParams | undefined
  private operatorParams: OperatorFeeParams | undefined | null = null
  private daScalar: bigint | undefined
  /** The last transaction's bytes and their count: the DA footprint and the L1 fee of one transaction share it. */
  private counted: { readonly bytes: Uint8Array; readonly data: RollupCostData } | undefined

  constructor(
    readonly fork: OpForkName,
    private readonly world: WorldState,
    private readonly baseFee: bigint,
  ) {}

  /** The L1 data fee parameters, read from the L1Block predeploy on first use and kept. */
  l1FeeParams(): L1FeeParams {
    if (this.l1Params === undefined) this.l1Params = l1FeeParamsFromStorage(this.fork, this.slotReader)
    return this.l1Params
  }

  private readonly slotReader = (slot: bigint): bigint => this.world.getStorage(L1_BLOCK_ADDRESS, slot)

  /** The operator fee for `gas`: 0n before Isthmus or while the predeploy holds no operator fee parameters. */
  operatorFee(gas: bigint): bigint {
    if (this.operatorParams === null) this.operatorParams = operatorFeeParamsFromStorage(this.fork, this.slotReader)
    return operatorFeeOf(this.fork, this.operatorParams, gas)
  }

  /**
   * Jovian: the DA footprint of a transaction with these canonical bytes, under the scalar L1Block holds (read
   * at the first use, after the block's deposits, and kept for the block).
   */
  daFootprint(transactionBytes: Uint8Array): bigint {
    if (this.daScalar === undefined) this.daScalar = daFootprintGasScalarFromStorage(this.slotReader)
    return daFootprintOf(this.costData(transactionBytes), this.daScalar)
  }

  private costData(transactionBytes: Uint8Array): RollupCostData {
    const counted = this.counted
    if (counted !== undefined && counted.bytes === transactionBytes) return counted.data
    const data = rollupCostData(transactionBytes)
    this.counted = { bytes: transactionBytes, data }
    return data
  }

  /**
   * The hooks of a signed transaction with these canonical bytes in a block; `charged` receives what it paid
   * once it ran (never called when it could not be included).
   */
  forTransaction(sender: bigint, gasLimit: bigint, transactionBytes: Uint8Array, charged: (costs: ChargedRollupCosts) => void): OpFeeHooks {
    if (transactionBytes.length === 0 || transactionBytes[0] === DEPOSIT_TX_TYPE) throw new Error('a deposit pays no L1 fee: it runs through op-deposit.ts')
    const { fee, gasUsed: l1GasUsed } = l1DataFee(this.fork, this.l1FeeParams(), this.costData(transactionBytes))
    const forLimit = this.operatorFee(gasLimit)
    return {
      extraUpfrontFee: fee + forLimit,
      settleFees: (gasUsed) => charged({ l1Fee: fee, l1GasUsed, operatorFee: this.settle(sender, gasUsed, fee, forLimit) }),
    }
  }

  /**
   * The hooks of a call (op-geth's message with its checks skipped, or a simulation's): `chargeOperatorFee`
   * when op-geth buys the operator fee upfront (a simulation with validation); never an L1 fee.
   */
  forCall(sender: bigint, gasLimit: bigint, chargeOperatorFee: boolean): OpFeeHooks {
    const forLimit = this.operatorFee(gasLimit)
    return {
      ...(chargeOperatorFee && forLimit > 0n ? { extraUpfrontFee: forLimit } : {}),
      settleFees: (gasUsed) => void this.settle(sender, gasUsed, undefined, forLimit),
    }
  }

  /** Credits the vaults and refunds the unused operator fee; answers the operator fee owed for `gasUsed`. */
  private settle(sender: bigint, gasUsed: bigint, l1Fee: bigint | undefined, operatorFeeForLimit: bigint): bigint {
    const isthmus = opForkActive(this.fork, 'isthmus')
    const forUsed = isthmus ? this.operatorFee(gasUsed) : 0n
    const s = feeSettlement(gasUsed, this.baseFee, l1Fee ?? 0n, isthmus ? operatorFeeForLimit : 0n, forUsed)
    const world = this.world
    world.addBalance(BASE_FEE_VAULT, s.baseFeeVault)
    if (l1Fee !== undefined) world.addBalance(L1_FEE_VAULT, s.l1FeeVault)
    if (isthmus) {
      world.addBalance(sender, s.senderRefund)
      world.addBalance(OPERATOR_FEE_VAULT, s.operatorFeeVault)
    }
    return forUsed
  }
}
