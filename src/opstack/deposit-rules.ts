/**
 * The execution rules of a deposit transaction that do not need the EVM, per the deposits spec
 * (specs/protocol/deposits.md, "Execution") and op-geth's state transition:
 * - the mint is credited to `from` before anything else and is kept whatever happens next;
 * - no signature, nonce, fee-cap or balance-for-gas check; the nonce still increments (by the call, or by
 *   the failure rule below); gas is not bought and nothing is refunded, tipped or sent to a vault;
 * - a deposit takes its gas limit from the block's gas pool (ErrGasLimitReached makes the block invalid),
 *   except a system transaction, which takes none (before Regolith it is exempt, from Regolith it is refused
 *   before the pool is asked);
 * - gas used: before Regolith the gas limit (0 for a system transaction) whatever the execution used; from
 *   Regolith what the execution used, refunds and the EIP-7623 floor applied as for any transaction;
 * - a system transaction from Regolith on is refused by the state transition, which makes it a failed deposit;
 * - a failed deposit (one the state transition refuses: intrinsic gas, value it cannot transfer, a system
 *   transaction from Regolith…) keeps its mint, has every other change undone, increments the nonce and
 *   uses its whole gas limit (0 for a pre-Regolith system transaction); its receipt has status 0, no logs;
 * - the receipt records the nonce before execution (depositNonce) from Regolith, and depositReceiptVersion 1
 *   from Canyon.
 * Owns those numbers; the executor (execution/op-deposit.ts) applies them on the EVM.
 */

import { opForkActive, type OpForkName } from './forks.ts'
import { CANYON_DEPOSIT_RECEIPT_VERSION, type DepositReceiptExtras } from './receipt-fields.ts'

/** True when the state transition runs this deposit; false when it fails it outright (a system transaction from Regolith). */
export function depositRunnable(fork: OpForkName, isSystemTx: boolean): boolean {
  return !(isSystemTx && opForkActive(fork, 'regolith'))
}

/** The block gas a deposit needs left to be included (the block is invalid without it). */
export function depositBlockGas(isSystemTx: boolean, gasLimit: bigint): bigint {
  return isSystemTx ? 0n : gasLimit
}

/** A deposit's gas used: `executed` the execution's (after refunds), or undefined when the deposit failed. */
export function depositGasUsed(fork: OpForkName, isSystemTx: boolean, gasLimit: bigint, executed: bigint | undefined): bigint {
  const regolith = opForkActive(fork, 'regolith')
  if (isSystemTx && !regolith) return 0n
  if (executed === undefined || !regolith) return gasLimit
  return executed
}

/** What a deposit's receipt records beyond a common receipt, given `from`'s nonce before execution. */
export function depositReceiptExtras(fork: OpForkName, nonceBefore: bigint): DepositReceiptExtras {
  if (!opForkActive(fork, 'regolith')) return {}
  if (!opForkActive(fork, 'canyon')) return { depositNonce: nonceBefore }
  return { depositNonce: nonceBefore, depositReceiptVersion: CANYON_DEPOSIT_RECEIPT_VERSION }
}
