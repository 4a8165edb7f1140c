/**
 * The sequencer's fast path for plain value transfers: the state changes, gas and receipt that the library's
 * `runTx` would produce for a transaction that runs no code, computed without the EVM (~0.3 ms → a few µs).
 *
 * It is an exact replica, not an approximation. `runTx` for a call to an account without code does this, and
 * this module does the same in the same order, through the same state view:
 *   sender: balance -= gasLimit·gasPrice; nonce += 1; balance -= value;   recipient: balance += value;
 *   sender: balance += (gasLimit − gasUsed)·gasPrice;   coinbase: balance += gasUsed·tip (all of it pre-1559);
 *   then EIP-161: each of sender, recipient, coinbase (in that order) that is now empty is deleted;
 *   gasUsed = intrinsic gas, raised to the EIP-7623 calldata floor; status 1, no logs, empty bloom.
 *
 * It takes a transaction only when every one of these holds, and otherwise answers `undefined` (the caller
 * runs `runTx`, which also words every rejection: a transaction that would be refused never comes here):
 * - the fork: EIP-2718/2930/1559 on; none of the rules that change a plain transfer (EIP-7864 and 6800
 *   witnesses, 2780 and 8037 state gas, 7708 transfer logs, 7928 access lists, 7778 gas accounting); not
 *   proof-of-authority (the fee goes to the clique signer there);
 * - the transaction: type 0, 1 or 2 (no blobs, no 7702 authorizations), with a recipient, value ≥ 0, gas
 *   limit within the block's and ≥ max(intrinsic, calldata floor), fee cap ≥ base fee;
 * - the recipient is not an active precompile and has no code (so no 7702 delegation either), and its
 *   balance cannot overflow;
 * - the sender has no code (a 7702-delegated sender goes the slow way), its nonce matches, and it can pay
 *   gasLimit·gasPrice + value and, for 1559 types, gasLimit·maxFee + value;
 * - the EVM journal has no touched accounts left over (runTx would clean those up first).
 * Nothing is written until all checks pass. Access lists only warm addresses and their cost is in the
 * intrinsic gas, so they do not matter when no code runs. The library's `beforeTx`/`afterTx` events are
 * not emitted (nothing here listens to them).
 *
 * It reads the transaction through `TransferTx`, the few values a transfer needs: from the library object
 * (`transferOf`), or computed at admission without building one (the pool's prepared transactions, whose
 * intrinsic gas and calldata floor the library computed for the fork they name; used only on that fork).
 * The fee arithmetic is the library's getUpfrontCost/getEffectivePriorityFee, on those values.
 *
 * The differential test (transfer-fast-path.test.ts) runs random and edge-case transfers both ways and
 * requires identical receipts, gas, rejections, state diffs and block hashes. Pinned to @ethereumjs/vm 10.1.3:
 * re-check this list against runTx when the library changes.
 */

import { ConsensusType, type Common } from '@ethereumjs/common'
import { getCalldataFloorGas, type TypedTransaction } from '@ethereumjs/tx'
import { Account, Address, KECCAK256_NULL, MAX_INTEGER } from '@ethereumjs/util'
import { Bloom, type RunTxResult } from '@ethereumjs/vm'
import type { EVM } from '@ethereumjs/evm'
import type { JournaledState } from '../state/journaled-state.ts'

/** EIPs under which a transfer does more than move value and fees. */
const CHANGES_TRANSFERS = [7864, 6800, 2780, 8037, 7708, 7928, 7778] as const

/** A transfer's bloom: no logs. Shared and never written (the block's bloom ORs it into its own). */
const EMPTY_BLOOM = new Bloom()

/** The block a transfer runs in. */
export interface TransferBlock {
  readonly gasLimit: bigint
  readonly baseFee: bigint
  readonly coinbase: Address
  /** `coinbase.toString()`. */
  readonly coinbaseKey: string
}

/** What the fast path reads of a transaction. */
export interface TransferTx {
  /** The hardfork whose rules computed `intrinsicGas` and `floorDataGas`. */
  readonly fork: string
  readonly type: number
  readonly to: Address | undefined
  readonly nonce: bigint
  readonly value: bigint
  readonly gasLimit: bigint
  /** maxFeePerGas, or gasPrice. */
  readonly feeCap: bigint
  /** maxPriorityFeePerGas, or gasPrice. */
  readonly tipCap: bigint
  readonly intrinsicGas: bigint
  /** The EIP-7623 calldata floor (getCalldataFloorGas; 0 where the fork has none). */
  readonly floorDataGas: bigint
}

/** The TransferTx of a library transaction sent by `caller`; undefined when it cannot be a plain transfer. */
export function transferOf(tx: TypedTransaction, caller: Address): TransferTx | undefined {
  if (tx.to === undefined || tx.type > 2) return undefined
  const t = tx as TypedTransaction & { gasPrice?: bigint; maxFeePerGas?: bigint; maxPriorityFeePerGas?: bigint }
  return {
    fork: tx.common.hardfork(),
    type: tx.type,
    to: tx.to,
    nonce: tx.nonce,
    value: tx.value,
    gasLimit: tx.gasLimit,
    feeCap: t.maxFeePerGas ?? t.gasPrice!,
    tipCap: t.maxPriorityFeePerGas ?? t.gasPrice!,
    intrinsicGas: tx.getIntrinsicGas(),
    floorDataGas: getCalldataFloorGas(tx, caller),
  }
}

