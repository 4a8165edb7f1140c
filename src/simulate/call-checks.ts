/**
 * Whether a resolved call can be included in its simulated block: geth's state-transition pre-checks, in
 * geth's order, each failure with its simulate code (the first failing check decides the code):
 *
 *   nonce (validation only: -38010 / -38011; a nonce at its maximum is -32603)
 *   -> fee caps against the base fee (tip above cap -32602, cap below base fee -38012), skipped without
 *      validation for a call that gives no fee
 *   -> blob shape (-32602) and blob fee cap (-38012; skipped without validation when it is 0)
 *   -> set-code shape (-32602) -> init code size (-38025)
 *   -> funds for gas * fee cap + value + blob gas (-38014)
 *   -> intrinsic gas (-38013) -> EIP-7623 floor (-38013) -> funds for the value after buying gas (-38014).
 *
 * Where we differ from geth: geth has no simulate code for a malformed blob or set-code call (a blob call
 * without `to`, no or too many blob hashes, a bad hash version, a set-code call without `to` or with an
 * empty list), for a blob fee cap below the blob base fee, or for gas under the EIP-7623 floor, and answers
 * them -32603 (internal error). They are the caller's mistakes, not the node's: the shape errors answer
 * -32602 (invalid params, geth's simulate code for a fee cap below the tip), the blob fee cap -38012 (the
 * fee-cap-too-low code) and the floor -38013 (the intrinsic-gas code), each with geth's message.
 *
 * The sender may be a contract (geth skips that check for simulation, validation or not). Pure: the
 * caller passes the sender's nonce and balance and the transaction's intrinsic gas.
 */

import type { Common } from '@ethereumjs/common'
import { toChecksumAddress } from '@ethereumjs/util'
import { bytesToHex } from '../primitives/hex.ts'
import { floorDataGas } from '../evm/transaction.ts'
import type { FlashnodeError } from '../errors/errors.ts'
import type { ResolvedCall } from './call-args.ts'
import { SIM_CODES, txError, type SimCode } from './errors.ts'

const MAX_UINT64 = (1n << 64n) - 1n
const BLOB_HASH_VERSION = 0x01

export interface CheckContext {
  readonly common: Common
  readonly validation: boolean
  /** The block's base fee (undefined before London). */
  readonly baseFee: bigint | undefined
  /** The block's blob base fee (undefined before Cancun). */
  readonly blobBaseFee: bigint | undefined
  readonly senderNonce: bigint
  readonly senderBalance: bigint
}

/** True when the call runs without paying the base fee: no validation and no fee given (geth's NoBaseFee). */
export const paysNoBaseFee = (c: ResolvedCall, validation: boolean): boolean =>
  !validation && c.msgFeeCap === 0n && c.msgTipCap === 0n

/** True when the call runs without paying the blob base fee: no validation and a zero blob fee cap. */
export const paysNoBlobFee = (c: ResolvedCall, validation: boolean): boolean => !validation && (c.maxFeePerBlobGas ?? 0n) === 0n

export function blobGasOf(c: ResolvedCall, common: Common): bigint {
  const blobs = c.blobVersionedHashes?.length ?? 0
  return blobs === 0 || !common.isActivatedEIP(4844) ? 0n : BigInt(blobs) * common.param('blobGasPerBlob')
}

/** An address as geth prints it (checksummed), computed only when a message needs it. */
function shownAddress(address: Uint8Array): { toString(): string } {
  return { toString: () => toChecksumAddress(bytesToHex(address)) }
}

