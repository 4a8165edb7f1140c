/**
 * One receipt record (chain/receipt-codec.ts) from a transaction and the library's execution result. Used
 * by block import and by the block builder, so a pre-confirmed receipt and the sealed one are the same
 * record. Also the receipts-trie encoding of a receipt without logs, written directly (encodeReceiptFast).
 */

import { bigIntToBytes } from '@ethereumjs/util'
import { encodeRlp } from '../primitives/rlp-encode.ts'
import type { ReceiptRecord } from '../chain/receipt-codec.ts'

interface LibraryReceipt {
  cumulativeBlockGasUsed: bigint
  status?: 0 | 1
  stateRoot?: Uint8Array
  logs: [Uint8Array, Uint8Array[], Uint8Array][]
  blobGasUsed?: bigint
  depositNonce?: bigint
  depositReceiptVersion?: bigint
}

/** What a receipt record reads of its transaction (a library transaction object has all of it). */
export interface ReceiptSource {
  readonly type: number
  readonly to?: { readonly bytes: Uint8Array } | undefined
  readonly gasPrice?: bigint
  readonly maxFeePerGas?: bigint
  readonly maxPriorityFeePerGas?: bigint
}

export function effectiveGasPrice(tx: ReceiptSource, baseFee: bigint | undefined): bigint {
  if (tx.maxFeePerGas === undefined) return tx.gasPrice ?? 0n
  const base = baseFee ?? 0n
  const tip = tx.maxPriorityFeePerGas! < tx.maxFeePerGas - base ? tx.maxPriorityFeePerGas! : tx.maxFeePerGas - base
  return base + tip
}

export function receiptRecord(
  tx: ReceiptSource,
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
    ...(r.depositNonce !== undefined ? { depositNonce: r.depositNonce } : {}),
    ...(r.depositReceiptVersion !== undefined ? { depositReceiptVersion: r.depositReceiptVersion } : {}),
  }
}

/** RLP length of a short byte string (under 56 bytes). */
function itemLength(b: Uint8Array): number {
  return b.length === 1 && b[0]! < 0x80 ? 1 : 1 + b.length
}

interface EncodableReceipt {
  readonly cumulativeBlockGasUsed: bigint
  readonly status?: 0 | 1
  readonly stateRoot?: Uint8Array
  readonly bitvector: Uint8Array
  readonly logs: readonly unknown[]
}

/**
 * A receipt as the receipts trie holds it (EIP-2718: type byte ‖ rlp([status or root, cumulative gas, bloom,
 * logs])), written straight into one buffer when it has no logs (every plain transfer); receipts with logs
 * are RLP-encoded as a nested list (encodeReceiptSlow). The test holds both to the library's encodeReceipt.
 */
export function encodeReceiptFast(receipt: EncodableReceipt, type: number): Uint8Array {
  if (receipt.logs.length > 0 || receipt.bitvector.length !== 256) return encodeReceiptSlow(receipt, type)
  const first = receipt.stateRoot ?? (receipt.status === 0 ? new Uint8Array(0) : Uint8Array.of(1))
  const gas = bigIntToBytes(receipt.cumulativeBlockGasUsed)
  if (first.length > 55 || gas.length > 55) return encodeReceiptSlow(receipt, type)
  const payload = itemLength(first) + itemLength(gas) + 3 + 256 + 1
  const typed = type === 0 ? 0 : 1
  const out = new Uint8Array(typed + 3 + payload)
  let at = 0
  if (typed) out[at++] = type
  out[at++] = 0xf9
  out[at++] = payload >> 8
  out[at++] = payload & 0xff
  for (const b of [first, gas]) {
    if (!(b.length === 1 && b[0]! < 0x80)) out[at++] = 0x80 + b.length
    out.set(b, at)
    at += b.length
  }
  out[at++] = 0xb9
  out[at++] = 0x01
  out[at++] = 0x00
  out.set(receipt.bitvector, at)
  at += 256
  out[at] = 0xc0
  return out
}

/** Any receipt, through the general RLP encoder. */
function encodeReceiptSlow(receipt: EncodableReceipt, type: number): Uint8Array {
  const first = receipt.stateRoot ?? (receipt.status === 0 ? new Uint8Array(0) : Uint8Array.of(1))
  const body = encodeRlp([
    first,
    bigIntToBytes(receipt.cumulativeBlockGasUsed),
    receipt.bitvector,
    (receipt.logs as [Uint8Array, Uint8Array[], Uint8Array][]).map(([address, topics, data]) => [address, topics, data]),
  ])
  if (type === 0) return body
  const out = new Uint8Array(body.length + 1)
  out[0] = type
  out.set(body, 1)
  return out
}
