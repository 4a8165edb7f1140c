/**
 * The JSON-RPC view of a deposit transaction as op-geth's eth_getTransactionBy* answers it (internal/ethapi
 * newRPCTransaction): the common transaction fields with the deposit's zeros, and the deposit's own.
 *
 * Owns: which keys a deposit's view has and their values. It never formats other transaction types (rpc/ and
 * format/ do) and never reads a receipt itself: the receipt's deposit nonce and version come in as values.
 *
 * What op-geth shows, field by field: gasPrice, v, r and s are 0x0 (no fees, no signature); no chainId,
 * yParity, fee caps or access list; `nonce` is the receipt's depositNonce when the receipt has one (Regolith
 * and later), else 0; `sourceHash` always; `mint` only when non-zero (a zero mint is decoded as no mint, and
 * the key is then left out); `isSystemTx` only when true; `depositReceiptVersion` when the receipt has one
 * and a deposit nonce. The block fields are null for a transaction outside a block, as for any transaction.
 */

import { bytesToHex, quantity, type Hex } from '../primitives/hex.ts'
import { DEPOSIT_TX_TYPE, depositTransactionHash, type DepositTransaction } from './deposit-tx.ts'

/** Where the deposit sits, and what its receipt says of it. */
export interface DepositViewContext {
  /** The envelope's hash; computed when absent. */
  readonly hash?: Uint8Array
  readonly blockHash?: Uint8Array
  readonly blockNumber?: bigint
  readonly transactionIndex?: number
  readonly depositNonce?: bigint
  readonly depositReceiptVersion?: bigint
}

export interface DepositTransactionView {
  readonly blockHash: Hex | null
  readonly blockNumber: Hex | null
  readonly from: Hex
  readonly gas: Hex
  readonly gasPrice: Hex
  readonly hash: Hex
  readonly input: Hex
  readonly nonce: Hex
  readonly to: Hex | null
  readonly transactionIndex: Hex | null
  readonly value: Hex
  readonly type: Hex
  readonly v: Hex
  readonly r: Hex
  readonly s: Hex
  readonly sourceHash: Hex
  readonly mint?: Hex
  readonly isSystemTx?: true
  readonly depositReceiptVersion?: Hex
}

const ZERO: Hex = '0x0'

/** The view of `tx` in op-geth's key order. */
export function depositTransactionView(tx: DepositTransaction, context: DepositViewContext = {}): DepositTransactionView {
  const inBlock = context.blockHash !== undefined
  const view: Record<string, unknown> = {
    blockHash: inBlock ? bytesToHex(context.blockHash!) : null,
    blockNumber: inBlock && context.blockNumber !== undefined ? quantity(context.blockNumber) : null,
    from: bytesToHex(tx.from),
    gas: quantity(tx.gas),
    gasPrice: ZERO,
    hash: bytesToHex(context.hash ?? depositTransactionHash(tx)),
    input: bytesToHex(tx.data),
    nonce: quantity(context.depositNonce ?? 0n),
    to: tx.to === null ? null : bytesToHex(tx.to),
    transactionIndex: inBlock && context.transactionIndex !== undefined ? quantity(context.transactionIndex) : null,
    value: quantity(tx.value),
    type: quantity(DEPOSIT_TX_TYPE),
    v: ZERO,
    r: ZERO,
    s: ZERO,
    sourceHash: bytesToHex(tx.sourceHash),
  }
  if (tx.mint !== 0n) view.mint = quantity(tx.mint)
  if (tx.isSystemTx) view.isSystemTx = true
  if (context.depositNonce !== undefined && context.depositReceiptVersion !== undefined) {
    view.depositReceiptVersion = quantity(context.depositReceiptVersion)
  }
  return view as unknown as DepositTransactionView
}
