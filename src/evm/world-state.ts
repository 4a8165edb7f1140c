/**
 * The world state our EVM runs on: accounts, storage and code over a synchronous read-only base
 * (StateReader), with an undo-log journal and the per-transaction bookkeeping of the EVM.
 *
 * Ownership and invariants:
 * - The boundary with the node is crossed here only: the base speaks bytes and `@ethereumjs/util` Account,
 *   everything inside is bigint (addresses, slots, values, code hashes). Whatever is read from the base is
 *   cached for the life of this WorldState (a block), together with the base value it had, so `diff()` can
 *   report the net change.
 * - Every change is recorded in the journal before it is made. `checkpoint()` is a mark (the journal's
 *   length), `revertTo(mark)` undoes back to it, and committing a frame is doing nothing (its entries stay,
 *   so an outer frame can still undo them). The cost of a frame is the writes it makes, never the state size.
 * - Per-transaction parts (EIP-2929 warm sets, EIP-1153 transient storage, EIP-2200 original values, the
 *   refund counter, logs, the self-destruct set, accounts created in the transaction (EIP-6780), touched
 *   accounts (EIP-161)) live between `beginTransaction()` and `endTransaction()`/`discardTransaction()`;
 *   all but the original values are journaled (original values cannot change within a transaction). One
 *   journaled change is not undone: a touch of 0x03 (the RIPEMD-160 exception, see undo).
 * - Storage is wiped only by deleting an account, which happens at the end of a transaction (self-destruct,
 *   EIP-161). A wiped account's storage object starts empty and never falls back to the base again.
 * - An account's storage and its per-transaction slot record (warm slots, original values) are each found
 *   through a one-entry cache by address before the Map: the cache is dropped wherever the object it holds
 *   is replaced (a wipe, its undo, the start of a transaction).
 * - `diff()` is the net change against the base, as state-diff.ts defines it: accounts equal to their base
 *   value are left out, a deleted account that existed in the base is null with its storage wiped, a
 *   re-created one is a wipe plus the slots written since.
 */

import { Account, KECCAK256_NULL, KECCAK256_RLP } from '@ethereumjs/util'
import { keccak256 } from '../primitives/keccak.ts'
import { bigIntToFixedBytes, bigIntToMinimalBytes, bytesToBigInt, bytesToHex } from '../primitives/hex.ts'
import type { StateDiff } from '../state/state-diff.ts'
import { readAccountWord, readStorageWord, type StateReader } from '../state/state-reader.ts'
import { sharedCode } from './code-cache.ts'
import type { Log } from './types.ts'

/** keccak256 of the empty string: the code hash of an account without code. */
export const EMPTY_CODE_HASH = bytesToBigInt(KECCAK256_NULL)
const EMPTY_CODE = new Uint8Array(0)
const NONE: ReadonlySet<bigint> = new Set()
/** The RIPEMD-160 precompile's address: its touch survives a revert (undo, Change.Touch). */
const RIPEMD_160 = 3n

/** An account as the EVM sees it; mutated in place, every change journaled first. */
export class AccountRecord {
  constructor(
    public nonce: bigint,
    public balance: bigint,
    public codeHash: bigint,
    /** The code, once loaded (undefined until first asked for). */
    public code: Uint8Array | undefined,
  ) {}
}

/** One account's storage: current values (reads cached too), the base values behind them, what was written. */
class AccountStorage {
  readonly values = new Map<bigint, bigint>()
  /** Slots written since this object was made (for diff; not journaled, diff compares values). */
  readonly written = new Set<bigint>()
  constructor(readonly wiped: boolean) {}
}

/** One account's slots within the current transaction: the warm ones (EIP-2929) and the values they had
 * when it began (EIP-2200, set on the first write). */
class TxSlots {
  readonly warm = new Set<bigint>()
  readonly originals = new Map<bigint, bigint>()
}

const enum Change {
  /** The account's record replaced (created, deleted): obj is the previous record or null. */
  AccountSet,
  Balance,
  Nonce,
  /** prev is the previous code hash, obj the previous code (or undefined). */
  Code,
  Storage,
  /** obj is the previous storage object (or undefined). */
  Wipe,
  Transient,
  WarmAccount,
  WarmSlot,
  /** num is the previous refund counter. */
  Refund,
  Log,
  SelfDestruct,
  Created,
  Touch,
}

