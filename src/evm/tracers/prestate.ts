/**
 * geth's prestateTracer: the accounts (balance, nonce, code, codeHash, storage slots) the transaction
 * touched, as they were when first touched; with `diffMode`, `pre` and `post` of what changed. Touched, as
 * geth's: the sender, the recipient (or the created address) and its EIP-7702 delegate, the coinbase and the
 * authorities of valid authorizations, read before any gas is bought; then what opcodes name: BALANCE,
 * EXTCODE*, a SELFDESTRUCT's beneficiary, every call's code address (and its delegate from Prague), every
 * created address, and the slots SLOAD and SSTORE use (observer.ts `state`). Accounts empty when touched are
 * left out unless `includeEmpty`; `disableCode` and `disableStorage` leave those parts out.
 *
 * It reads the WorldState it is given (values at the moment of the touch, post values after the transaction)
 * and never writes it.
 */

import { parseDelegation } from '../frames.ts'
import type { FrameObserver, StateReadObserver } from '../observer.ts'
import { recoverAuthority } from '../transaction.ts'
import { MessageKind, type FrameResult, type Message, type TxResult } from '../types.ts'
import { EMPTY_CODE_HASH, type WorldState } from '../world-state.ts'
import { createAddress } from '../frames.ts'
import { address, data, hash, quantity } from './json.ts'
import { configObject, flag, TracerConfigError, type TraceTxContext, type Tracer } from './tracer.ts'

export interface PrestateTracerConfig {
  readonly diffMode: boolean
  readonly disableCode: boolean
  readonly disableStorage: boolean
  readonly includeEmpty: boolean
}

export function prestateTracerConfig(config: unknown): PrestateTracerConfig {
  const c = configObject(config)
  const parsed = { diffMode: flag(c, 'diffMode'), disableCode: flag(c, 'disableCode'), disableStorage: flag(c, 'disableStorage'), includeEmpty: flag(c, 'includeEmpty') }
  if (parsed.diffMode && parsed.includeEmpty) throw new TracerConfigError('cannot use diffMode with includeEmpty')
  return parsed
}

interface Account {
  balance: bigint | undefined
  /** undefined: left out (no code, or disableCode); in `post`, empty when the code was removed. */
  code: Uint8Array | undefined
  codeHash: bigint | undefined
  nonce: bigint
  /** undefined with disableStorage. */
  storage: Map<bigint, bigint> | undefined
  /** Empty when first touched (geth leaves it out unless includeEmpty). */
  empty: boolean
}

export class PrestateTracer implements Tracer, FrameObserver, StateReadObserver {
  readonly observer: FrameObserver = this
  readonly state: StateReadObserver = this
  private readonly pre = new Map<bigint, Account>()
  private readonly post = new Map<bigint, Account>()
  private readonly created = new Set<bigint>()
  private readonly deleted = new Set<bigint>()
  private world: WorldState | undefined
  private prague = false
  private cancun = false

  constructor(readonly config: PrestateTracerConfig) {}

  txStart(ctx: TraceTxContext): void {
    const world = (this.world = ctx.world)
    this.prague = ctx.rules.prague
    this.cancun = ctx.rules.cancun
    const tx = ctx.tx
    let to: bigint
    if (tx.to === undefined) {
      to = createAddress(tx.from, world.getNonce(tx.from))
      this.created.add(to)
    } else {
      to = tx.to
      this.lookupDelegate(to)
    }
    this.lookupAccount(tx.from)
    this.lookupAccount(to)
    this.lookupAccount(ctx.block.coinbase)
    for (const auth of tx.authorizationList ?? []) {
      const authority = recoverAuthority(auth)
      if (authority !== undefined) this.lookupAccount(authority)
    }
    for (const account of ctx.chainAccounts ?? []) this.lookupAccount(account)
  }

  enter(msg: Message): void {
    if (msg.depth === 0) return
    const kind = msg.kind
    if (kind === MessageKind.Create || kind === MessageKind.Create2) {
      this.lookupAccount(msg.recipient)
      this.created.add(msg.recipient)
      return
    }
    this.lookupAccount(msg.codeAddress)
    this.lookupDelegate(msg.codeAddress)
  }

  exit(_result: FrameResult, _error: string | undefined, _output: Uint8Array): void {}

  log(): void {}

