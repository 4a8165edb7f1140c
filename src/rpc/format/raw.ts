/**
 * Consensus encodings the debug_getRaw* methods answer that no stored form holds as such: a block's header
 * (the first item of the block's RLP list, sliced, never re-encoded) and a receipt as the receipts trie
 * holds it (EIP-2718: the type byte, for a typed receipt, then rlp([status or post-state root, cumulative
 * gas used, logs bloom, logs])). A deposit's receipt (OP Stack, type 0x7e) is op-geth's MarshalBinary of it
 * (core/types/receipt.go encodeTyped): the same list with its depositNonce (Regolith on) and
 * depositReceiptVersion (Canyon on) appended, whichever it has. Pure functions; they trust their input to be
 * well-formed RLP from the chain.
 */

import type { ReceiptView } from '../../chain/types.ts'
import { bigIntToMinimalBytes } from '../../primitives/hex.ts'
import { encodeRlp } from '../../primitives/rlp-encode.ts'
import { DEPOSIT_TX_TYPE } from '../../opstack/deposit-tx.ts'
import { encodeDepositReceipt } from '../../opstack/receipt-fields.ts'

/** Offset and length of the RLP item at `at` (its prefix included). */
function itemAt(rlp: Uint8Array, at: number): { payload: number; end: number } {
  const b = rlp[at]!
  if (b < 0x80) return { payload: at, end: at + 1 }
  if (b <= 0xb7) return { payload: at + 1, end: at + 1 + (b - 0x80) }
  if (b < 0xc0) return long(rlp, at, b - 0xb7)
  if (b <= 0xf7) return { payload: at + 1, end: at + 1 + (b - 0xc0) }
  return long(rlp, at, b - 0xf7)
}

function long(rlp: Uint8Array, at: number, lengthOfLength: number): { payload: number; end: number } {
  let length = 0
  for (let i = 1; i <= lengthOfLength; i++) length = length * 256 + rlp[at + i]!
  const payload = at + 1 + lengthOfLength
  return { payload, end: payload + length }
}

/** The bytes of the first item of an RLP list: a block's header, from the block's encoding. */
export function firstListItem(rlp: Uint8Array): Uint8Array {
  const list = itemAt(rlp, 0)
  const first = itemAt(rlp, list.payload)
  return rlp.subarray(list.payload, first.end)
}

/** A receipt's consensus encoding (the receipts trie's, but for a deposit's: see the top). */
export function consensusReceipt(r: ReceiptView): Uint8Array {
  if (r.type === DEPOSIT_TX_TYPE) {
    return encodeDepositReceipt({
      status: r.status === 1 ? 1 : 0,
      cumulativeGasUsed: r.cumulativeGasUsed,
      logsBloom: r.logsBloom,
      logs: r.logs,
      ...(r.depositNonce === undefined ? {} : { depositNonce: r.depositNonce }),
      ...(r.depositReceiptVersion === undefined ? {} : { depositReceiptVersion: r.depositReceiptVersion }),
    })
  }
  const outcome = r.status === undefined ? (r.root ?? new Uint8Array(0)) : r.status === 1 ? Uint8Array.of(1) : new Uint8Array(0)
  const body = encodeRlp([
    outcome,
    bigIntToMinimalBytes(r.cumulativeGasUsed),
    r.logsBloom,
    r.logs.map((log) => [log.address, [...log.topics], log.data]),
  ])
  if (r.type === 0) return body
  const out = new Uint8Array(body.length + 1)
  out[0] = r.type
  out.set(body, 1)
  return out
}