/** One undo step. One shape for all kinds keeps the undo loop monomorphic. */
class JournalEntry {
  constructor(
    readonly kind: Change,
    readonly address: bigint,
    readonly slot: bigint,
    readonly prev: bigint,
    readonly num: number,
    readonly obj: unknown,
  ) {}
}

export class WorldState {
  /** Current account records; null = absent. Missing key = not loaded yet. */
  private readonly accounts = new Map<bigint, AccountRecord | null>()
  /** The base's account at first load (undefined = absent in the base). */
  private readonly baseAccounts = new Map<bigint, Account | undefined>()
  /** Addresses whose record was ever written (diff filters the unchanged ones). */
  private readonly dirtyAccounts = new Set<bigint>()
  private readonly storage = new Map<bigint, AccountStorage>()
  /** Base values of slots, as first read (only for storage objects that are not wiped). */
  private readonly baseSlots = new Map<bigint, Map<bigint, bigint>>()
  /** Code by hash: from the base (cached) and set here. */
  private readonly codeByHash = new Map<bigint, Uint8Array>()
  private readonly newCodes = new Set<bigint>()
  /**
   * What earlier `diff()`s reported, reused while the value is the same: each diff is a new set of maps, but an
   * account or slot unchanged since the last one is the same object with the same key string, so a caller
   * comparing two diffs (state-diff.ts changedSince, once per flashblock) finds it by identity, and nothing is
   * allocated again for it. Readers of a diff never mutate what it holds (state-diff.ts).
   */
  private readonly reported = new Map<bigint, ReportedAccount>()
  private readonly reportedSlots = new Map<bigint, Map<bigint, ReportedSlot>>()

  private journal: JournalEntry[] = []

  // --- per transaction ---
  private warmAccounts = new Set<bigint>()
  /** Warm in every transaction (the fork's precompiles, EIP-2929), shared and never written: not journaled. */
  private alwaysWarm: ReadonlySet<bigint> = NONE
  private txSlots = new Map<bigint, TxSlots>()
  private transient = new Map<bigint, Map<bigint, bigint>>()
  private refundCounter = 0
  private txLogs: Log[] = []
  private selfDestructs = new Set<bigint>()
  private createdInTx = new Set<bigint>()
  private touched = new Set<bigint>()

  // One-entry caches of the two storage maps by address: a frame's SLOADs and SSTOREs go to one account, and
  // a Map lookup by a bigint key hashes its digits every time. Reset wherever the cached object is replaced.
  private storageCursorAddress = -1n
  private storageCursor: AccountStorage | undefined
  private txSlotsCursorAddress = -1n
  private txSlotsCursor: TxSlots | undefined

  constructor(private readonly base: StateReader) {}

  // --- accounts ---------------------------------------------------------------------------------

  /** The current record (undefined when absent); loads from the base on first sight. */
  account(address: bigint): AccountRecord | undefined {
    const hit = this.accounts.get(address)
    if (hit !== undefined) return hit === null ? undefined : hit
    return this.load(address)
  }

  private load(address: bigint): AccountRecord | undefined {
    // the account may be shared between readers (state-reader.ts): it is only read here
    const word = readAccountWord(this.base, address)
    this.baseAccounts.set(address, word?.account)
    if (word === null) {
      this.accounts.set(address, null)
      return undefined
    }
    const { account, codeHash } = word
    const record = new AccountRecord(account.nonce, account.balance, codeHash, codeHash === EMPTY_CODE_HASH ? EMPTY_CODE : undefined)
    this.accounts.set(address, record)
    return record
  }

  exists(address: bigint): boolean {
    return this.account(address) !== undefined
  }

  /** EIP-161 empty: nonce 0, balance 0, no code; true for an absent account. */
  isEmpty(address: bigint): boolean {
    const a = this.account(address)
    return a === undefined || (a.nonce === 0n && a.balance === 0n && a.codeHash === EMPTY_CODE_HASH)
  }

  getBalance(address: bigint): bigint {
    return this.account(address)?.balance ?? 0n
  }