  selfDestruct(addr: bigint, beneficiary: bigint): void {
    this.lookupAccount(beneficiary)
    if (!this.cancun || this.created.has(addr)) this.deleted.add(addr)
  }

  account(addr: bigint): void {
    this.lookupAccount(addr)
  }

  slot(addr: bigint, slot: bigint): void {
    if (this.config.disableStorage) return
    this.lookupAccount(addr)
    const storage = this.pre.get(addr)!.storage!
    if (!storage.has(slot)) storage.set(slot, this.world!.getStorage(addr, slot))
  }

  txEnd(_result: TxResult): void {
    if (this.config.diffMode) this.diff()
    if (this.config.includeEmpty) return
    for (const [addr, account] of this.pre) if (account.empty) this.pre.delete(addr)
  }

  result(): unknown {
    const pre = stateJson(this.pre)
    return this.config.diffMode ? { post: stateJson(this.post), pre } : pre
  }

  private lookupDelegate(addr: bigint): void {
    if (!this.prague) return
    const target = parseDelegation(this.world!.getCode(addr))
    if (target !== undefined) this.lookupAccount(target)
  }

  private lookupAccount(addr: bigint): void {
    if (this.pre.has(addr)) return
    const world = this.world!
    const code = world.getCode(addr)
    const codeHash = world.getCodeHash(addr)
    const balance = world.getBalance(addr)
    const nonce = world.getNonce(addr)
    this.pre.set(addr, {
      balance,
      code: code.length > 0 && !this.config.disableCode ? code : undefined,
      codeHash: codeHash !== 0n && codeHash !== EMPTY_CODE_HASH ? codeHash : undefined,
      nonce,
      storage: this.config.disableStorage ? undefined : new Map(),
      empty: nonce === 0n && code.length === 0 && balance === 0n,
    })
  }

  /** geth's processDiffState: keep in `pre` and `post` only what the transaction changed. */
  private diff(): void {
    const world = this.world!
    for (const [addr, before] of this.pre) {
      if (this.deleted.has(addr)) continue
      let modified = false
      const after: Account = { balance: undefined, code: undefined, codeHash: undefined, nonce: 0n, storage: new Map(), empty: false }
      const balance = world.getBalance(addr)
      if (balance !== before.balance) {
        modified = true
        after.balance = balance
      }
      const nonce = world.getNonce(addr)
      if (nonce !== before.nonce) {
        modified = true
        after.nonce = nonce
      }
      // An account gone at the end (EIP-161) reads as geth's unfinalised state does: present and empty.
      const codeHash = world.getCodeHash(addr) === 0n ? EMPTY_CODE_HASH : world.getCodeHash(addr)
      if (codeHash !== (before.codeHash ?? EMPTY_CODE_HASH)) {
        modified = true
        after.codeHash = codeHash
      }
      if (!this.config.disableCode) {
        const code = world.getCode(addr)
        if (!sameBytes(code, before.code)) {
          modified = true
          after.code = code
        }
      }
      if (!this.config.disableStorage && before.storage !== undefined) {
        for (const [slot, value] of before.storage) {
          if (value === 0n) before.storage.delete(slot)
          const now = world.getStorage(addr, slot)
          if (now === value) before.storage.delete(slot)
          else {
            modified = true
            if (now !== 0n) after.storage!.set(slot, now)
          }
        }
      }
      if (modified) this.post.set(addr, after)
      else this.pre.delete(addr)
    }
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array | undefined): boolean {
  const other = b ?? EMPTY
  if (a.length !== other.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== other[i]) return false
  return true
}
const EMPTY = new Uint8Array(0)

function stateJson(state: ReadonlyMap<bigint, Account>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [addr, a] of state) {
    const json: Record<string, unknown> = {}
    if (a.balance !== undefined) json.balance = quantity(a.balance)
    if (a.code !== undefined) json.code = data(a.code)
    if (a.codeHash !== undefined) json.codeHash = hash(a.codeHash)
    if (a.nonce !== 0n) json.nonce = Number(a.nonce)
    if (a.storage !== undefined && a.storage.size > 0) {
      const storage: Record<string, string> = {}
      for (const [slot, value] of a.storage) storage[hash(slot)] = hash(value)
      json.storage = storage
    }
    out[address(addr)] = json
  }
  return out
}
