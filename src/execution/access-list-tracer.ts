/**
 * eth_createAccessList's tracer, after geth's AccessListTracer (eth/tracers/logger/access_list_tracer.go):
 * it records what the executed opcodes touch, not what the EVM happened to warm.
 *
 * - SLOAD / SSTORE: the slot, under the account whose storage runs (the frame's address), always, even when
 *   that account is excluded: a called contract's own slots stay in the list.
 * - BALANCE, EXTCODESIZE, EXTCODECOPY, EXTCODEHASH, SELFDESTRUCT (stack top) and CALL, CALLCODE,
 *   DELEGATECALL, STATICCALL (second item): the address, unless excluded (the sender, the recipient or the
 *   created address, the active precompiles, the authorities of valid authorizations; the caller decides).
 * - The list it starts from (the previous round's) keeps its entries, except excluded addresses.
 * An opcode is recorded before its gas is charged, so one that then runs out of gas is still recorded, as
 * geth's OnOpcode sees it. The output is sorted by address, each address's slots ascending.
 *
 * The hooks wrap entries of one EVM's own opcode table (the library builds a table per EVM; the entry shape
 * is pinned to @ethereumjs/evm 10.1.3, like simulate/evm-hooks.ts): the gas handler of opcodes with dynamic
 * gas (all of the above on every fork), else the handler. They are installed the first time an EVM traces
 * and are inert while no tracer is bound, so give tracing its own VMs (node/ keeps a separate VmPool):
 * a table must be wrapped before its first run, since the jump-analysis cache keeps its entries.
 */

import type { Common } from '@ethereumjs/common'
import { getActivePrecompiles } from '@ethereumjs/evm'
import { bigIntToUnpaddedBytes, eoaCode7702RecoverAuthority } from '@ethereumjs/util'
import { bytesToHex, leftPad } from '../primitives/hex.ts'
import type { AccessListEntry, AuthorizationView } from '../chain/types.ts'

interface RunStateLike {
  readonly stack: { readonly length: number; peek(n?: number): bigint[] }
  readonly interpreter: { getAddress(): { readonly bytes: Uint8Array } }
}

type Handler = (runState: RunStateLike, ...rest: unknown[]) => unknown

interface OpEntry {
  readonly opcodeInfo: { readonly dynamicGas: boolean }
  readonly opHandler: Handler
  readonly gasHandler: Handler
}

interface EvmInternals {
  readonly _opcodeMap: (OpEntry | undefined)[]
}

const SLOT_OPS = [0x54, 0x55] // SLOAD, SSTORE
const ADDRESS_OPS = [0x31, 0x3b, 0x3c, 0x3f, 0xff] // BALANCE, EXTCODESIZE, EXTCODECOPY, EXTCODEHASH, SELFDESTRUCT
const CALL_OPS = [0xf1, 0xf2, 0xf4, 0xfa] // CALL, CALLCODE, DELEGATECALL, STATICCALL

const MASK_160 = (1n << 160n) - 1n

const word = (v: bigint, bytes: number): string => `0x${v.toString(16).padStart(bytes * 2, '0')}`

export class AccessListTracer {
  /** Address (0x-hex) -> its slots (0x-hex, 32 bytes). */
  private readonly list = new Map<string, Set<string>>()

  /** `excluded`: 0x-hex lower-case addresses recorded only through their slots. */
  constructor(
    initial: readonly AccessListEntry[],
    private readonly excluded: ReadonlySet<string>,
  ) {
    for (const e of initial) {
      const address = bytesToHex(e.address)
      if (excluded.has(address)) continue
      const slots = this.addAddress(address)
      for (const k of e.storageKeys) slots.add(bytesToHex(leftPad(k, 32)))
    }
  }

  private addAddress(address: string): Set<string> {
    let slots = this.list.get(address)
    if (slots === undefined) this.list.set(address, (slots = new Set()))
    return slots
  }