  getNonce(address: bigint): bigint {
    return this.account(address)?.nonce ?? 0n
  }

  /** The code hash of a present account (EMPTY_CODE_HASH without code), 0n for an absent one. */
  getCodeHash(address: bigint): bigint {
    return this.account(address)?.codeHash ?? 0n
  }

  getCode(address: bigint): Uint8Array {
    const a = this.account(address)
    if (a === undefined) return EMPTY_CODE
    if (a.code !== undefined) return a.code
    const code = this.codeOf(a.codeHash)
    a.code = code
    return code
  }

  private codeOf(hash: bigint): Uint8Array {
    if (hash === EMPTY_CODE_HASH) return EMPTY_CODE
    let code = this.codeByHash.get(hash)
    if (code === undefined) {
      code = sharedCode(hash, () => this.base.getCode(bigIntToFixedBytes(hash, 32)))
      this.codeByHash.set(hash, code)
    }
    return code
  }

  /** The record of `address`, created (empty) when absent. */
  private ensure(address: bigint): AccountRecord {
    const existing = this.account(address)
    if (existing !== undefined) return existing
    const record = new AccountRecord(0n, 0n, EMPTY_CODE_HASH, EMPTY_CODE)
    this.journal.push(new JournalEntry(Change.AccountSet, address, 0n, 0n, 0, null))
    this.accounts.set(address, record)
    this.dirtyAccounts.add(address)
    return record
  }

  /** Makes sure the account exists (an existing one keeps its balance and everything else); touches it. */
  createAccount(address: bigint): void {
    this.ensure(address)
    this.touch(address)
  }

  setBalance(address: bigint, value: bigint): void {
    const a = this.ensure(address)
    this.touch(address)
    if (a.balance === value) return
    this.journal.push(new JournalEntry(Change.Balance, address, 0n, a.balance, 0, undefined))
    a.balance = value
    this.dirtyAccounts.add(address)
  }

  /** Adds to the balance, creating the account when absent (as geth does, even for 0); touches it. */
  addBalance(address: bigint, amount: bigint): void {
    this.setBalance(address, this.getBalance(address) + amount)
  }

  /** The caller checked the balance suffices. Touches the account. */
  subBalance(address: bigint, amount: bigint): void {
    this.setBalance(address, this.getBalance(address) - amount)
  }

  setNonce(address: bigint, value: bigint): void {
    const a = this.ensure(address)
    this.touch(address)
    if (a.nonce === value) return
    this.journal.push(new JournalEntry(Change.Nonce, address, 0n, a.nonce, 0, undefined))
    a.nonce = value
    this.dirtyAccounts.add(address)
  }

  setCode(address: bigint, code: Uint8Array): void {
    const a = this.ensure(address)
    this.touch(address)
    const hash = code.length === 0 ? EMPTY_CODE_HASH : bytesToBigInt(keccak256(code))
    if (code.length > 0) {
      if (!this.codeByHash.has(hash)) this.codeByHash.set(hash, code)
      this.newCodes.add(hash)
    }
    this.journal.push(new JournalEntry(Change.Code, address, 0n, a.codeHash, 0, a.code))
    a.codeHash = hash
    a.code = code.length === 0 ? EMPTY_CODE : (this.codeByHash.get(hash) ?? code)
    this.dirtyAccounts.add(address)
  }

  /** Deletes the account and wipes its storage (end of transaction: self-destruct, EIP-161). */
  deleteAccount(address: bigint): void {
    const prev = this.account(address)
    if (prev !== undefined) {
      this.journal.push(new JournalEntry(Change.AccountSet, address, 0n, 0n, 0, prev))
      this.accounts.set(address, null)
      this.dirtyAccounts.add(address)
    }
    this.wipeStorage(address)
  }

  // --- storage ----------------------------------------------------------------------------------

  private storageOf(address: bigint): AccountStorage {
    if (address === this.storageCursorAddress && this.storageCursor !== undefined) return this.storageCursor
    let s = this.storage.get(address)
    if (s === undefined) {
      s = new AccountStorage(false)
      this.storage.set(address, s)
    }
    this.storageCursorAddress = address
    this.storageCursor = s
    return s
  }