/** Whether the fast path may run at all under these rules (checked once per block). */
export function transfersEligible(common: Common): boolean {
  if (!common.isActivatedEIP(2718) || !common.isActivatedEIP(2930) || !common.isActivatedEIP(1559)) return false
  if (common.consensusType() === ConsensusType.ProofOfAuthority) return false
  return CHANGES_TRANSFERS.every((eip) => !common.isActivatedEIP(eip))
}

function isNullHash(hash: Uint8Array): boolean {
  for (let i = 0; i < 32; i++) if (hash[i] !== KECCAK256_NULL[i]) return false
  return true
}

interface JournalView {
  touched: Set<string>
}

/**
 * Runs `tx` as a plain transfer when it is one (see the list above); `undefined` when it is not, with the
 * state untouched. `blockGasUsed` is the block's gas before this transaction.
 */
export function runPlainTransfer(
  evm: EVM,
  state: JournaledState,
  common: Common,
  block: TransferBlock,
  tx: TransferTx,
  caller: Address,
  blockGasUsed: bigint,
): RunTxResult | undefined {
  const to = tx.to
  if (to === undefined || tx.type > 2 || tx.value < 0n || tx.fork !== common.hardfork()) return undefined
  // (A private field of the library's journal: if a new version renames it, the fast path turns itself off.)
  const touched = (evm.journal as unknown as Partial<JournalView>).touched
  if (!(touched instanceof Set) || touched.size !== 0) return undefined
  if (tx.gasLimit > block.gasLimit) return undefined
  if (evm.getPrecompile(to) !== undefined) return undefined
  // A recipient with code (a contract, a 7702 delegation) is the common reason to leave: checked first.
  const toKey = to.toString()
  const firstRecipient = state.accountCopy(toKey, to.bytes)
  if (firstRecipient !== undefined && !isNullHash(firstRecipient.codeHash)) return undefined
  const intrinsicGas = tx.intrinsicGas
  const floorCost = tx.floorDataGas
  if (tx.gasLimit < intrinsicGas || tx.gasLimit < floorCost) return undefined

  const is1559 = tx.type === 2
  const feeCap = tx.feeCap
  if (feeCap < block.baseFee) return undefined

  const callerKey = caller.toString()
  const from = state.accountCopy(callerKey, caller.bytes)
  const sender = from ?? new Account()
  if (!isNullHash(sender.codeHash) || sender.nonce !== tx.nonce) return undefined
  // The library's getEffectivePriorityFee (fee cap ≥ base fee here) and getUpfrontCost.
  const inclusionFeePerGas = is1559 ? (tx.tipCap < feeCap - block.baseFee ? tx.tipCap : feeCap - block.baseFee) : feeCap - block.baseFee
  const gasPrice = is1559 ? inclusionFeePerGas + block.baseFee : feeCap
  const upFrontCost = tx.gasLimit * gasPrice + tx.value
  const maxCost = is1559 ? tx.value + tx.gasLimit * feeCap : tx.value
  if (sender.balance < upFrontCost || sender.balance < maxCost) return undefined

  const txCost = tx.gasLimit * gasPrice
  if (sender.balance - txCost - tx.value < 0n) return undefined

  const toIsSender = toKey === callerKey
  const recipient = toIsSender ? from : firstRecipient
  if (!toIsSender && (recipient?.balance ?? 0n) + tx.value > MAX_INTEGER) return undefined

  // Checks passed. runTx reads, changes and writes back these accounts one step at a time; every step adds
  // to the account's current value, so one working copy per address (shared when addresses coincide) ends
  // with the same values. They are written once each, in runTx's first-write order (sender, recipient,
  // coinbase), which is also its EIP-161 clean-up order: an account left empty is deleted instead.
  sender.balance -= txCost
  sender.nonce += 1n
  sender.balance -= tx.value
  const payee = toIsSender ? sender : (recipient ?? new Account())
  payee.balance += tx.value

  let gasUsed = intrinsicGas
  if (common.isActivatedEIP(7623) && gasUsed < floorCost) gasUsed = floorCost
  const amountSpent = gasUsed * gasPrice
  sender.balance += txCost - amountSpent
  const minerValue = gasUsed * inclusionFeePerGas
  const coinbaseKey = block.coinbaseKey
  const miner = coinbaseKey === callerKey ? sender : coinbaseKey === toKey ? payee : (state.accountCopy(coinbaseKey, block.coinbase.bytes) ?? new Account())
  miner.balance += minerValue

  state.writeAccount(callerKey, sender)
  if (!toIsSender) state.writeAccount(toKey, payee.isEmpty() ? null : payee)
  if (coinbaseKey !== callerKey && coinbaseKey !== toKey) state.writeAccount(coinbaseKey, miner.isEmpty() ? null : miner)

  return {
    execResult: { executionGasUsed: 0n, returnValue: new Uint8Array(0), gasRefund: 0n },
    bloom: EMPTY_BLOOM,
    amountSpent,
    receipt: { status: 1, cumulativeBlockGasUsed: blockGasUsed + gasUsed, bitvector: EMPTY_BLOOM.bitvector, logs: [] },
    totalGasSpent: gasUsed,
    blockGasSpent: gasUsed,
    gasRefund: 0n,
    minerValue,
  }
}