  /** One opcode of those listed above, before it runs (its operands still on the stack, top first). */
  onOpcode(op: number, rs: RunStateLike): void {
    const depth = rs.stack.length
    if (SLOT_OPS.includes(op)) {
      if (depth >= 1) this.addAddress(bytesToHex(rs.interpreter.getAddress().bytes)).add(word(rs.stack.peek(1)[0]!, 32))
    } else if (CALL_OPS.includes(op)) {
      if (depth >= 5) this.touch(rs.stack.peek(2)[1]!)
    } else if (depth >= 1) {
      this.touch(rs.stack.peek(1)[0]!)
    }
  }

  private touch(item: bigint): void {
    const address = word(item & MASK_160, 20)
    if (!this.excluded.has(address)) this.addAddress(address)
  }

  /** The list, sorted as geth sorts it. */
  entries(): AccessListEntry[] {
    return [...this.list.keys()].sort().map((address) => ({
      address: hexBytes(address),
      storageKeys: [...this.list.get(address)!].sort().map(hexBytes),
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

function hexBytes(hex: string): Uint8Array {
  const out = new Uint8Array((hex.length - 2) / 2)
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 + i * 2, 4 + i * 2), 16)
  return out
}

/** The tracer bound to each hooked EVM while it runs a traced call. */
const bound = new WeakMap<object, { tracer: AccessListTracer | undefined }>()
/** Opcode tables already wrapped (a rebuilt table is wrapped again). */
const wrappedTables = new WeakSet<object>()

function install(evm: EvmInternals): { tracer: AccessListTracer | undefined } {
  let slot = bound.get(evm)
  if (slot === undefined) bound.set(evm, (slot = { tracer: undefined }))
  const table = evm._opcodeMap
  if (wrappedTables.has(table)) return slot
  wrappedTables.add(table)
  const binding = slot
  for (const op of [...SLOT_OPS, ...ADDRESS_OPS, ...CALL_OPS]) {
    const entry = table[op]
    if (entry === undefined) continue
    const field = entry.opcodeInfo.dynamicGas ? 'gasHandler' : 'opHandler'
    const original = entry[field]
    const wrapped: Handler = (rs, ...rest) => {
      binding.tracer?.onOpcode(op, rs)
      return original(rs, ...rest)
    }
    table[op] = { ...entry, [field]: wrapped }
  }
  return slot
}

/** Runs `fn` (one call on `evm`) with `tracer` recording its opcodes. */
export async function traceAccessList<T>(evm: unknown, tracer: AccessListTracer, fn: () => Promise<T>): Promise<T> {
  const slot = install(evm as EvmInternals)
  slot.tracer = tracer
  try {
    return await fn()
  } finally {
    slot.tracer = undefined
  }
}

const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
const MAX_UINT64 = (1n << 64n) - 1n

export interface ExclusionInput {
  readonly common: Common
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
export function excludedAddresses(input: ExclusionInput): Set<string> {
  const out = new Set<string>([bytesToHex(input.from), bytesToHex(input.to)])
  for (const key of getActivePrecompiles(input.common).keys()) out.add(`0x${key.replace(/^0x/, '').padStart(40, '0').toLowerCase()}`)
  const chainId = input.common.chainId()
  for (const a of input.authorizations ?? []) {
    if ((a.chainId !== 0n && a.chainId !== chainId) || a.nonce >= MAX_UINT64) continue
    if (a.yParity > 1n || a.r < 1n || a.r >= SECP256K1_N || a.s < 1n || a.s > SECP256K1_N / 2n) continue
    try {
      const authority = eoaCode7702RecoverAuthority([
        bigIntToUnpaddedBytes(a.chainId),
        a.address,
        bigIntToUnpaddedBytes(a.nonce),
        bigIntToUnpaddedBytes(a.yParity),
        bigIntToUnpaddedBytes(a.r),
        bigIntToUnpaddedBytes(a.s),
      ])
      out.add(bytesToHex(authority.bytes))
    } catch {
      // geth skips an authorization whose authority does not recover.
    }
  }
  return out
}