  private txSlotsOf(address: bigint): TxSlots {
    if (address === this.txSlotsCursorAddress && this.txSlotsCursor !== undefined) return this.txSlotsCursor
    let t = this.txSlots.get(address)
    if (t === undefined) {
      t = new TxSlots()
      this.txSlots.set(address, t)
    }
    this.txSlotsCursorAddress = address
    this.txSlotsCursor = t
    return t
  }

  getStorage(address: bigint, slot: bigint): bigint {
    const s = this.storageOf(address)
    const hit = s.values.get(slot)
    if (hit !== undefined) return hit
    return this.loadSlot(s, address, slot)
  }

  /** A slot not seen yet in `s`: zero in a wiped account, else read from the base and remembered. */
  private loadSlot(s: AccountStorage, address: bigint, slot: bigint): bigint {
    if (s.wiped) return 0n
    const value = readStorageWord(this.base, address, slot)
    this.seedSlot(s, address, slot, value)
    return value
  }

  /** Remembers `value` as the base's value of a slot (and its current one). */
  private seedSlot(s: AccountStorage, address: bigint, slot: bigint, value: bigint): void {
    s.values.set(slot, value)
    let bases = this.baseSlots.get(address)
    if (bases === undefined) {
      bases = new Map()
      this.baseSlots.set(address, bases)
    }
    bases.set(slot, value)
  }

  setStorage(address: bigint, slot: bigint, value: bigint): void {
    const s = this.storageOf(address)
    let current = s.values.get(slot)
    if (current === undefined) current = this.loadSlot(s, address, slot)
    const originals = this.txSlotsOf(address).originals
    if (originals.get(slot) === undefined) originals.set(slot, current)
    // the entry keeps the storage object written: when it is undone, every later entry (a wipe among them)
    // has been undone already, so that object is again the account's
    this.journal.push(new JournalEntry(Change.Storage, address, slot, current, 0, s))
    s.values.set(slot, value)
    s.written.add(slot)
  }

  /**
   * setStorage of a slot whose base value the caller already knows (read from this WorldState's base
   * before): when this WorldState has not read the slot yet, `baseValue` is taken as read, so no read of
   * the base is made. The caller answers for `baseValue` being the base's.
   */
  setStorageOverBase(address: bigint, slot: bigint, baseValue: bigint, value: bigint): void {
    const s = this.storageOf(address)
    if (!s.wiped && !s.values.has(slot)) this.seedSlot(s, address, slot, baseValue)
    this.setStorage(address, slot, value)
  }

  /** EIP-2200: the slot's value when the transaction began. */
  getOriginalStorage(address: bigint, slot: bigint): bigint {
    const hit = this.txSlotsOf(address).originals.get(slot)
    return hit !== undefined ? hit : this.getStorage(address, slot)
  }

  /**
   * EIP-7610: whether the account holds any storage. A non-wiped account counts its base storage root (the
   * base's accounts must carry their real storage root) and any non-zero slot seen here.
   */
  hasStorage(address: bigint): boolean {
    const s = this.storage.get(address)
    if (s !== undefined) for (const v of s.values.values()) if (v !== 0n) return true
    if (s !== undefined && s.wiped) return false
    this.account(address)
    const from = this.baseAccounts.get(address)
    if (from === undefined) return false
    const root = from.storageRoot
    for (let i = 0; i < 32; i++) if (root[i] !== KECCAK256_RLP[i]) return true
    return false
  }

  private wipeStorage(address: bigint): void {
    this.journal.push(new JournalEntry(Change.Wipe, address, 0n, 0n, 0, this.storage.get(address)))
    this.storage.set(address, new AccountStorage(true))
    this.storageCursor = undefined
  }

  // --- transient storage (EIP-1153) --------------------------------------------------------------

  getTransient(address: bigint, slot: bigint): bigint {
    return this.transient.get(address)?.get(slot) ?? 0n
  }

  setTransient(address: bigint, slot: bigint, value: bigint): void {
    let slots = this.transient.get(address)
    if (slots === undefined) {
      slots = new Map()
      this.transient.set(address, slots)
    }
    this.journal.push(new JournalEntry(Change.Transient, address, slot, slots.get(slot) ?? 0n, 0, undefined))
    slots.set(slot, value)
  }

