/**
 * State at a sealed block, read from the flat history tables (storage/keys.ts: account, storage, wipe).
 *
 * The value of an item at block N is the newest history entry at or below N. A storage slot reads as zero
 * when its account's storage was wiped at a block newer than the slot's last write (a wipe and writes in the
 * same block mean the writes came after it: the diff keeps only post-wipe writes). No trie walk on the read
 * path: one ordered-key lookup per item.
 */

import { createAccountFromRLP, KECCAK256_NULL, type Account } from '@ethereumjs/util'
import type { KvStore } from '../storage/db.ts'
import { historyKeyBlock, keys } from '../storage/keys.ts'
import type { StateReader } from './state-reader.ts'

const EMPTY = new Uint8Array(0)

export class ArchiveReader implements StateReader {
  constructor(
    private readonly store: KvStore,
    readonly blockNumber: bigint,
  ) {}

  getAccount(address: Uint8Array): Account | undefined {
    const hit = this.store.floor(keys.account(address, 0n), keys.account(address, this.blockNumber))
    if (hit === undefined || hit.value.length === 0) return undefined
    return createAccountFromRLP(hit.value)
  }

  getStorage(address: Uint8Array, slot: Uint8Array): Uint8Array {
    const write = this.store.floor(keys.storage(address, slot, 0n), keys.storage(address, slot, this.blockNumber))
    const wipe = this.store.floor(keys.wipe(address, 0n), keys.wipe(address, this.blockNumber))
    if (write === undefined) return EMPTY
    if (wipe !== undefined && historyKeyBlock(wipe.key) > historyKeyBlock(write.key)) return EMPTY
    return new Uint8Array(write.value)
  }

  getCode(codeHash: Uint8Array): Uint8Array {
    if (equalsNullHash(codeHash)) return EMPTY
    return this.store.get(keys.code(codeHash)) ?? EMPTY
  }
}

function equalsNullHash(hash: Uint8Array): boolean {
  for (let i = 0; i < 32; i++) if (hash[i] !== KECCAK256_NULL[i]) return false
  return true
}
