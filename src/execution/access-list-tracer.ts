/**
 * eth_createAccessList's recorder, after geth's AccessListTracer (eth/tracers/logger/access_list_tracer.go):
 * the accounts and slots a call accesses, as our EVM warms them (EIP-2929).
 *
 * AccessRecordingWorld is a WorldState that tells the tracer every account and slot the execution warms,
 * whether or not it was warm already and whether or not the frame that warmed it later reverts (the warm
 * sets themselves are journaled; geth's tracer, too, keeps what a reverted frame touched). What the
 * transaction warms before its code runs is not an access of the code: the coinbase (EIP-3651) and the
 * recipient's delegate (EIP-7702) are skipped the first time; the sender, the recipient and the precompiles
 * are excluded anyway, and the call's own access list is the tracer's starting list.
 *
 * - A slot is recorded under its account always, even when that account is excluded (a called contract's
 *   own slots stay in the list).
 * - An account is recorded unless excluded (the sender, the recipient or the created address, the active
 *   precompiles, the authorities of valid authorizations: excludedAddresses).
 * - The list it starts from (the previous round's) keeps its entries, except excluded addresses.
 * The output is sorted by address, each address's slots ascending.
 */

import { bigIntToFixedBytes, bytesToBigInt } from '../primitives/hex.ts'
import type { AccessListEntry, AuthorizationView } from '../chain/types.ts'
import type { Rules } from '../evm/fork.ts'
import { precompileAddresses } from '../evm/precompiles/registry.ts'
import { recoverAuthority } from '../evm/transaction.ts'
import { WorldState } from '../evm/world-state.ts'
import type { StateReader } from '../state/state-reader.ts'

export class AccessListTracer {
  /** Address -> its slots. */
  private readonly list = new Map<bigint, Set<bigint>>()

  /** `excluded`: addresses recorded only through their slots. */
  constructor(
    initial: readonly AccessListEntry[],
    private readonly excluded: ReadonlySet<bigint>,
  ) {
    for (const e of initial) {
      const address = bytesToBigInt(e.address)
      if (excluded.has(address)) continue
      const slots = this.addAddress(address)
      for (const k of e.storageKeys) slots.add(bytesToBigInt(k))
    }
  }

  private addAddress(address: bigint): Set<bigint> {
    let slots = this.list.get(address)
    if (slots === undefined) this.list.set(address, (slots = new Set()))
    return slots
  }

  recordAccount(address: bigint): void {
    if (!this.excluded.has(address)) this.addAddress(address)
  }

  recordSlot(address: bigint, slot: bigint): void {
    this.addAddress(address).add(slot)
  }

  /** The list, sorted as geth sorts it. */
  entries(): AccessListEntry[] {
    return [...this.list.keys()]
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      .map((address) => ({
        address: bigIntToFixedBytes(address, 20),
        storageKeys: [...this.list.get(address)!].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map((k) => bigIntToFixedBytes(k, 32)),
      }))
  }

  /** Same addresses and, for each, the same slots. */
  equals(other: AccessListTracer): boolean {
    if (this.list.size !== other.list.size) return false
    for (const [address, slots] of this.list) {
      const theirs = other.list.get(address)
      if (theirs === undefined || theirs.size !== slots.size) return false
      for (const s of slots) if (!theirs.has(s)) return false
    }
    return true
  }
}

/** A WorldState that reports every account and slot warmed to a tracer (see the top comment). */
export class AccessRecordingWorld extends WorldState {
  /** Addresses the transaction warms once before its code runs: not recorded that first time. */
  private readonly preWarmed = new Set<bigint>()

  constructor(
    base: StateReader,
    private readonly tracer: AccessListTracer,
    ...preWarmed: (bigint | undefined)[]
  ) {
    super(base)
    for (const a of preWarmed) if (a !== undefined) this.preWarmed.add(a)
  }

  /** Also skip the first warming of `address` (the recipient's delegate, known once the recipient's code is). */
  skipFirstWarming(address: bigint): void {
    this.preWarmed.add(address)
  }

  override warmAccount(address: bigint): boolean {
    if (this.preWarmed.has(address)) this.preWarmed.delete(address)
    else this.tracer.recordAccount(address)
    return super.warmAccount(address)
  }

  override warmSlot(address: bigint, slot: bigint): boolean {
    this.tracer.recordSlot(address, slot)
    return super.warmSlot(address, slot)
  }
}

const MAX_UINT64 = (1n << 64n) - 1n

export interface ExclusionInput {
  readonly rules: Rules
  readonly chainId: bigint
  readonly from: Uint8Array
  /** The recipient, or for a creation the address it creates. */
  readonly to: Uint8Array
  readonly authorizations?: readonly AuthorizationView[]
}

/**
 * geth's addressesToExclude: the sender, the recipient (or created address), the fork's active precompiles,
 * and the authority of every authorization that could apply (chain id 0 or this chain's, a nonce below
 * 2^64-1, a signature that recovers with geth's checks: yParity 0 or 1, r and s in range, s in the lower half).
 */
export function excludedAddresses(input: ExclusionInput): Set<bigint> {
  const out = new Set<bigint>([bytesToBigInt(input.from), bytesToBigInt(input.to), ...precompileAddresses(input.rules)])
  for (const a of input.authorizations ?? []) {
    if ((a.chainId !== 0n && a.chainId !== input.chainId) || a.nonce >= MAX_UINT64) continue
    const authority = recoverAuthority({ chainId: a.chainId, address: bytesToBigInt(a.address), nonce: a.nonce, yParity: a.yParity, r: a.r, s: a.s })
    if (authority !== undefined) out.add(authority)
  }
  return out
}