  // --- access lists (EIP-2929) -------------------------------------------------------------------

  /** Warms the account; true when it was cold. */
  warmAccount(address: bigint): boolean {
    if (this.warmAccounts.has(address) || this.alwaysWarm.has(address)) return false
    this.warmAccounts.add(address)
    this.journal.push(new JournalEntry(Change.WarmAccount, address, 0n, 0n, 0, undefined))
    return true
  }

  /**
   * Makes `addresses` warm for the rest of the transaction, without journal entries: nothing reverts past
   * the start (discardTransaction and beginTransaction end it). For the precompiles, warm in every
   * transaction from Berlin on: a set shared by every transaction of a fork, read, never copied.
   */
  prewarmAccounts(addresses: ReadonlySet<bigint>): void {
    this.alwaysWarm = addresses
  }

  isWarmAccount(address: bigint): boolean {
    return this.warmAccounts.has(address) || this.alwaysWarm.has(address)
  }

  /** Warms the slot; true when it was cold. */
  warmSlot(address: bigint, slot: bigint): boolean {
    const slots = this.txSlotsOf(address).warm
    if (slots.has(slot)) return false
    slots.add(slot)
    this.journal.push(new JournalEntry(Change.WarmSlot, address, slot, 0n, 0, undefined))
    return true
  }

  isWarmSlot(address: bigint, slot: bigint): boolean {
    return this.txSlots.get(address)?.warm.has(slot) ?? false
  }

  // --- refund, logs, self-destructs, creations, touches ------------------------------------------

  get refund(): number {
    return this.refundCounter
  }

  addRefund(delta: number): void {
    this.journal.push(new JournalEntry(Change.Refund, 0n, 0n, 0n, this.refundCounter, undefined))
    this.refundCounter += delta
  }

  addLog(log: Log): void {
    this.journal.push(new JournalEntry(Change.Log, 0n, 0n, 0n, 0, undefined))
    this.txLogs.push(log)
  }

  /** The logs of the current transaction so far. */
  get logs(): readonly Log[] {
    return this.txLogs
  }

  /** Marks the account for deletion at the end of the transaction; true when it was marked already. */
  markSelfDestructed(address: bigint): boolean {
    if (this.selfDestructs.has(address)) return true
    this.selfDestructs.add(address)
    this.journal.push(new JournalEntry(Change.SelfDestruct, address, 0n, 0n, 0, undefined))
    this.touch(address)
    return false
  }

  isSelfDestructed(address: bigint): boolean {
    return this.selfDestructs.has(address)
  }

  /** EIP-6780: the account was created in this transaction. */
  markCreated(address: bigint): void {
    if (this.createdInTx.has(address)) return
    this.createdInTx.add(address)
    this.journal.push(new JournalEntry(Change.Created, address, 0n, 0n, 0, undefined))
  }

  isCreatedInTx(address: bigint): boolean {
    return this.createdInTx.has(address)
  }

  /** EIP-161: the account was touched (a candidate for deletion when empty at the end of the transaction). */
  touch(address: bigint): void {
    if (this.touched.has(address)) return
    this.touched.add(address)
    this.journal.push(new JournalEntry(Change.Touch, address, 0n, 0n, 0, undefined))
  }

  // --- what changed -------------------------------------------------------------------------------

  /** Nothing run on this WorldState has changed `address` (its record, code or storage) from the base. */
  unchangedFromBase(address: bigint): boolean {
    if (this.dirtyAccounts.has(address)) return false
    const s = this.storage.get(address)
    return s === undefined || (!s.wiped && s.written.size === 0)
  }

  /**
   * The slots of `address` the current transaction wrote, each once with its value before the
   * transaction, when those writes are all it changed apart from its own bookkeeping (warm sets, refund
   * counter, transient storage, a touch of `address` while it is not empty, which EIP-161 leaves alone);
   * undefined when it changed anything else (another account, a balance, code, a log, another touch).
   */
  transactionWroteOnlyStorageOf(address: bigint): Map<bigint, bigint> | undefined {
    const before = new Map<bigint, bigint>()
    for (const e of this.journal) {
      switch (e.kind) {
        case Change.Storage:
          if (e.address !== address) return undefined
          if (!before.has(e.slot)) before.set(e.slot, e.prev)
          break
        case Change.Touch:
          if (e.address !== address || this.isEmpty(address)) return undefined
          break
        case Change.WarmAccount:
        case Change.WarmSlot:
        case Change.Refund:
        case Change.Transient:
          break
        default:
          return undefined
      }
    }
    return before
  }

