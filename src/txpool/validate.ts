/**
 * Admission checks, in geth's order (internal/ethapi SubmitTransaction, then txpool.ValidateTransaction, then
 * ValidateTransactionWithState), each failing with geth's text (messages.ts):
 *
 *   checkSubmission  (rpc layer)  tx fee cap · replay protection
 *   checkStateless   (no state)   OP Stack: no blob type · size · fork / type · init code · EIP-7825 cap · block gas limit ·
 *                                 tip ≤ fee cap · chain id · nonce max · 7702 authorizations · blob sidecar shape
 *   checkSigned      (after the sender is known) intrinsic gas · EIP-7623 floor · minimum tip · blob fee ·
 *                                 (optionally) fee cap ≥ base fee
 *   checkState       (pending state) nonce · balance · balance with the sender's pending spend
 *
 * Where the library would refuse to build a transaction, the check runs before it is built (chain id, nonce
 * max, empty authorization list, blob sidecar shape): geth runs those few after sender recovery; only a
 * transaction failing two checks at once can tell the difference.
 * Pure functions: no pool state, no clock, nothing cached. Never mutate what they are given.
 */

import type { Common } from '@ethereumjs/common'
import type { PooledTx, TxFields } from './decode.ts'
import type { PreparedTx } from './prepared.ts'
import { rejections } from './messages.ts'

/** The pending block the transaction is admitted against. */
export interface PendingEnv {
  /** The Common of the pending block's fork (ChainRules.at(number, timestamp)). */
  readonly common: Common
  readonly baseFee: bigint
  readonly blockGasLimit: bigint
  /** For blob transactions; when absent, blob fees are not checked against the market. */
  readonly blobBaseFee?: bigint
  /**
   * The chain is an OP Stack chain (ChainRules.op): blob transactions are refused, as op-geth's
   * txpool.ValidateTransaction does when its config IsOptimism (the OP specs' exec-engine.md, "Ecotone:
   * disable Blob-transactions": none through the RPC or otherwise into the pool).
   */
  readonly opStack?: boolean
  /**
   * The transaction already decoded and signature-checked from these exact bytes elsewhere (an admission
   * worker running the same decoder, prepared.ts); used when prepared for this fork. Absent: done here.
   */
  readonly prepared?: PreparedTx
}

export interface AdmissionRules {
  /** geth txMaxSize: 128 KiB for non-blob transactions. */
  readonly maxTxSize: number
  /** geth blobpool txMaxSize: 1 MiB, sidecar included. */
  readonly maxBlobTxSize: number
  readonly maxBlobsPerTx: number
  /** geth --rpc.txfeecap in ether; 0 disables. */
  readonly txFeeCapEther: number
  /** geth --rpc.allow-unprotected-txs. */
  readonly allowUnprotected: boolean
  /** geth --txpool.pricelimit (wei): the least tip accepted. */
  readonly minTip: bigint
  /** geth pools a transaction whose fee cap is below the base fee (it waits for the fee to fall); true refuses it. */
  readonly rejectFeeCapBelowBaseFee: boolean
}

const ETHER = 10n ** 18n
/** EIP-4844 minimum blob base fee (geth params.BlobTxMinBlobGasprice). */
const MIN_BLOB_FEE = 1n
/** Cell proofs per blob (EIP-7594). */
const CELL_PROOFS_PER_BLOB = 128

const TYPE_EIP: Record<number, { eip: number; fork: string }> = {
  1: { eip: 2930, fork: 'Berlin' },
  2: { eip: 1559, fork: 'London' },
  3: { eip: 4844, fork: 'Cancun' },
  4: { eip: 7702, fork: 'Prague' },
}

/** The rpc layer's checks (geth's SubmitTransaction), before the pool sees the transaction. */
export function checkSubmission(f: TxFields, rules: AdmissionRules): void {
  if (rules.txFeeCapEther > 0) {
    const fee = f.feeCap * f.gasLimit
    // geth converts to a float64 number of ether; so do we (this is only a sanity cap).
    const feeEther = Number(fee / ETHER) + Number(fee % ETHER) / 1e18
    if (feeEther > rules.txFeeCapEther) throw rejections.feeCapExceeded(feeEther, rules.txFeeCapEther)
  }
  if (!rules.allowUnprotected && f.type === 0 && f.chainId === undefined) throw rejections.unprotected()
}

