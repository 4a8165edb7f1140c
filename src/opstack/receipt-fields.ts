/**
 * The OP Stack's additions to a receipt, as op-geth derives and prints them (core/types receipt_opstack.go
 * deriveOPStackFields, internal/ethapi marshalReceipt), and the consensus encoding of a deposit's receipt.
 *
 * Owns: which OP keys a receipt's JSON has per fork and their values, computed from the block's
 * L1-attributes calldata and the transaction's bytes; a deposit receipt's depositNonce/depositReceiptVersion
 * keys; the deposit receipt's RLP, in both of op-geth's forms (the one it stores and serves, and the one the
 * receipts root hashes). It never formats the common receipt keys (rpc/ does), never computes logs or blooms,
 * and never decides a deposit's nonce (execution does).
 *
 * Keys of a non-deposit receipt, per the L1-attributes format the block carries:
 * - always: l1GasPrice (the L1 base fee), l1GasUsed, l1Fee;
 * - Bedrock format: l1FeeScalar (scalar / 1e6 as text);
 * - Ecotone format and later: l1BlobBaseFee, l1BaseFeeScalar, l1BlobBaseFeeScalar;
 * - Isthmus format and later: operatorFeeScalar and operatorFeeConstant, only when either is non-zero;
 * - Jovian: daFootprintGasScalar, and blobGasUsed = daFootprintGasScalar × the Fjord size estimate (the
 *   transaction's DA footprint, which op-geth stores in the receipt's blob gas used).
 */

import { encodeRlp, type RlpItem } from '../primitives/rlp-encode.ts'
import { bigIntToMinimalBytes, quantity, type Hex } from '../primitives/hex.ts'
import { BLOOM_BYTES } from '../primitives/bloom.ts'
import { DEPOSIT_TX_TYPE } from './deposit-tx.ts'
import { feeScalarText } from './fee-scalar-text.ts'
import { opForkActive, type OpForkName } from './forks.ts'
import { daFootprintGasScalarFromCalldata, l1FeeParamsFromCalldata } from './l1-attributes.ts'
import { estimatedDASize, l1DataFee, rollupCostData } from './l1-cost.ts'

export interface OpReceiptFields {
  readonly l1GasPrice?: Hex
  readonly l1GasUsed?: Hex
  readonly l1Fee?: Hex
  readonly l1FeeScalar?: string
  readonly l1BlobBaseFee?: Hex
  readonly l1BaseFeeScalar?: Hex
  readonly l1BlobBaseFeeScalar?: Hex
  readonly operatorFeeScalar?: Hex
  readonly operatorFeeConstant?: Hex
  readonly daFootprintGasScalar?: Hex
  readonly blobGasUsed?: Hex
  readonly depositNonce?: Hex
  readonly depositReceiptVersion?: Hex
}

/**
 * The OP keys of a non-deposit transaction's receipt in a block of `fork` whose L1-attributes deposit carries
 * `l1AttributesCalldata`. Throws where op-geth fails to derive the block's receipts (calldata it cannot read
 * for the fork).
 */
export function l1CostReceiptFields(fork: OpForkName, l1AttributesCalldata: Uint8Array, transactionBytes: Uint8Array): OpReceiptFields {
  const params = l1FeeParamsFromCalldata(fork, l1AttributesCalldata)
  const costData = rollupCostData(transactionBytes)
  const { fee, gasUsed } = l1DataFee(fork, params, costData)
  const fields: Record<string, string> = { l1GasPrice: quantity(params.l1BaseFee), l1GasUsed: quantity(gasUsed), l1Fee: quantity(fee) }
  if (params.format === 'bedrock') {
    fields.l1FeeScalar = feeScalarText(params.scalar)
  } else {
    fields.l1BlobBaseFee = quantity(params.l1BlobBaseFee)
    fields.l1BaseFeeScalar = quantity(params.baseFeeScalar)
    fields.l1BlobBaseFeeScalar = quantity(params.blobBaseFeeScalar)
    const operator = params.operatorFee
    if (operator !== undefined && (operator.scalar !== 0n || operator.constant !== 0n)) {
      fields.operatorFeeScalar = quantity(operator.scalar)
      fields.operatorFeeConstant = quantity(operator.constant)
    }
  }
  if (opForkActive(fork, 'jovian')) {
    const scalar = daFootprintGasScalarFromCalldata(l1AttributesCalldata)
    fields.daFootprintGasScalar = quantity(scalar)
    fields.blobGasUsed = quantity(scalar * estimatedDASize(costData))
  }
  return fields as OpReceiptFields
}

