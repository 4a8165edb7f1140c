/**
 * Memoizes reads of a simulation's base state. The base (a sealed block's archive state, or a published
 * pre-confirmed snapshot) never changes, and simulations read the same accounts and slots again and again
 * (every call of a bundle, every block of a chain, and every simulation on the same base: the Simulator
 * keeps the readers of its newest bases, see BaseReaders), each read otherwise a database lookup and a
 * decoding. Code is content-addressed, so one code cache serves every base. Accounts are handed out as
 * fresh copies, as StateReader promises.
 *
 * A reader stops remembering new items past a bound (it still answers, from its base), so a base that many
 * large simulations read cannot grow it without limit.
 */

import type { Account } from '@ethereumjs/util'
import { bytesKey } from '../primitives/bytes-key.ts'
import { Lru } from '../primitives/lru.ts'
import { registerGauge } from '../primitives/memory-gauges.ts'
import { copyAccount } from '../state/overlay-reader.ts'
import { accountWordFromBytes, storageWordFromBytes, type AccountWord, type StateReader } from '../state/state-reader.ts'

const MAX_ITEMS = 50_000

export class CachedReader implements StateReader {
  private readonly accounts = new Map<string, Account | undefined>()
  /** Address -> slot -> value (keys: primitives/bytes-key.ts). */
  private readonly slots = new Map<string, Map<string, Uint8Array>>()
  private items = 0

  /** Accounts and slots remembered. */
  get size(): number {
    return this.items
  }

  constructor(
    private readonly base: StateReader,
    private readonly codes: Lru<string, Uint8Array> = new Lru(64),
  ) {}

  getAccount(address: Uint8Array): Account | undefined {
    const key = bytesKey(address)
    let account: Account | undefined
    if (this.accounts.has(key)) {
      account = this.accounts.get(key)
    } else {
      account = this.base.getAccount(address)
      if (this.items < MAX_ITEMS) {
        this.items++
        this.accounts.set(key, account === undefined ? undefined : copyAccount(account))
      }
    }
    return account === undefined ? undefined : copyAccount(account)
  }

  getStorage(address: Uint8Array, slot: Uint8Array): Uint8Array {
    const addressKey = bytesKey(address)
    const slotKey = bytesKey(slot)
    let slots = this.slots.get(addressKey)
    let value = slots?.get(slotKey)
    if (value === undefined) {
      value = this.base.getStorage(address, slot)
      if (this.items < MAX_ITEMS) {
        this.items++
        if (slots === undefined) {
          slots = new Map()
          this.slots.set(addressKey, slots)
        }
        slots.set(slotKey, value)
      }
    }
    return value
  }

  storageWord(address: bigint, slot: bigint): bigint {
    if (this.base.storageWord !== undefined) return this.base.storageWord(address, slot)
    return storageWordFromBytes(this, address, slot)
  }

  accountWord(address: bigint): AccountWord | null {
    if (this.base.accountWord !== undefined) return this.base.accountWord(address)
    return accountWordFromBytes(this, address)
  }

  getCode(codeHash: Uint8Array): Uint8Array {
    const key = bytesKey(codeHash)
    let code = this.codes.get(key)
    if (code === undefined) {
      code = this.base.getCode(codeHash)
      this.codes.set(key, code)
    }
    return code
  }
}

/**
 * The cached readers of the newest few bases, by the base's identity (a sealed block's hash, a snapshot's
 * data object), sharing one code cache.
 */
export class BaseReaders {
  private readonly readers: Lru<unknown, CachedReader>
  private readonly codes = new Lru<string, Uint8Array>(256)

  constructor(bases: number) {
    this.readers = new Lru(bases)
    registerGauge('simulation base reads', this, (b) => {
      let entries = 0
      for (const reader of b.readers.values()) entries += reader.size
      return { entries, maxEntries: b.readers.capacity * MAX_ITEMS }
    })
    registerGauge('simulation codes', this.codes, (c) => c.gauge())
  }

  of(identity: unknown, base: StateReader): CachedReader {
    let reader = this.readers.get(identity)
    if (reader === undefined) {
      reader = new CachedReader(base, this.codes)
      this.readers.set(identity, reader)
    }
    return reader
  }
}
