/**
 * A deposit transaction (0x7e) run on our EVM, by the rules of opstack/deposit-rules.ts (the deposits spec and
 * op-geth's state transition): the hook block-execution.ts calls for each deposit of an OP block.
 *
 * How it maps onto the EVM's one transaction path (evm/transaction.ts), with no deposit-specific code there:
 * the mint is credited first, in a bracket of its own, so that nothing later can undo it; the deposit then
 * runs as a zero-price message of its `from` with every check a deposit does not have skipped (nonce, sender
 * code, fee caps, gas purchase, EIP-7825's cap; the block's gas is checked here, first, as op-geth's gas pool
 * does) and nothing paid for gas (no refund, tip or vault). What the EVM still checks is what op-geth's state
 * transition still checks for a deposit (intrinsic gas, EIP-7623's floor, the value it must be able to
 * transfer, the initcode size): when it refuses, the deposit fails: the mint stays, the nonce increments in a
 * bracket of its own, the whole gas limit is used, status 0 and no logs. A system transaction from Regolith
 * fails so without running. The gas a deposit used, and what its receipt records, come from deposit-rules.ts.
 */

import { bigIntToFixedBytes, bytesToBigInt } from '../primitives/hex.ts'
import type { ReceiptRecord } from '../chain/receipt-codec.ts'
import { receiptRecord, type ReceiptSource } from './receipt-records.ts'
import type { BlockExecution } from './block-execution.ts'
import { depositBlockGas, depositGasUsed, depositReceiptExtras, depositRunnable } from '../opstack/deposit-rules.ts'
import { depositTransactionHash, DEPOSIT_TX_TYPE, type DepositTransaction } from '../opstack/deposit-tx.ts'
import type { OpForkName } from '../opstack/forks.ts'
import type { DepositReceiptExtras } from '../opstack/receipt-fields.ts'
import type { Rules } from '../evm/fork.ts'
import { executeTransaction } from '../evm/transaction.ts'
import { InvalidTransaction, Status, type BlockEnv, type TxInput, type TxOptions, type TxResult } from '../evm/types.ts'
import type { WorldState } from '../evm/world-state.ts'

export interface DepositOutcome {
  /** The run's result with the deposit's gas used (deposit-rules.ts); a failed deposit's is status 0, no logs. */
  readonly result: TxResult
  /** True when the state transition refused the deposit (its mint kept, its nonce incremented). */
  readonly failed: boolean
  /** `from`'s nonce before execution (after the mint): the receipt's depositNonce. */
  readonly nonceBefore: bigint
  readonly receiptExtras: DepositReceiptExtras
}

const EMPTY = new Uint8Array(0)

/** What the EVM may not check for a deposit; the block's gas is checked by runDeposit. */
const DEPOSIT_OPTIONS: TxOptions = {
  skipNonceCheck: true,
  skipSenderCodeCheck: true,
  skipFeeCharge: true,
  skipBaseFeeCheck: true,
  skipTxGasCap: true,
  skipBlockGasLimit: true,
}

/** The message a deposit runs as: a zero-price message of its `from` at `nonce` (what a tracer is told it runs). */
export function depositTxInput(deposit: DepositTransaction, nonce: bigint): TxInput {
  return {
    type: 0,
    from: bytesToBigInt(deposit.from),
    nonce,
    gasLimit: deposit.gas,
    to: deposit.to === null ? undefined : bytesToBigInt(deposit.to),
    value: deposit.value,
    data: deposit.data,
    gasPrice: 0n,
  }
}

/**
 * Runs `deposit` on `world` in a block of OP fork `fork` that has used `blockGasUsed` so far. Throws the EVM's
 * InvalidTransaction (state untouched) only when the block has not the gas left for it: the block is invalid.
 */
export function runDeposit(
  world: WorldState,
  block: BlockEnv,
  rules: Rules,
  fork: OpForkName,
  deposit: DepositTransaction,
  blockGasUsed: bigint,
  extra?: Pick<TxOptions, 'deadline' | 'observer' | 'steps'>,
): DepositOutcome {
  const blockGas = depositBlockGas(deposit.isSystemTx, deposit.gas)
  if (blockGas > block.gasLimit - blockGasUsed) throw new InvalidTransaction('gas limit reached')
  const from = bytesToBigInt(deposit.from)
  if (deposit.mint > 0n) {
    world.beginTransaction()
    world.addBalance(from, deposit.mint)
    world.endTransaction(rules.spuriousDragon)
  }
  const nonceBefore = world.getNonce(from)
  const receiptExtras = depositReceiptExtras(fork, nonceBefore)
  let reason = 'system transactions are not supported from Regolith'
  if (depositRunnable(fork, deposit.isSystemTx)) {
    const input = depositTxInput(deposit, nonceBefore)
    try {
      const result = executeTransaction(world, block, rules, input, extra === undefined ? DEPOSIT_OPTIONS : { ...DEPOSIT_OPTIONS, ...extra })
      const gasUsed = depositGasUsed(fork, deposit.isSystemTx, deposit.gas, result.gasUsed)
      return { result: gasUsed === result.gasUsed ? result : { ...result, gasUsed }, failed: false, nonceBefore, receiptExtras }
    } catch (e) {
      if (!(e instanceof InvalidTransaction)) throw e
      reason = e.reason
    }
  }
  // A failed deposit: everything after the mint is undone (the EVM left no trace); the nonce still moves on.
  world.beginTransaction()
  world.setNonce(from, nonceBefore + 1n)
  world.endTransaction(rules.spuriousDragon)
  const gasUsed = depositGasUsed(fork, deposit.isSystemTx, deposit.gas, undefined)
  const result: TxResult = { status: Status.Halt, gasUsed, gasUsedBeforeRefund: gasUsed, refund: 0n, output: EMPTY, logs: [], haltReason: `failed deposit: ${reason}`, blobGasUsed: 0n }
  return { result, failed: true, nonceBefore, receiptExtras }
}

/** A deposit run into a block and recorded as any of its transactions is. */
export interface RecordedDeposit {
  readonly hash: Uint8Array
  readonly receipt: ReceiptRecord
  /** The receipt's logs bloom, as hashed for the receipts root. */
  readonly logsBloom: Uint8Array
  /** True when the state transition refused it (mint kept, nonce incremented, all gas used, status 0). */
  readonly failed: boolean
}

/**
 * Runs `deposit` (its envelope bytes `envelope`) into `exec` and records it: its hash and receipt record, the
 * block builder's and the block runner's alike. Throws the EVM's InvalidTransaction (state untouched) when the
 * block has not the gas left for it.
 */
export function recordDeposit(exec: BlockExecution, deposit: DepositTransaction, envelope: Uint8Array, baseFee: bigint | undefined, blobGasPrice: bigint | undefined): RecordedDeposit {
  const before = exec.gasUsed
  const outcome = exec.runDeposit(deposit)
  const libraryReceipt = exec.depositReceipt(outcome)
  const hash = depositTransactionHash(envelope)
  const created = outcome.result.createdAddress === undefined ? undefined : bigIntToFixedBytes(outcome.result.createdAddress, 20)
  const source: ReceiptSource = { type: DEPOSIT_TX_TYPE, to: deposit.to === null ? undefined : { bytes: deposit.to }, gasPrice: 0n }
  return { hash, receipt: receiptRecord(source, hash, deposit.from, libraryReceipt, created, before, baseFee, blobGasPrice), logsBloom: libraryReceipt.bitvector, failed: outcome.failed }
}