/** Checks that need no transaction object (everything before buying gas, funds included). */
export function checkBeforeExecution(c: ResolvedCall, ctx: CheckContext): void {
  const fail = (code: SimCode, reason: string): FlashnodeError => txError(code, reason, c.gas)
  const from = shownAddress(c.from)
  if (ctx.validation) {
    if (ctx.senderNonce < c.nonce) throw fail(SIM_CODES.nonceTooHigh, `nonce too high: address ${from}, tx: ${c.nonce} state: ${ctx.senderNonce}`)
    if (ctx.senderNonce > c.nonce) throw fail(SIM_CODES.nonceTooLow, `nonce too low: address ${from}, tx: ${c.nonce} state: ${ctx.senderNonce}`)
    if (ctx.senderNonce === MAX_UINT64) throw fail(SIM_CODES.internal, `nonce has max value: address ${from}, nonce: ${ctx.senderNonce}`)
  }
  if (ctx.baseFee !== undefined && !paysNoBaseFee(c, ctx.validation)) {
    if (c.msgFeeCap < c.msgTipCap) {
      throw fail(SIM_CODES.invalidParams, `max priority fee per gas higher than max fee per gas: address ${from}, maxPriorityFeePerGas: ${c.msgTipCap}, maxFeePerGas: ${c.msgFeeCap}`)
    }
    if (c.msgFeeCap < ctx.baseFee) {
      throw fail(SIM_CODES.baseFeeTooLow, `max fee per gas less than block base fee: address ${from}, maxFeePerGas: ${c.msgFeeCap}, baseFee: ${ctx.baseFee}`)
    }
  }
  const hashes = c.blobVersionedHashes
  if (hashes !== undefined) {
    if (c.to === undefined) throw fail(SIM_CODES.invalidParams, 'blob transaction of type create')
    if (hashes.length === 0) throw fail(SIM_CODES.invalidParams, 'blob transaction missing blob hashes')
    const max = ctx.common.isActivatedEIP(7594) ? Number(ctx.common.param('maxBlobsPerTx')) : Number.MAX_SAFE_INTEGER
    if (hashes.length > max) throw fail(SIM_CODES.invalidParams, 'transaction has too many blobs')
    hashes.forEach((h, i) => {
      if (h[0] !== BLOB_HASH_VERSION) throw fail(SIM_CODES.invalidParams, `blob ${i} has invalid hash version`)
    })
  }
  const blobGas = blobGasOf(c, ctx.common)
  if (blobGas > 0n && ctx.blobBaseFee !== undefined && !paysNoBlobFee(c, ctx.validation)) {
    if ((c.maxFeePerBlobGas ?? 0n) < ctx.blobBaseFee) {
      throw fail(SIM_CODES.baseFeeTooLow, `max fee per blob gas less than block blob gas fee: address ${from} blobGasFeeCap: ${c.maxFeePerBlobGas ?? 0n}, blobBaseFee: ${ctx.blobBaseFee}`)
    }
  }
  if (c.authorizationList !== undefined) {
    if (c.to === undefined) throw fail(SIM_CODES.invalidParams, `set code transaction must not be a create transaction (sender ${from})`)
    if (c.authorizationList.length === 0) throw fail(SIM_CODES.invalidParams, `EIP-7702 transaction with empty auth list (sender ${from})`)
  }
  if (c.to === undefined && ctx.common.isActivatedEIP(3860)) {
    const limit = ctx.common.param('maxInitCodeSize')
    if (BigInt(c.data.length) > limit) {
      throw fail(SIM_CODES.maxInitCodeSizeExceeded, `max initcode size exceeded: code size ${c.data.length} limit ${limit}`)
    }
  }
  const want = c.gas * c.msgFeeCap + c.value + blobGas * (c.maxFeePerBlobGas ?? 0n)
  if (ctx.senderBalance < want) {
    throw fail(SIM_CODES.insufficientFunds, `insufficient funds for gas * price + value: address ${from} have ${ctx.senderBalance} want ${want}`)
  }
}

/** Checks that need the transaction's intrinsic gas, after gas was bought. */
export function checkGas(c: ResolvedCall, ctx: CheckContext, intrinsicGas: bigint, blobFeePaid: bigint): void {
  const fail = (code: SimCode, reason: string): FlashnodeError => txError(code, reason, c.gas)
  if (c.gas < intrinsicGas) throw fail(SIM_CODES.intrinsicGas, `intrinsic gas too low: have ${c.gas}, want ${intrinsicGas}`)
  if (ctx.common.isActivatedEIP(7623)) {
    const floor = floorDataGas(c.data) // the EVM's own (EIP-7623), counted in numbers, not a bigint per byte
    if (c.gas < floor) throw fail(SIM_CODES.intrinsicGas, `insufficient gas for floor data gas cost: have ${c.gas}, want ${floor}`)
  }
  const left = ctx.senderBalance - c.gas * c.msgGasPrice - blobFeePaid
  if (c.value > 0n && left < c.value) {
    throw fail(SIM_CODES.insufficientFunds, `insufficient funds for transfer: address ${shownAddress(c.from)}`)
  }
}