  // --- journal ----------------------------------------------------------------------------------

  /** A mark to revert to. Committing a frame is not reverting it: nothing to call. */
  checkpoint(): number {
    return this.journal.length
  }

  /** Undoes every change made since `mark`. */
  revertTo(mark: number): void {
    const journal = this.journal
    for (let i = journal.length - 1; i >= mark; i--) this.undo(journal[i]!)
    journal.length = mark
  }

  private undo(e: JournalEntry): void {
    switch (e.kind) {
      case Change.AccountSet:
        this.accounts.set(e.address, e.obj as AccountRecord | null)
        return
      case Change.Balance:
        this.accounts.get(e.address)!.balance = e.prev
        return
      case Change.Nonce:
        this.accounts.get(e.address)!.nonce = e.prev
        return
      case Change.Code: {
        const a = this.accounts.get(e.address)!
        a.codeHash = e.prev
        a.code = e.obj as Uint8Array | undefined
        return
      }
      case Change.Storage:
        ;(e.obj as AccountStorage).values.set(e.slot, e.prev)
        return
      case Change.Wipe:
        if (e.obj === undefined) this.storage.delete(e.address)
        else this.storage.set(e.address, e.obj as AccountStorage)
        this.storageCursor = undefined
        return
      case Change.Transient:
        this.transient.get(e.address)!.set(e.slot, e.prev)
        return
      case Change.WarmAccount:
        this.warmAccounts.delete(e.address)
        return
      case Change.WarmSlot:
        this.txSlots.get(e.address)!.warm.delete(e.slot)
        return
      case Change.Refund:
        this.refundCounter = e.num
        return
      case Change.Log:
        this.txLogs.pop()
        return
      case Change.SelfDestruct:
        this.selfDestructs.delete(e.address)
        return
      case Change.Created:
        this.createdInTx.delete(e.address)
        return
      case Change.Touch:
        // The RIPEMD-160 exception (EIP-716): a touch of 0x03 outlives the frame that made it, so an existing
        // empty 0x03 touched by a reverted frame or a failed precompile call is still deleted (EIP-161), as
        // mainnet's block 2,675,119 was executed and as geth, revm and @ethereumjs do.
        if (e.address !== RIPEMD_160) this.touched.delete(e.address)
        return
    }
  }

  // --- transactions -----------------------------------------------------------------------------

  /** Starts a transaction: clears every per-transaction part. */
  beginTransaction(): void {
    // Emptied in place (most are empty or small): a transfer would otherwise allocate nine objects here.
    if (this.journal.length > 0) this.journal = []
    if (this.warmAccounts.size > 0) this.warmAccounts.clear()
    this.alwaysWarm = NONE
    if (this.txSlots.size > 0) this.txSlots.clear()
    this.txSlotsCursor = undefined
    if (this.transient.size > 0) this.transient.clear()
    this.refundCounter = 0
    // The logs array is handed out by endTransaction: always a new one.
    this.txLogs = []
    if (this.selfDestructs.size > 0) this.selfDestructs.clear()
    if (this.createdInTx.size > 0) this.createdInTx.clear()
    if (this.touched.size > 0) this.touched.clear()
  }

  /**
   * Ends the transaction: deletes the self-destructed accounts and, when `deleteTouchedEmpty` (EIP-161,
   * Spurious Dragon on), the touched accounts that are empty. Returns the transaction's logs.
   */
  endTransaction(deleteTouchedEmpty: boolean): readonly Log[] {
    for (const address of this.selfDestructs) this.deleteAccount(address)
    if (deleteTouchedEmpty) {
      for (const address of this.touched) {
        const a = this.accounts.get(address)
        if (a !== undefined && a !== null && a.nonce === 0n && a.balance === 0n && a.codeHash === EMPTY_CODE_HASH) this.deleteAccount(address)
      }
    }
    const logs = this.txLogs
    this.beginTransaction()
    return logs
  }

