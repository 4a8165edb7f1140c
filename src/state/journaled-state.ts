/**
 * The EVM's view of state: a journaled write overlay on top of a read-only base (StateReader).
 *
 * Implements the library's StateManagerInterface. Writes go to flat maps; every write first records what it
 * replaced in an undo journal, so checkpoint is O(1) (a mark), revert undoes back to the mark, and commit
 * drops the mark: the cost of a call frame is the writes it makes, never the size of the state. (The
 * library's SimpleStateManager copies whole maps per checkpoint, which is quadratic in a busy block.)
 *
 * `diff()` is the net change against the base: what a block writes to the archive, what a flashblock
 * publishes. The state root is not this module's business: `getStateRoot` delegates to an injected
 * function (state-root.ts) that hashes base + diff, used when importing blocks and sealing.
 *
 * Accounts handed out are copies: the EVM mutates what it gets before writing it back.
 */

import type { AccountFields, StateManagerInterface } from '@ethereumjs/common'
import { Account, KECCAK256_NULL, type Address } from '@ethereumjs/util'
import { keccak256 } from '../primitives/keccak.ts'
import { bytesToHex } from '../primitives/hex.ts'
import { copyAccount } from './overlay-reader.ts'
import type { StateDiff } from './state-diff.ts'
import type { StateReader } from './state-reader.ts'

const EMPTY = new Uint8Array(0)

type Entry =
  | { t: 'account'; key: string; had: boolean; prev: Account | null | undefined }
  | { t: 'slot'; key: string; slot: string; had: boolean; prev: Uint8Array | undefined }
  | { t: 'wipe'; key: string; wasWiped: boolean; prevSlots: Map<string, Uint8Array> | undefined }

/** Thrown by a state read once the view's deadline has passed (see node/deadline.ts). */
export class ExecutionDeadlineExceeded extends Error {
  constructor() {
    super('execution deadline exceeded')
    this.name = 'ExecutionDeadlineExceeded'
  }
}

const YIELD_EVERY_MS = 8

export type StateRootFn = (diff: StateDiff) => Promise<Uint8Array>

export class JournaledState implements StateManagerInterface {
  /** A written account, or null for a deleted one; never undefined, so `get` alone tells written from not. */
  private readonly accounts = new Map<string, Account | null>()
  private readonly storage = new Map<string, Map<string, Uint8Array>>()
  private readonly wiped = new Set<string>()
  private readonly codes = new Map<string, Uint8Array>()
  private journal: Entry[] = []
  private readonly marks: number[] = []
  private readonly original = new Map<string, Uint8Array>()

  readonly originalStorageCache = {
    get: async (address: Address, key: Uint8Array): Promise<Uint8Array> => {
      const id = `${address.toString()}:${bytesToHex(key)}`
      const hit = this.original.get(id)
      if (hit !== undefined) return hit
      const value = await this.getStorage(address, key)
      this.original.set(id, value)
      return value
    },
    clear: (): void => this.original.clear(),
  }

  private deadline: number | undefined
  private lastYield = 0
  private reads = 0

  /** See allowContractSender. */
  private maskedSender: { key: string; codeHash: Uint8Array; hiding: boolean } | undefined

  constructor(
    private readonly base: StateReader,
    private readonly stateRootFn?: StateRootFn,
  ) {}

  // --- accounts -------------------------------------------------------------------------------

  /** Sets (or clears) the wall-clock deadline of reads through this view. */
  setDeadline(at: number | undefined): void {
    this.deadline = at
    this.lastYield = performance.now()
  }

  /** Every 64th read checks the clock: throws past the deadline, yields to the event loop now and then. */
  private async pace(): Promise<void> {
    if (this.deadline === undefined || (++this.reads & 63) !== 0) return
    const now = performance.now()
    if (now > this.deadline) throw new ExecutionDeadlineExceeded()
    if (now - this.lastYield > YIELD_EVERY_MS) {
      await new Promise<void>((resolve) => setImmediate(resolve))
      this.lastYield = performance.now()
    }
  }

