/**
 * Decoding stored or imported block bytes under the right fork rules. The fork depends on the block's own
 * number and timestamp, so the header fields are peeked from the RLP before the block is built.
 */

import { createBlockFromBytesArray, createBlockHeaderFromBytesArray, type Block, type BlockBytes, type BlockHeader } from '@ethereumjs/block'
import { RLP } from '@ethereumjs/rlp'
import { bytesToBigInt } from '../primitives/hex.ts'
import type { ChainRules } from './chain-config.ts'

const NUMBER = 8
const TIMESTAMP = 11

function forkOf(rules: ChainRules, headerFields: Uint8Array[]) {
  return rules.at(bytesToBigInt(headerFields[NUMBER]!), bytesToBigInt(headerFields[TIMESTAMP]!))
}

export function decodeBlock(rules: ChainRules, rlp: Uint8Array): Block {
  const values = RLP.decode(rlp) as unknown as BlockBytes
  const header = values[0] as unknown as Uint8Array[]
  return createBlockFromBytesArray(values, { common: forkOf(rules, header) })
}

export function decodeHeader(rules: ChainRules, rlp: Uint8Array): BlockHeader {
  const values = RLP.decode(rlp) as unknown as Uint8Array[]
  return createBlockHeaderFromBytesArray(values as never, { common: forkOf(rules, values) })
}

/**
 * An OP Stack block's bytes as the library's block without its leading deposit transactions (type 0x7e, which
 * the library cannot decode) and those deposits' envelopes. Throws when a deposit follows another transaction.
 */
export function decodeOpBlock(rules: ChainRules, rlp: Uint8Array): { readonly block: Block; readonly deposits: Uint8Array[] } {
  const values = RLP.decode(rlp) as unknown as Uint8Array[][]
  const header = values[0] as unknown as Uint8Array[]
  const transactions = values[1]!
  let count = 0
  while (count < transactions.length && isDeposit(transactions[count]!)) count++
  if (transactions.slice(count).some(isDeposit)) throw new Error('a deposit transaction after a non-deposit one')
  const rest = [values[0], transactions.slice(count), ...values.slice(2)]
  const block = createBlockFromBytesArray(rest as unknown as BlockBytes, { common: forkOf(rules, header) })
  return { block, deposits: transactions.slice(0, count) as unknown as Uint8Array[] }
}

const isDeposit = (item: unknown): boolean => item instanceof Uint8Array && item.length > 0 && item[0] === 0x7e

/** Splits concatenated RLP items (the `chain.rlp` export format) without decoding their contents. */
export function* splitRlpStream(bytes: Uint8Array): Generator<Uint8Array> {
  let offset = 0
  while (offset < bytes.length) {
    const first = bytes[offset]!
    let length: number
    if (first <= 0x7f) length = 1
    else if (first <= 0xb7) length = 1 + first - 0x80
    else if (first <= 0xbf) length = 1 + (first - 0xb7) + readLength(bytes, offset + 1, first - 0xb7)
    else if (first <= 0xf7) length = 1 + first - 0xc0
    else length = 1 + (first - 0xf7) + readLength(bytes, offset + 1, first - 0xf7)
    if (offset + length > bytes.length) throw new Error(`truncated RLP item at byte ${offset}`)
    yield bytes.subarray(offset, offset + length)
    offset += length
  }
}

function readLength(bytes: Uint8Array, at: number, n: number): number {
  let v = 0
  for (let i = 0; i < n; i++) v = v * 256 + bytes[at + i]!
  return v
}
