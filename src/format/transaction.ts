/**
 * A transaction in geth's RPCTransaction shape.
 *
 * Always: blockHash, blockNumber, blockTimestamp, from, gas, gasPrice, hash, input, nonce, to, transactionIndex,
 * value, type, v, r, s. By type: legacy carries chainId only when replay-protected (non-zero); typed
 * transactions carry chainId, accessList and yParity; 1559-style ones (2, 3, 4) maxFeePerGas and
 * maxPriorityFeePerGas; blob ones maxFeePerBlobGas and blobVersionedHashes; set-code ones authorizationList.
 *
 * Location: with no location (a pool transaction) the block fields are null. In a block, they come from the
 * context (in a pre-confirmed block, blockHash is 32 zero bytes: preconf/views.ts). gasPrice of a 1559-style transaction is the effective price min(tip + baseFee, feeCap) once it sits in
 * a block with a base fee (sealed or pre-confirmed: the base fee is fixed either way), else its fee cap.
 *
 * An OP Stack deposit (type 0x7e, `tx.deposit` set) prints as op-geth prints it (opstack/deposit-view.ts:
 * zero fees and signature, sourceHash, mint and isSystemTx when set, the receipt's nonce and version), with
 * blockTimestamp as every transaction here has it.
 */

import type { BlockContext, TransactionView } from '../chain/types.ts'
import { bytesToHex, quantity } from '../primitives/hex.ts'
import { formatAccessList, formatAuthorization } from './access-list.ts'
import type { JsonObject } from './json.ts'
import { depositTransactionView } from '../opstack/deposit-view.ts'

export interface TxLocation {
  readonly context: BlockContext
  readonly index: number
}

const isDynamicFee = (type: number): boolean => type === 2 || type === 3 || type === 4

function gasPrice(tx: TransactionView, at: TxLocation | null): bigint {
  if (!isDynamicFee(tx.type)) return tx.gasPrice ?? 0n
  const feeCap = tx.maxFeePerGas ?? 0n
  const baseFee = at?.context.baseFeePerGas
  if (baseFee === undefined) return feeCap
  const price = (tx.maxPriorityFeePerGas ?? 0n) + baseFee
  return price < feeCap ? price : feeCap
}

function formatDeposit(tx: TransactionView, at: TxLocation | null): JsonObject {
  const d = tx.deposit!
  const view = depositTransactionView(
    { sourceHash: d.sourceHash, from: tx.from, to: tx.to, mint: d.mint, value: tx.value, gas: tx.gasLimit, isSystemTx: d.isSystemTx, data: tx.data },
    {
      hash: tx.hash,
      ...(at !== null ? { blockHash: at.context.blockHash, blockNumber: at.context.blockNumber, transactionIndex: at.index } : {}),
      ...(d.depositNonce !== undefined ? { depositNonce: d.depositNonce } : {}),
      ...(d.depositReceiptVersion !== undefined ? { depositReceiptVersion: d.depositReceiptVersion } : {}),
    },
  )
  return { ...view, blockTimestamp: at ? quantity(at.context.blockTimestamp) : null } as unknown as JsonObject
}

export function formatTransaction(tx: TransactionView, at: TxLocation | null): JsonObject {
  if (tx.deposit !== undefined) return formatDeposit(tx, at)
  const out: JsonObject = {
    blockHash: at ? bytesToHex(at.context.blockHash) : null,
    blockNumber: at ? quantity(at.context.blockNumber) : null,
    blockTimestamp: at ? quantity(at.context.blockTimestamp) : null,
    from: bytesToHex(tx.from),
    gas: quantity(tx.gasLimit),
    gasPrice: quantity(gasPrice(tx, at)),
  }
  if (isDynamicFee(tx.type)) {
    out.maxFeePerGas = quantity(tx.maxFeePerGas ?? 0n)
    out.maxPriorityFeePerGas = quantity(tx.maxPriorityFeePerGas ?? 0n)
  }
  if (tx.type === 3) out.maxFeePerBlobGas = quantity(tx.maxFeePerBlobGas ?? 0n)
  out.hash = bytesToHex(tx.hash)
  out.input = bytesToHex(tx.data)
  out.nonce = quantity(tx.nonce)
  out.to = tx.to === null ? null : bytesToHex(tx.to)
  out.transactionIndex = at ? quantity(at.index) : null
  out.value = quantity(tx.value)
  out.type = quantity(tx.type)
  if (tx.type !== 0) {
    out.accessList = formatAccessList(tx.accessList ?? [])
    out.chainId = quantity(tx.chainId ?? 0n)
  } else if (tx.chainId !== undefined && tx.chainId !== 0n) {
    out.chainId = quantity(tx.chainId)
  }
  if (tx.type === 3 && tx.blobVersionedHashes !== undefined && tx.blobVersionedHashes.length > 0) {
    out.blobVersionedHashes = tx.blobVersionedHashes.map(bytesToHex)
  }
  if (tx.type === 4 && tx.authorizationList !== undefined && tx.authorizationList.length > 0) {
    out.authorizationList = tx.authorizationList.map(formatAuthorization)
  }
  out.v = quantity(tx.v)
  out.r = quantity(tx.r)
  out.s = quantity(tx.s)
  if (tx.type !== 0) out.yParity = quantity(tx.v === 0n ? 0n : 1n)
  return out
}