/** What a deposit's receipt records beyond a common receipt (from Regolith; the version from Canyon). */
export interface DepositReceiptExtras {
  readonly depositNonce?: bigint
  readonly depositReceiptVersion?: bigint
}

/** The receipt version every deposit receipt carries from Canyon on. */
export const CANYON_DEPOSIT_RECEIPT_VERSION = 1n

/** The OP keys of a deposit's receipt: depositNonce when recorded, and with it depositReceiptVersion when recorded. */
export function depositReceiptFields(extras: DepositReceiptExtras): OpReceiptFields {
  if (extras.depositNonce === undefined) return {}
  const fields: Record<string, string> = { depositNonce: quantity(extras.depositNonce) }
  if (extras.depositReceiptVersion !== undefined) fields.depositReceiptVersion = quantity(extras.depositReceiptVersion)
  return fields as OpReceiptFields
}

export interface ReceiptLog {
  /** 20 bytes */
  readonly address: Uint8Array
  readonly topics: readonly Uint8Array[]
  readonly data: Uint8Array
}

/** A deposit receipt's consensus fields. */
export interface DepositReceipt extends DepositReceiptExtras {
  /** 1 success, 0 failure; ignored when postState is given (pre-Byzantium form, kept for op-geth's vector). */
  readonly status: 0 | 1
  readonly postState?: Uint8Array
  readonly cumulativeGasUsed: bigint
  /** 256 bytes */
  readonly logsBloom: Uint8Array
  readonly logs: readonly ReceiptLog[]
}

function receiptList(receipt: DepositReceipt, withDepositFields: boolean): RlpItem[] {
  if (receipt.logsBloom.length !== BLOOM_BYTES) throw new Error(`logs bloom must be ${BLOOM_BYTES} bytes`)
  const statusOrRoot = receipt.postState ?? (receipt.status === 1 ? Uint8Array.of(1) : new Uint8Array(0))
  const list: RlpItem[] = [
    statusOrRoot,
    bigIntToMinimalBytes(receipt.cumulativeGasUsed),
    receipt.logsBloom,
    receipt.logs.map((log) => [log.address, [...log.topics], log.data]),
  ]
  if (!withDepositFields || receipt.depositNonce === undefined) {
    if (withDepositFields && receipt.depositReceiptVersion !== undefined) throw new Error('deposit receipt version without a deposit nonce')
    return list
  }
  list.push(bigIntToMinimalBytes(receipt.depositNonce))
  if (receipt.depositReceiptVersion !== undefined) list.push(bigIntToMinimalBytes(receipt.depositReceiptVersion))
  return list
}

function typed(body: Uint8Array): Uint8Array {
  const out = new Uint8Array(1 + body.length)
  out[0] = DEPOSIT_TX_TYPE
  out.set(body, 1)
  return out
}

/** The receipt's consensus encoding as op-geth stores and serves it (MarshalBinary): the deposit fields it has. */
export function encodeDepositReceipt(receipt: DepositReceipt): Uint8Array {
  return typed(encodeRlp(receiptList(receipt, true)))
}

/**
 * The receipt's encoding in the receipts trie (op-geth's EncodeIndex): with the deposit fields only when a
 * receipt version is set (Canyon on); a Regolith-to-Canyon receipt is hashed without its nonce, a difference
 * op-geth keeps for the roots of those blocks.
 */
export function encodeDepositReceiptForRoot(receipt: DepositReceipt): Uint8Array {
  return typed(encodeRlp(receiptList(receipt, receipt.depositReceiptVersion !== undefined)))
}
