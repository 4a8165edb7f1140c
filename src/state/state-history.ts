/**
 * Writes a block's state changes into the flat history tables (the archive that ArchiveReader reads), and
 * each entry's copy in the latest-state tables (latest-state.ts).
 *
 * Called with the block's diff and the state-root result (whose accounts carry their final storage roots),
 * inside the same batch as the block itself.
 */

import { hexToBytes } from '../primitives/hex.ts'
import type { WriteBatch } from '../storage/db.ts'
import { keys } from '../storage/keys.ts'
import type { StateDiff } from './state-diff.ts'
import type { StateRootResult } from './state-root.ts'
import { markLatestThrough, writeLatest } from './latest-state.ts'

const EMPTY = new Uint8Array(0)

export function writeStateHistory(batch: WriteBatch, blockNumber: bigint, diff: StateDiff, result: StateRootResult): void {
  for (const [addrHex, account] of result.accounts) {
    const address = hexToBytes(addrHex)
    const rlp = account === null ? EMPTY : account.serialize()
    batch.put(keys.account(address, blockNumber), rlp)
    writeLatest(batch, keys.latestAccount(address), blockNumber, rlp)
  }
  for (const addrHex of diff.wiped) {
    const address = hexToBytes(addrHex)
    batch.put(keys.wipe(address, blockNumber), EMPTY)
    writeLatest(batch, keys.latestWipe(address), blockNumber, EMPTY)
  }
  for (const [addrHex, slots] of diff.storage) {
    const address = hexToBytes(addrHex)
    for (const [slotHex, value] of slots) {
      const slot = hexToBytes(slotHex)
      batch.put(keys.storage(address, slot, blockNumber), value)
      writeLatest(batch, keys.latestStorage(address, slot), blockNumber, value)
    }
  }
  markLatestThrough(batch, blockNumber)
  for (const [hashHex, code] of diff.codes) batch.put(keys.code(hexToBytes(hashHex)), code)
  result.trieDb.flushInto(batch)
}