  readAccount(key: string, address: Uint8Array): Account | undefined {
    const a = this.accounts.get(key)
    if (a === undefined) return this.base.getAccount(address)
    return a === null ? undefined : a
  }

  async getAccount(address: Address): Promise<Account | undefined> {
    await this.pace()
    const key = address.toString()
    const a = this.accounts.get(key)
    const account = a === undefined ? this.base.getAccount(address.bytes) : a === null ? undefined : copyAccount(a)
    if (account !== undefined && this.maskedSender?.key === key && this.maskedSender.hiding) account.codeHash = KECCAK256_NULL
    return account
  }

  /**
   * geth lets eth_call and eth_estimateGas send from an account with code (no EIP-3607 check); the
   * library's transaction runner always checks. Until the runner first writes the sender back (right
   * after its pre-checks), the sender reads as code-less. The runner writes back copies of what it read
   * more than once, so until `undefined` ends the masking, any write of the sender with the code-less
   * hash gets the real code hash back.
   */
  allowContractSender(address: Address | undefined): void {
    if (address === undefined) {
      this.maskedSender = undefined
      return
    }
    const key = address.toString()
    const account = this.readAccount(key, address.bytes)
    this.maskedSender = account === undefined || isNullHash(account.codeHash) ? undefined : { key, codeHash: account.codeHash, hiding: true }
  }

  private setAccount(key: string, value: Account | null): void {
    this.record({ t: 'account', key, had: this.accounts.has(key), prev: this.accounts.get(key) })
    this.accounts.set(key, value)
  }

  async putAccount(address: Address, account?: Account): Promise<void> {
    if (account === undefined) return this.deleteAccount(address)
    const key = address.toString()
    const copy = copyAccount(account)
    if (this.maskedSender?.key === key) {
      if (isNullHash(copy.codeHash)) copy.codeHash = this.maskedSender.codeHash
      this.maskedSender.hiding = false
    }
    this.setAccount(key, copy)
  }

  async deleteAccount(address: Address): Promise<void> {
    const key = address.toString()
    this.setAccount(key, null)
    this.wipe(key)
  }

  async modifyAccountFields(address: Address, fields: AccountFields): Promise<void> {
    const account = (await this.getAccount(address)) ?? new Account()
    if (fields.nonce !== undefined) account.nonce = fields.nonce
    if (fields.balance !== undefined) account.balance = fields.balance
    if (fields.storageRoot !== undefined) account.storageRoot = fields.storageRoot
    if (fields.codeHash !== undefined) account.codeHash = fields.codeHash
    this.setAccount(address.toString(), account)
  }

  // --- code -----------------------------------------------------------------------------------

  async putCode(address: Address, code: Uint8Array): Promise<void> {
    const hash = keccak256(code)
    this.codes.set(bytesToHex(hash), code)
    await this.modifyAccountFields(address, { codeHash: hash })
  }

  async getCode(address: Address): Promise<Uint8Array> {
    await this.pace()
    const account = this.readAccount(address.toString(), address.bytes)
    if (account === undefined) return EMPTY
    return this.codeByHash(account.codeHash)
  }

  codeByHash(hash: Uint8Array): Uint8Array {
    if (isNullHash(hash)) return EMPTY
    return this.codes.get(bytesToHex(hash)) ?? this.base.getCode(hash)
  }

  async getCodeSize(address: Address): Promise<number> {
    return (await this.getCode(address)).length
  }

  // --- storage --------------------------------------------------------------------------------

  async getStorage(address: Address, key: Uint8Array): Promise<Uint8Array> {
    await this.pace()
    return this.readStorage(address.toString(), address.bytes, key)
  }

  readStorage(addrKey: string, address: Uint8Array, slot: Uint8Array): Uint8Array {
    const value = this.storage.get(addrKey)?.get(bytesToHex(slot))
    if (value !== undefined) return value
    if (this.wiped.has(addrKey)) return EMPTY
    return this.base.getStorage(address, slot)
  }

