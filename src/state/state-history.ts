/**
 * Writes a block's state changes into the flat history tables (the archive that ArchiveReader reads).
 *
 * Called with the block's diff and the state-root result (whose accounts carry their final storage roots),
 * inside the same batch as the block itself.
 */

import { hexToBytes } from '../primitives/hex.ts'
import type { WriteBatch } from '../storage/db.ts'
import { keys } from '../storage/keys.ts'
import type { StateDiff } from './state-diff.ts'
import type { StateRootResult } from './state-root.ts'

const EMPTY = new Uint8Array(0)

export function writeStateHistory(batch: WriteBatch, blockNumber: bigint, diff: StateDiff, result: StateRootResult): void {
  for (const [addrHex, account] of result.accounts) {
    batch.put(keys.account(hexToBytes(addrHex), blockNumber), account === null ? EMPTY : account.serialize())
  }
  for (const addrHex of diff.wiped) batch.put(keys.wipe(hexToBytes(addrHex), blockNumber), EMPTY)
  for (const [addrHex, slots] of diff.storage) {
    const address = hexToBytes(addrHex)
    for (const [slotHex, value] of slots) batch.put(keys.storage(address, hexToBytes(slotHex), blockNumber), value)
  }
  for (const [hashHex, code] of diff.codes) batch.put(keys.code(hexToBytes(hashHex)), code)
  result.trieDb.flushInto(batch)
}
