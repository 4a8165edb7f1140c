/**
 * The fake L1 a dev OP Stack chain is derived from: no L1 node, an L1 origin that advances with L2 time.
 *
 * Owns: the rule choosing each block's L1 origin and sequence number from what the parent's L1Block holds,
 * and the fake L1 block hashes. The fake L1 has 12 s slots and starts at the first L2 block: the origin stays
 * at the genesis parameters' number until then (timestamp 0 means "never set": the first block takes its own
 * timestamp as the origin's); afterwards a block whose timestamp is k ≥ 1 slots past the origin's moves the
 * origin k blocks on (k is 1 with 2 s blocks, more after a pause) with sequence number 0, else it keeps the
 * origin and adds 1 to the sequence number. An origin's hash is keccak-256 of a fixed tag and its number, so
 * any node recomputes it; a user deposit's fake L1 block (its source hash) is named the same way by the L2
 * block it was sent for. Nothing checks these against a real L1: they only need to be unique and fixed.
 */

import { bigIntToFixedBytes } from '../primitives/hex.ts'
import { keccak256 } from '../primitives/keccak.ts'
import type { L1Origin } from './l1-info-deposit.ts'

export const DEV_L1_SLOT_SECONDS = 12n

const ORIGIN_TAG = new TextEncoder().encode('flashnode dev L1 block')
const DEPOSIT_TAG = new TextEncoder().encode('flashnode dev L1 deposits for L2 block')

function tagged(tag: Uint8Array, n: bigint): Uint8Array {
  const preimage = new Uint8Array(tag.length + 8)
  preimage.set(tag, 0)
  preimage.set(bigIntToFixedBytes(n, 8), tag.length)
  return keccak256(preimage)
}

/** The fake L1 block hash of origin number `n`. */
export const devL1OriginHash = (n: bigint): Uint8Array => tagged(ORIGIN_TAG, n)

/** The fake L1 block whose logs hold the user deposits sent for L2 block `l2Number` (their source hashes). */
export const devDepositL1Hash = (l2Number: bigint): Uint8Array => tagged(DEPOSIT_TAG, l2Number)

/** What the parent's L1Block holds of the origin. */
export interface StoredOrigin {
  readonly number: bigint
  readonly timestamp: bigint
  readonly sequenceNumber: bigint
}

/** The origin and sequence number of a block at `l2Timestamp` after a parent whose L1Block holds `previous`. */
export function nextDevL1Origin(previous: StoredOrigin, l2Timestamp: bigint): { origin: L1Origin; sequenceNumber: bigint } {
  if (previous.timestamp === 0n) {
    return { origin: { number: previous.number, timestamp: l2Timestamp, hash: devL1OriginHash(previous.number) }, sequenceNumber: 0n }
  }
  const slots = l2Timestamp > previous.timestamp ? (l2Timestamp - previous.timestamp) / DEV_L1_SLOT_SECONDS : 0n
  if (slots === 0n) {
    return { origin: { number: previous.number, timestamp: previous.timestamp, hash: devL1OriginHash(previous.number) }, sequenceNumber: previous.sequenceNumber + 1n }
  }
  const number = previous.number + slots
  return { origin: { number, timestamp: previous.timestamp + slots * DEV_L1_SLOT_SECONDS, hash: devL1OriginHash(number) }, sequenceNumber: 0n }
}