  async putStorage(address: Address, key: Uint8Array, value: Uint8Array): Promise<void> {
    const addrKey = address.toString()
    let slots = this.storage.get(addrKey)
    if (slots === undefined) {
      slots = new Map()
      this.storage.set(addrKey, slots)
    }
    const slot = bytesToHex(key)
    this.record({ t: 'slot', key: addrKey, slot, had: slots.has(slot), prev: slots.get(slot) })
    slots.set(slot, stripZeros(value))
  }

  async clearStorage(address: Address): Promise<void> {
    this.wipe(address.toString())
  }

  private wipe(key: string): void {
    this.record({ t: 'wipe', key, wasWiped: this.wiped.has(key), prevSlots: this.storage.get(key) })
    this.wiped.add(key)
    this.storage.set(key, new Map())
  }

  // --- checkpoints ----------------------------------------------------------------------------

  /** Outside any checkpoint nothing can be reverted, so nothing is recorded. */
  private record(e: Entry): void {
    if (this.marks.length > 0) this.journal.push(e)
  }

  async checkpoint(): Promise<void> {
    this.marks.push(this.journal.length)
  }

  async commit(): Promise<void> {
    this.marks.pop()
    if (this.marks.length === 0) this.journal = []
  }

  async revert(): Promise<void> {
    const mark = this.marks.pop() ?? 0
    for (let i = this.journal.length - 1; i >= mark; i--) this.undo(this.journal[i]!)
    this.journal.length = mark
  }

  private undo(e: Entry): void {
    switch (e.t) {
      case 'account':
        if (e.had) this.accounts.set(e.key, e.prev ?? null)
        else this.accounts.delete(e.key)
        return
      case 'slot': {
        // The write made its address's map before recording this; every later change to that map (a wipe)
        // was recorded after it and so has been undone first: the map is there again.
        const slots = this.storage.get(e.key)!
        if (e.had) slots.set(e.slot, e.prev!)
        else slots.delete(e.slot)
        return
      }
      case 'wipe':
        if (!e.wasWiped) this.wiped.delete(e.key)
        if (e.prevSlots === undefined) this.storage.delete(e.key)
        else this.storage.set(e.key, e.prevSlots)
        return
    }
  }

  // --- results --------------------------------------------------------------------------------

  /** The net change against the base. Snapshots the maps: later writes do not show through. */
  diff(): StateDiff {
    const storage = new Map<string, Map<string, Uint8Array>>()
    for (const [addr, slots] of this.storage) if (slots.size > 0 || this.wiped.has(addr)) storage.set(addr, new Map(slots))
    return {
      accounts: new Map(this.accounts),
      storage,
      wiped: new Set(this.wiped),
      codes: new Map(this.codes),
    }
  }

  async getStateRoot(): Promise<Uint8Array> {
    if (this.stateRootFn === undefined) throw new Error('state root not available for this state view')
    return this.stateRootFn(this.diff())
  }

  async setStateRoot(): Promise<void> {
    throw new Error('setStateRoot is not supported: open a new state view at the wanted block')
  }

  async hasStateRoot(): Promise<boolean> {
    return false
  }

  clearCaches(): void {}

  shallowCopy(): StateManagerInterface {
    const copy = new JournaledState(this.base, this.stateRootFn)
    for (const [k, v] of this.accounts) copy.accounts.set(k, v === null ? null : copyAccount(v))
    for (const [k, v] of this.storage) copy.storage.set(k, new Map(v))
    for (const k of this.wiped) copy.wiped.add(k)
    for (const [k, v] of this.codes) copy.codes.set(k, v)
    return copy
  }
}

function isNullHash(hash: Uint8Array): boolean {
  for (let i = 0; i < 32; i++) if (hash[i] !== KECCAK256_NULL[i]) return false
  return true
}

function stripZeros(value: Uint8Array): Uint8Array {
  let i = 0
  while (i < value.length && value[i] === 0) i++
  return i === 0 ? value : value.subarray(i)
}
