/**
 * A block's bytes from a header-only block and the transactions' own encodings, without re-creating the
 * transaction objects: the library's createBlock re-creates (and re-validates) every transaction and its
 * serialize re-encodes each one, about 40-60 µs a transaction at seal time, for bytes the builder already has.
 *
 * The body is what `Block.raw()` lists: [header, transactions, uncles, withdrawals?]; a typed transaction
 * is its EIP-2718 envelope as an RLP string, a legacy one its RLP list as is. Everything but the
 * transactions comes from the library's own `raw()` of the header-only block.
 */

import type { Block } from '@ethereumjs/block'
import { RLP } from '@ethereumjs/rlp'
import { prefixLength, writePrefix } from '../primitives/rlp-encode.ts'

/** Each transaction as it sits in a block body: typed ones wrapped as an RLP string, legacy ones as they are. */
function itemLength(encoded: Uint8Array): number {
  if (encoded[0]! >= 0xc0) return encoded.length
  return encoded.length === 1 && encoded[0]! < 0x80 ? 1 : prefixLength(encoded.length) + encoded.length
}

/** The RLP of `headerOnly` with `transactions` (canonical encodings, in order) as its transaction list, written once. */
export function encodeBlock(headerOnly: Block, transactions: readonly Uint8Array[]): Uint8Array {
  if (headerOnly.transactions.length > 0) throw new Error('encodeBlock: the block must come without transactions')
  const [header, , ...rest] = headerOnly.raw()
  const head = RLP.encode(header!)
  const tail = rest.map((item) => RLP.encode(item))
  let txsLength = 0
  for (const tx of transactions) txsLength += itemLength(tx)
  let payload = head.length + prefixLength(txsLength) + txsLength
  for (const t of tail) payload += t.length
  const out = new Uint8Array(prefixLength(payload) + payload)
  let at = writePrefix(out, 0, payload, 0xc0)
  out.set(head, at)
  at += head.length
  at = writePrefix(out, at, txsLength, 0xc0)
  for (const tx of transactions) {
    if (tx[0]! < 0xc0 && !(tx.length === 1 && tx[0]! < 0x80)) at = writePrefix(out, at, tx.length, 0x80)
    out.set(tx, at)
    at += tx.length
  }
  for (const t of tail) {
    out.set(t, at)
    at += t.length
  }
  return out
}
