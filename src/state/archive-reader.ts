/**
 * State at a sealed block, read from the flat history tables (storage/keys.ts: account, storage, wipe).
 *
 * The value of an item at block N is the newest history entry at or below N. A storage slot reads as zero
 * when its account's storage was wiped at a block newer than the slot's last write (a wipe and writes in the
 * same block mean the writes came after it: the diff keeps only post-wipe writes). No trie walk on the read
 * path: one ordered-key lookup per item, or one point lookup where the latest-state tables answer
 * (latest-state.ts: the item's newest entry is at or below this block, or it was never written).
 */

import { KECCAK256_NULL, type Account } from '@ethereumjs/util'
import type { KvStore } from '../storage/db.ts'
import { bytesKey } from '../primitives/bytes-key.ts'
import { historyKeyBlock, keys } from '../storage/keys.ts'
import { decodeAccount } from './account-rlp.ts'
import { codesOf, historyAt, itemKey, type BlockHistory } from './history-cache.ts'
import { hasLatestState, latestBlock, latestValue } from './latest-state.ts'
import { accountWordOf, type AccountWord, type StateReader } from './state-reader.ts'
import { bigIntToFixedBytes, bytesToBigInt } from '../primitives/hex.ts'
import { wordsAt, type BlockWords } from './word-cache.ts'

const EMPTY = new Uint8Array(0)
/** The value of an item never written (no latest-state entry): absent at every block. */
const ABSENT = new Uint8Array(0)
const NEVER_WRITTEN = { block: 0n, value: ABSENT }

export class ArchiveReader implements StateReader {
  /** This block's remembered answers on this thread (history-cache.ts). */
  private readonly cache: BlockHistory
  /** The latest-state tables are complete here (latest-state.ts). */
  private readonly latest: boolean
  /** This block's words on this thread, found on the first word read. */
  private words: BlockWords | undefined

  constructor(
    private readonly store: KvStore,
    readonly blockNumber: bigint,
  ) {
    this.cache = historyAt(store, blockNumber)
    this.latest = hasLatestState(store)
  }

  getAccount(address: Uint8Array): Account | undefined {
    const key = itemKey(address)
    let rlp = this.cache.accounts.get(key)
    if (rlp === undefined) {
      const value = this.readAccount(address)
      rlp = value === null ? null : new Uint8Array(value)
      this.cache.accounts.set(key, rlp)
    }
    return rlp === null ? undefined : decodeAccount(rlp)
  }

  /** The account's stored RLP at this block from the tables (null: absent). */
  private readAccount(address: Uint8Array): Uint8Array | null {
    const value = this.newest(keys.latestAccount, address, undefined)?.value ?? this.store.floor(keys.account(address, 0n), keys.account(address, this.blockNumber))?.value
    return value === undefined || value.length === 0 ? null : value
  }

  /**
   * The item's newest entry at or below this block from the latest-state tables (latest-state.ts): its
   * block and value; `{ value: ABSENT }` when the item was never written; undefined when the tables cannot
   * answer (not complete in this database, or the item changed after this block: read the floor).
   */
  private newest(
    keyOf: (address: Uint8Array, slot: Uint8Array) => Uint8Array,
    address: Uint8Array,
    slot: Uint8Array | undefined,
  ): { block: bigint; value: Uint8Array } | undefined {
    if (!this.latest) return undefined
    const entry = this.store.get(keyOf(address, slot!))
    if (entry === undefined) return NEVER_WRITTEN
    const block = latestBlock(entry)
    return block <= this.blockNumber ? { block, value: latestValue(entry) } : undefined
  }

  getStorage(address: Uint8Array, slot: Uint8Array): Uint8Array {
    const key = itemKey(address, slot)
    let value = this.cache.slots.get(key)
    if (value === undefined) {
      value = this.readSlot(address, slot)
      this.cache.slots.set(key, value)
    }
    return value === null ? EMPTY : new Uint8Array(value)
  }

  // A word miss reads the tables directly, not through the history cache: that cache keeps this block's
  // answers by item key as bytes and is bounded below the word cache, so an item the words miss it misses
  // too (unless a byte read asked for it first). Going through it cost a key string, a lookup, an insert and
  // a copy per miss: in-process, 0.92x the CPU of ten chained transfers simulated on distinct inputs without
  // it, 0.87x an eth_call balanceOf (docs/performance.md).
  storageWord(address: bigint, slot: bigint): bigint {
    const words = (this.words ??= wordsAt(this.store, this.blockNumber)).slots
    let value = words.get(address, slot)
    if (value === undefined) {
      const raw = this.slotValue(bigIntToFixedBytes(address, 20), bigIntToFixedBytes(slot, 32))
      value = raw === null ? 0n : bytesToBigInt(raw)
      words.set(address, slot, value)
    }
    return value
  }

  accountWord(address: bigint): AccountWord | null {
    const accounts = (this.words ??= wordsAt(this.store, this.blockNumber)).accounts
    let word = accounts.get(address)
    if (word === undefined) {
      const rlp = this.readAccount(bigIntToFixedBytes(address, 20))
      word = rlp === null ? null : accountWordOf(decodeAccount(rlp))
      accounts.set(address, word)
    }
    return word
  }

  private readSlot(address: Uint8Array, slot: Uint8Array): Uint8Array | null {
    const value = this.slotValue(address, slot)
    return value === null ? null : new Uint8Array(value)
  }

  /** The slot's stored value at this block from the tables (null: zero), not copied. */
  private slotValue(address: Uint8Array, slot: Uint8Array): Uint8Array | null {
    let write = this.newest(keys.latestStorage, address, slot)
    if (write === undefined) {
      const hit = this.store.floor(keys.storage(address, slot, 0n), keys.storage(address, slot, this.blockNumber))
      if (hit !== undefined) write = { block: historyKeyBlock(hit.key), value: hit.value }
    }
    if (write === undefined || write.value === ABSENT) return null
    const wiped = this.wipedAt(address)
    if (wiped !== null && wiped > write.block) return null
    return write.value
  }

  /** The block of `address`'s newest storage wipe at or below this block (null: none), looked up once per
   * account and block rather than once per slot. */
  private wipedAt(address: Uint8Array): bigint | null {
    const key = itemKey(address)
    let at = this.cache.wipes.get(key)
    if (at === undefined) {
      const newest = this.newest(keys.latestWipe, address, undefined)
      if (newest !== undefined) at = newest.value === ABSENT ? null : newest.block
      else {
        const wipe = this.store.floor(keys.wipe(address, 0n), keys.wipe(address, this.blockNumber))
        at = wipe === undefined ? null : historyKeyBlock(wipe.key)
      }
      this.cache.wipes.set(key, at)
    }
    return at
  }

  getCode(codeHash: Uint8Array): Uint8Array {
    if (equalsNullHash(codeHash)) return EMPTY
    const key = bytesKey(codeHash)
    const codes = codesOf(this.store)
    let code = codes.get(key)
    if (code === undefined) {
      const stored = this.store.get(keys.code(codeHash))
      if (stored === undefined) return EMPTY
      code = new Uint8Array(stored)
      codes.set(key, code)
    }
    return new Uint8Array(code)
  }
}

function equalsNullHash(hash: Uint8Array): boolean {
  for (let i = 0; i < 32; i++) if (hash[i] !== KECCAK256_NULL[i]) return false
  return true
}
