/**
 * One receipt record (chain/receipt-codec.ts) from a transaction and the library's execution result. Used
 * by block import and by the block builder, so a pre-confirmed receipt and the sealed one are the same
 * record.
 */

import type { TypedTransaction } from '@ethereumjs/tx'
import type { ReceiptRecord } from '../chain/receipt-codec.ts'

interface LibraryReceipt {
  cumulativeBlockGasUsed: bigint
  status?: 0 | 1
  stateRoot?: Uint8Array
  logs: [Uint8Array, Uint8Array[], Uint8Array][]
  blobGasUsed?: bigint
}

export function effectiveGasPrice(tx: TypedTransaction, baseFee: bigint | undefined): bigint {
  const t = tx as TypedTransaction & { gasPrice?: bigint; maxFeePerGas?: bigint; maxPriorityFeePerGas?: bigint }
  if (t.maxFeePerGas === undefined) return t.gasPrice ?? 0n
  const base = baseFee ?? 0n
  const tip = t.maxPriorityFeePerGas! < t.maxFeePerGas - base ? t.maxPriorityFeePerGas! : t.maxFeePerGas - base
  return base + tip
}

export function receiptRecord(
  tx: TypedTransaction,
  hash: Uint8Array,
  sender: Uint8Array,
  receipt: unknown,
  createdAddress: Uint8Array | undefined,
  previousCumulative: bigint,
  baseFee: bigint | undefined,
  blobGasPrice: bigint | undefined,
): ReceiptRecord {
  const r = receipt as LibraryReceipt
  return {
    transactionHash: hash,
    type: tx.type,
    from: sender,
    to: tx.to === undefined ? null : tx.to.bytes,
    ...(r.stateRoot !== undefined ? { root: r.stateRoot } : { status: r.status ?? 0 }),
    cumulativeGasUsed: r.cumulativeBlockGasUsed,
    gasUsed: r.cumulativeBlockGasUsed - previousCumulative,
    effectiveGasPrice: effectiveGasPrice(tx, baseFee),
    contractAddress: tx.to === undefined && createdAddress !== undefined ? createdAddress : null,
    logs: r.logs.map(([address, topics, data]) => ({ address, topics, data })),
    ...(tx.type === 3 ? { blobGasUsed: r.blobGasUsed ?? 0n, blobGasPrice: blobGasPrice ?? 0n } : {}),
  }
}
