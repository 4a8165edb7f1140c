/**
 * Storage encoding of a block's receipts: one RLP list per block, one record per transaction, holding
 * everything the RPC shapes need (sender, recipient, created address, effective gas price) so that reading
 * receipts never decodes transactions or recovers signatures. Blooms, positions and log indexes are derived
 * on load (blooms through ReceiptBlooms: each distinct address or topic of the block is hashed once).
 *
 * An OP Stack deposit's receipt carries a 13th field, [depositNonce, depositReceiptVersion?], when it has a
 * nonce (Regolith on); every other receipt has 12, so stored Ethereum receipts read as before.
 *
 * Decoding copies nothing: byte fields (hashes, addresses, log topics and data) are views of the stored
 * bytes (rlp-view.ts), which stay alive as long as any decoded receipt does.
 */

import { bigIntToMinimalBytes, bytesToBigInt } from '../primitives/hex.ts'
import { encodeRlp } from '../primitives/rlp-encode.ts'
import { ReceiptBlooms } from './receipt-blooms.ts'
import { decodeRlpView, type RlpItem } from './rlp-view.ts'
import type { LogView, ReceiptView } from './types.ts'

const EMPTY = new Uint8Array(0)

export type ReceiptRecord = Omit<ReceiptView, 'transactionIndex' | 'firstLogIndex' | 'logsBloom'>

const big = bigIntToMinimalBytes
/** Minimal bytes of 0..255, made once: a receipt's type and status are one of these (encodeRlp only reads them). */
const SMALL: readonly Uint8Array[] = Array.from({ length: 256 }, (_, n) => big(BigInt(n)))
const num = (n: number): Uint8Array => SMALL[n] ?? big(BigInt(n))
const optBig = (n: bigint | undefined): Uint8Array[] => (n === undefined ? [] : [big(n)])

/** Written into one buffer of the exact size (a sealed block's ~10,000 receipts took ~10 µs each through RLP.encode's copies). */
export function encodeReceipts(receipts: readonly ReceiptRecord[]): Uint8Array {
  return encodeRlp(
    receipts.map((r) => [
      r.transactionHash,
      num(r.type),
      r.from,
      r.to ?? EMPTY,
      r.status === undefined ? [r.root ?? EMPTY] : num(r.status),
      big(r.cumulativeGasUsed),
      big(r.gasUsed),
      big(r.effectiveGasPrice),
      r.contractAddress ?? EMPTY,
      r.logs.map((l) => [l.address, l.topics, l.data]),
      optBig(r.blobGasUsed),
      optBig(r.blobGasPrice),
      // A deposit's nonce and receipt version (OP Stack): a 13th field only on such receipts.
      ...(r.depositNonce === undefined ? [] : [[big(r.depositNonce), ...optBig(r.depositReceiptVersion)]]),
    ]),
  )
}

/** Big-endian unsigned bytes to bigint; the common short values without a detour through hex. */
function uint(bytes: Uint8Array): bigint {
  if (bytes.length > 6) return bytesToBigInt(bytes)
  let n = 0
  for (let i = 0; i < bytes.length; i++) n = n * 256 + bytes[i]!
  return BigInt(n)
}

/** A deposit receipt's 13th field: [nonce, version?]. */
function depositFields(field: Uint8Array[]): Pick<ReceiptView, 'depositNonce' | 'depositReceiptVersion'> {
  return { depositNonce: uint(field[0]!), ...(field.length > 1 ? { depositReceiptVersion: uint(field[1]!) } : {}) }
}

/** The stored bytes must be a buffer of their own (a KvStore read): the decoded fields are views of them. */
export function decodeReceipts(bytes: Uint8Array): ReceiptView[] {
  const rows = decodeRlpView(bytes)
  if (!Array.isArray(rows)) throw new Error('stored receipts are not a list')
  const blooms = new ReceiptBlooms()
  let logIndex = 0
  return rows.map((row, transactionIndex) => {
    const f = row as RlpItem[]
    const outcome = f[4]!
    const logs: LogView[] = (f[9] as RlpItem[][]).map((l) => ({
      address: l[0] as Uint8Array,
      topics: l[1] as Uint8Array[],
      data: l[2] as Uint8Array,
    }))
    const to = f[3] as Uint8Array
    const created = f[8] as Uint8Array
    const blobGasUsed = f[10] as Uint8Array[]
    const blobGasPrice = f[11] as Uint8Array[]
    const receipt: ReceiptView = {
      transactionHash: f[0] as Uint8Array,
      transactionIndex,
      type: Number(uint(f[1] as Uint8Array)),
      from: f[2] as Uint8Array,
      to: to.length === 0 ? null : to,
      ...(Array.isArray(outcome)
        ? { root: outcome[0] as Uint8Array }
        : { status: uint(outcome) === 1n ? (1 as const) : (0 as const) }),
      cumulativeGasUsed: uint(f[5] as Uint8Array),
      gasUsed: uint(f[6] as Uint8Array),
      effectiveGasPrice: uint(f[7] as Uint8Array),
      contractAddress: created.length === 0 ? null : created,
      logs,
      logsBloom: blooms.bloomOf(logs),
      firstLogIndex: logIndex,
      ...(blobGasUsed.length > 0 ? { blobGasUsed: uint(blobGasUsed[0]!) } : {}),
      ...(blobGasPrice.length > 0 ? { blobGasPrice: uint(blobGasPrice[0]!) } : {}),
      ...(f.length > 12 ? depositFields(f[12] as Uint8Array[]) : {}),
    }
    logIndex += logs.length
    return receipt
  })
}
