/**
 * The size of a simulated block (its RLP encoding, as geth reports `size`), computed from the lengths of
 * its parts instead of encoding the whole block again: the header's encoding, each transaction's
 * serialization (a legacy transaction is an RLP list in the body, a typed one an RLP string wrapping its
 * bytes), no uncles, and the withdrawals (each given as its RLP encoding) when the block has a list.
 */


/** Bytes of the RLP prefix of an item (string or list) whose payload is `length` bytes. */
function prefixLength(length: number): number {
  if (length < 56) return 1
  let bytes = 0
  for (let n = length; n > 0; n = Math.floor(n / 256)) bytes++
  return 1 + bytes
}

const listLength = (payload: number): number => prefixLength(payload) + payload

function stringLength(bytes: Uint8Array): number {
  return bytes.length === 1 && bytes[0]! < 0x80 ? 1 : prefixLength(bytes.length) + bytes.length
}

export interface SizedTransaction {
  readonly type: number
  readonly serialized: Uint8Array
}

export function blockSize(headerRlp: Uint8Array, txs: readonly SizedTransaction[], withdrawals: readonly Uint8Array[] | undefined): number {
  let txPayload = 0
  for (const tx of txs) txPayload += tx.type === 0 ? tx.serialized.length : stringLength(tx.serialized)
  let payload = headerRlp.length + listLength(txPayload) + listLength(0)
  if (withdrawals !== undefined) {
    let w = 0
    for (const withdrawal of withdrawals) w += withdrawal.length
    payload += listLength(w)
  }
  return listLength(payload)
}
