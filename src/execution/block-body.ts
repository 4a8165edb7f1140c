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

function concat(parts: readonly Uint8Array[]): Uint8Array {
  let length = 0
  for (const p of parts) length += p.length
  const out = new Uint8Array(length)
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}

/** RLP list header for a payload of `length` bytes. */
function listHeader(length: number): Uint8Array {
  if (length < 56) return Uint8Array.of(0xc0 + length)
  const bytes: number[] = []
  for (let n = length; n > 0; n = Math.floor(n / 256)) bytes.unshift(n % 256)
  return Uint8Array.from([0xf7 + bytes.length, ...bytes])
}

function list(items: readonly Uint8Array[]): Uint8Array {
  const payload = concat(items)
  return concat([listHeader(payload.length), payload])
}

/** Each transaction as it sits in a block body: typed ones wrapped as an RLP string, legacy ones as they are. */
export function bodyItem(encoded: Uint8Array): Uint8Array {
  return encoded[0]! >= 0xc0 ? encoded : RLP.encode(encoded)
}

/** The RLP of `headerOnly` with `transactions` (canonical encodings, in order) as its transaction list. */
export function encodeBlock(headerOnly: Block, transactions: readonly Uint8Array[]): Uint8Array {
  if (headerOnly.transactions.length > 0) throw new Error('encodeBlock: the block must come without transactions')
  const [header, , ...rest] = headerOnly.raw()
  return list([RLP.encode(header!), list(transactions.map(bodyItem)), ...rest.map((item) => RLP.encode(item))])
}