/** Everything that needs neither the signature nor state. */
export function checkStateless(f: TxFields, env: PendingEnv, rules: AdmissionRules): void {
  // op-geth refuses it before any other check of its ValidateTransaction (only deposits, refused at decoding, come first).
  if (env.opStack === true && f.type === 3) throw rejections.typeNotSupported()
  const common = env.common
  const limit = f.type === 3 ? rules.maxBlobTxSize : rules.maxTxSize
  if (f.size > limit) throw rejections.oversized(f.size, limit)
  const needs = TYPE_EIP[f.type]
  if (needs !== undefined && !common.isActivatedEIP(needs.eip)) throw rejections.typeNotActive(f.type, needs.fork)
  if (f.isCreate && common.isActivatedEIP(3860)) {
    const max = common.param('maxInitCodeSize')
    if (BigInt(f.dataLength) > max) throw rejections.initCodeTooLarge(f.dataLength, max)
  }
  if (common.isActivatedEIP(7825) && !common.isActivatedEIP(8037)) {
    const cap = common.param('maxTransactionGasLimit')
    if (f.gasLimit > cap) throw rejections.gasLimitTooHigh(cap, f.gasLimit)
  }
  if (env.blockGasLimit < f.gasLimit) throw rejections.blockGasLimit()
  if (f.feeCap < f.tipCap) throw rejections.tipAboveFeeCap()
  const want = common.chainId()
  if (f.chainId !== undefined && f.chainId !== want) throw rejections.invalidChainId(f.chainId, want)
  if (f.nonce === (1n << 64n) - 1n) throw rejections.nonceMax()
  if (f.type === 4 && f.authorizationCount === 0) throw rejections.emptyAuthList()
  if (f.type === 3) checkSidecarShape(f, common, rules)
}

/** geth's validateBlobSidecar, minus the proof verification (the library does it while building the tx). */
function checkSidecarShape(f: TxFields, common: Common, rules: AdmissionRules): void {
  const sidecar = f.sidecar
  if (sidecar === undefined) throw rejections.missingSidecar()
  if (sidecar.commitments !== f.blobCount) throw rejections.blobHashCount(sidecar.commitments, f.blobCount)
  if (f.blobCount > rules.maxBlobsPerTx) throw rejections.blobLimit(f.blobCount, rules.maxBlobsPerTx)
  const cellProofs = common.isActivatedEIP(7594)
  // Under EIP-7594 geth converts a version-0 sidecar it receives over RPC; the library verifies either form.
  if (!cellProofs && sidecar.version !== 0) throw rejections.sidecarVersion(0, sidecar.version)
  if (sidecar.version === 1 && sidecar.proofs !== sidecar.commitments * CELL_PROOFS_PER_BLOB) {
    throw rejections.kzg(
      `invalid number of ${sidecar.proofs} blob proofs expected ${sidecar.commitments * CELL_PROOFS_PER_BLOB}`,
    )
  }
}

/** Checks that need the recovered sender (and the gas figures decoding computed with the library). */
export function checkSigned(p: PooledTx, env: PendingEnv, rules: AdmissionRules): void {
  if (p.gasLimit < p.intrinsicGas) throw rejections.intrinsicGas(p.gasLimit, p.intrinsicGas)
  if (env.common.isActivatedEIP(7623) && p.gasLimit < p.floorDataGas) throw rejections.floorDataGas(p.gasLimit, p.floorDataGas)
  if (p.tipCap < rules.minTip) throw rejections.tipBelowMinimum(p.tipCap, rules.minTip)
  if (p.blobFeeCap !== undefined && p.blobFeeCap < MIN_BLOB_FEE) throw rejections.blobFeeBelowMinimum(p.blobFeeCap, MIN_BLOB_FEE)
  if (rules.rejectFeeCapBelowBaseFee && p.feeCap < env.baseFee) {
    throw rejections.feeCapBelowBaseFee(p.senderHex, p.feeCap, env.baseFee)
  }
}

/** The sender's account in the pending state. */
export interface AccountView {
  readonly nonce: bigint
  readonly balance: bigint
}

/** What the sender already has in the pool's executable set (geth's ExistingExpenditure / ExistingCost). */
export interface SenderSpend {
  /** Total cost of the sender's executable (pending) transactions. */
  readonly spent: bigint
  /** Cost of the executable transaction this one would replace, if any. */
  readonly replacing: bigint | undefined
}

export function checkState(p: PooledTx, account: AccountView, spend: SenderSpend): void {
  if (account.nonce > p.nonce) throw rejections.nonceTooLow(account.nonce, p.nonce)
  const balance = account.balance
  if (balance < p.cost) throw rejections.insufficientFunds(balance, p.cost)
  if (spend.replacing !== undefined) {
    const bump = p.cost - spend.replacing
    if (balance < spend.spent + bump) throw rejections.insufficientFundsBumped(balance, spend.spent, bump)
  } else if (balance < spend.spent + p.cost) {
    throw rejections.insufficientFundsQueued(balance, spend.spent, p.cost)
  }
}

/**
 * geth's list.Add rule: the new transaction must raise the fee cap and the tip (and, for blob transactions,
 * the blob fee cap) strictly, and each by at least `bumpPercent` percent (integer arithmetic, as geth).
 */
export function isPricedReplacement(old: TxFields, next: TxFields, bumpPercent: number): boolean {
  const a = BigInt(100 + bumpPercent)
  if (next.feeCap <= old.feeCap || next.tipCap <= old.tipCap) return false
  if (next.feeCap < (old.feeCap * a) / 100n || next.tipCap < (old.tipCap * a) / 100n) return false
  if (old.blobFeeCap !== undefined) {
    const nb = next.blobFeeCap ?? 0n
    if (nb <= old.blobFeeCap || nb < (old.blobFeeCap * a) / 100n) return false
  }
  return true
}
