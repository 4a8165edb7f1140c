/**
 * Remembered system calls: the effect of a block's system call (system-call.ts) on one base state, applied
 * again without running the contract when another block on the same base makes the same call.
 *
 * Why: every eth_simulateV1 request opens and finishes a block on the same base (the newest block), and its
 * four Prague system calls (EIP-4788, EIP-2935 at the start; EIP-7002, EIP-7251 at the end) ran the
 * contracts each time: ~13% of a one-call simulation's execution.
 *
 * When a remembered effect is exact: the published contracts (system-contracts.ts) read nothing but their
 * own storage, the calldata, the caller and the block's number and timestamp. So the effect of a call is a
 * function of (address, calldata, number, timestamp) and of the contract's storage, provided that
 *   - the contract at the address is the published code (its code hash), and
 *   - the WorldState's base is the memo's base (the caller's promise: one memo per base state) and nothing
 *     run on that WorldState has changed the contract's account or storage (`unchangedFromBase`).
 * An effect is recorded only when the call changed nothing but the contract's own slots (journal check:
 * `transactionWroteOnlyStorageOf`), and applied as those slots' final values written in a transaction of
 * their own, so the WorldState ends exactly as after the call (its diff, its original values). Any other
 * call runs as usual. Bounded: at most `maxEntries` effects per memo (block overrides make new keys).
 */

import { bytesToBigInt, hexToBytes } from '../primitives/hex.ts'
import { keccak256 } from '../primitives/keccak.ts'
import type { Rules } from './fork.ts'
import { SYSTEM_CONTRACTS } from './system-contracts.ts'
import type { SystemCallResult } from './system-call.ts'
import type { BlockEnv } from './types.ts'
import type { WorldState } from './world-state.ts'

/** Address -> code hash of the published system contracts. */
const PUBLISHED = new Map<bigint, bigint>(SYSTEM_CONTRACTS.map((c) => [BigInt(c.address), bytesToBigInt(keccak256(hexToBytes(c.code)))]))

/** A slot the call wrote: its value in the base and after the call. */
interface Write {
  readonly slot: bigint
  readonly base: bigint
  readonly value: bigint
}

interface Effect {
  readonly ok: boolean
  readonly output: Uint8Array
  readonly hasCode: boolean
  readonly writes: readonly Write[]
}

/** What a remembered call is known by (compared field by field: no string is built per call). */
export interface CallKey {
  readonly to: bigint
  readonly number: bigint
  readonly timestamp: bigint
  readonly data: Uint8Array
}

function sameCall(a: CallKey, b: CallKey): boolean {
  if (a.to !== b.to || a.number !== b.number || a.timestamp !== b.timestamp || a.data.length !== b.data.length) return false
  for (let i = 0; i < a.data.length; i++) if (a.data[i] !== b.data[i]) return false
  return true
}

export class SystemCallMemo {
  /** Few (four calls per block shape), so a scan beats hashing a key. */
  private readonly effects: { readonly key: CallKey; readonly effect: Effect }[] = []
  /** Whether the base holds the published code at a system address (read once per memo: per base). */
  private readonly published = new Map<bigint, boolean>()
  /** Calls answered from a remembered effect (tests and measurements look). */
  hits = 0

  constructor(private readonly maxEntries = 32) {}

  /**
   * The key of a call whose effect may be remembered or applied on `world`, or undefined when the call
   * must run (not a published contract, or its account changed on this WorldState).
   */
  keyOf(world: WorldState, block: BlockEnv, to: bigint, data: Uint8Array): CallKey | undefined {
    if (!PUBLISHED.has(to) || !world.unchangedFromBase(to)) return undefined
    // unchanged here, so the world's code hash is the base's
    let published = this.published.get(to)
    if (published === undefined) this.published.set(to, (published = world.getCodeHash(to) === PUBLISHED.get(to)))
    return published ? { to, number: block.number, timestamp: block.timestamp, data } : undefined
  }

  /** Applies the remembered effect of `key` to `world`, or returns undefined when there is none. */
  apply(world: WorldState, rules: Rules, key: CallKey): SystemCallResult | undefined {
    const effect = this.effects.find((e) => sameCall(e.key, key))?.effect
    if (effect === undefined) return undefined
    world.beginTransaction()
    // the contract is unchanged on this world (keyOf), so the base values recorded are this world's too
    for (const w of effect.writes) world.setStorageOverBase(key.to, w.slot, w.base, w.value)
    world.endTransaction(rules.spuriousDragon)
    this.hits++
    return { ok: effect.ok, output: effect.output.slice(), logs: [], hasCode: effect.hasCode }
  }

  /**
   * Called inside the system call's transaction, after the contract ran and before the transaction ends:
   * remembers its effect under `key` when it changed only the contract's storage.
   */
  record(world: WorldState, key: CallKey, result: Omit<SystemCallResult, 'logs'>): void {
    if (this.effects.length >= this.maxEntries) return
    // undefined too when the call logged: a log is a change the journal check refuses
    const before = world.transactionWroteOnlyStorageOf(key.to)
    if (before === undefined) return
    // the contract was unchanged before this transaction (keyOf), so a slot's value before it is the base's
    const writes = [...before].map(([slot, base]) => ({ slot, base, value: world.getStorage(key.to, slot) }))
    const effect = { ok: result.ok, output: result.output.slice(), hasCode: result.hasCode, writes }
    this.effects.push({ key: { ...key, data: key.data.slice() }, effect })
  }
}