  /** Drops the current transaction: every change since beginTransaction() is undone. */
  discardTransaction(): void {
    this.revertTo(0)
    this.beginTransaction()
  }

  // --- results ----------------------------------------------------------------------------------

  /** The net change of everything run on this WorldState against its base (a snapshot). */
  diff(): StateDiff {
    const accounts = new Map<string, Account | null>()
    const storage = new Map<string, Map<string, Uint8Array>>()
    const wiped = new Set<string>()
    const codes = new Map<string, Uint8Array>()
    for (const address of this.dirtyAccounts) {
      const now = this.accounts.get(address)!
      const from = this.baseAccounts.get(address)
      const key = this.reportedKey(address)
      if (now === null) {
        if (from !== undefined) accounts.set(key, null)
        continue
      }
      const unchanged =
        from !== undefined &&
        from.nonce === now.nonce &&
        from.balance === now.balance &&
        bytesToBigInt(from.codeHash) === now.codeHash &&
        !this.storage.get(address)?.wiped
      if (unchanged) continue
      const storageRoot = from === undefined || this.storage.get(address)?.wiped ? KECCAK256_RLP : from.storageRoot
      accounts.set(key, this.reportedAccount(address, now, storageRoot))
      if (this.newCodes.has(now.codeHash)) codes.set(bytesToHex(bigIntToFixedBytes(now.codeHash, 32)), this.codeByHash.get(now.codeHash)!)
    }
    for (const [address, s] of this.storage) {
      const key = this.reportedKey(address)
      const account = this.accounts.get(address)
      const bases = this.baseSlots.get(address)
      const slots = new Map<string, Uint8Array>()
      let reported = this.reportedSlots.get(address)
      for (const slot of s.written) {
        const value = s.values.get(slot)!
        if (s.wiped ? value === 0n : value === bases?.get(slot)) continue
        if (reported === undefined) this.reportedSlots.set(address, (reported = new Map()))
        let r = reported.get(slot)
        if (r === undefined) reported.set(slot, (r = { key: slotKey(slot), value, bytes: bigIntToMinimalBytes(value) }))
        else if (r.value !== value) {
          r.value = value
          r.bytes = bigIntToMinimalBytes(value)
        }
        slots.set(r.key, r.bytes)
      }
      if (s.wiped) {
        // A wipe of an account the base never had, now absent again, changes nothing.
        if ((account === null || account === undefined) && this.baseAccounts.get(address) === undefined) continue
        wiped.add(key)
        storage.set(key, slots)
      } else if (slots.size > 0) storage.set(key, slots)
    }
    return { accounts, storage, wiped, codes }
  }

  /** `address`'s key in diffs, made once. */
  private reportedKey(address: bigint): string {
    let r = this.reported.get(address)
    if (r === undefined) this.reported.set(address, (r = { key: addressKey(address), account: undefined, codeHash: 0n }))
    return r.key
  }

  /** The diff's Account for `now`: the one reported last time when nothing of it changed since. */
  private reportedAccount(address: bigint, now: AccountRecord, storageRoot: Uint8Array): Account {
    const r = this.reported.get(address)!
    const last = r.account
    if (last !== undefined && last.nonce === now.nonce && last.balance === now.balance && r.codeHash === now.codeHash && last.storageRoot === storageRoot) return last
    r.account = new Account(now.nonce, now.balance, storageRoot, bigIntToFixedBytes(now.codeHash, 32))
    r.codeHash = now.codeHash
    return r.account
  }
}

/** An account as diffs reported it: its key, and the last Account object with its code hash as a bigint. */
interface ReportedAccount {
  readonly key: string
  account: Account | undefined
  codeHash: bigint
}

/** A slot as diffs reported it: its key, and its last value with that value's bytes. */
interface ReportedSlot {
  readonly key: string
  value: bigint
  bytes: Uint8Array
}

function addressKey(address: bigint): string {
  return '0x' + address.toString(16).padStart(40, '0')
}

function slotKey(slot: bigint): string {
  return '0x' + slot.toString(16).padStart(64, '0')
}
