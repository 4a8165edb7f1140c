/**
 * Replays the block-end system calls of a simulated block (the EIP-7002 and EIP-7251 request contracts,
 * run by the library's block builder with `evm.runCall` from the system address) instead of running them
 * again: on a Prague chain they cost as much as the simulated calls themselves, and nearly always do the
 * same thing (the request queues are empty).
 *
 * A call is recorded once: every state-manager operation it makes, in order (reads with what they
 * returned, writes with what they wrote, checkpoints), the accounts it touched in the library's journal,
 * and its return data. Later, the same call (same fork, target, gas) is replayed by issuing the same
 * operations against the current state and comparing every read with the recorded one. The call is a
 * deterministic program of what it reads, so while the reads agree the run is the recorded run, and its
 * writes are the writes it would make; at the first read that differs, the replayed writes are reverted
 * and the call runs for real (and is recorded in turn).
 *
 * What makes a call deterministic in its state reads alone, checked before recording:
 * - its code uses only opcodes that read nothing else (no block environment, no GAS, no other frames, no
 *   transient storage: an allow-list, push data skipped); it is not a precompile and not delegated;
 * - it succeeded with gas to spare beyond what warm/cold access differences could change (the library's
 *   warm sets are not part of the recorded state);
 * - no EIP that records accesses elsewhere (block-level access lists) or meters state differently is on.
 *
 * Pinned to @ethereumjs/evm 10.1.3 like the rest of sim-vms.ts: the library's Journal keeps touched
 * accounts in `touched` (unprefixed hex) and adds them with `touchAccount`.
 */

import type { AccountFields, Common, StateManagerInterface } from '@ethereumjs/common'
import type { EVMResult, EVMRunCallOpts } from '@ethereumjs/evm'
import { Account, Address, bigIntToAddressBytes } from '@ethereumjs/util'
import { equalBytes } from '../primitives/hex.ts'
import { StateForwarder } from '../execution/state-forwarder.ts'
import type { JournaledState } from '../state/journaled-state.ts'

const EMPTY = new Uint8Array(0)

type Op =
  | { readonly m: 'getAccount'; readonly a: Address; readonly ak: string; readonly r: Account | undefined }
  | { readonly m: 'getCode'; readonly a: Address; readonly ak: string; readonly r: Uint8Array }
  | { readonly m: 'getCodeSize'; readonly a: Address; readonly ak: string; readonly r: number }
  | { readonly m: 'getStorage'; readonly a: Address; readonly ak: string; readonly k: Uint8Array; readonly r: Uint8Array }
  | { readonly m: 'original'; readonly a: Address; readonly k: Uint8Array; readonly r: Uint8Array }
  | { readonly m: 'putAccount'; readonly a: Address; readonly v: Account | undefined }
  | { readonly m: 'deleteAccount'; readonly a: Address }
  | { readonly m: 'modifyAccountFields'; readonly a: Address; readonly f: AccountFields }
  | { readonly m: 'putCode'; readonly a: Address; readonly v: Uint8Array }
  | { readonly m: 'putStorage'; readonly a: Address; readonly k: Uint8Array; readonly v: Uint8Array }
  | { readonly m: 'clearStorage'; readonly a: Address }
  | { readonly m: 'checkpoint' | 'commit' | 'revert' | 'clearOriginal' }

interface Trace {
  readonly ops: readonly Op[]
  /** Accounts the call left touched in the library's journal. */
  readonly touched: readonly string[]
  readonly returnValue: Uint8Array
  readonly gasUsed: bigint
}

/** The parts of the library's Journal this module uses. */
interface JournalInternals {
  touched: Set<string>
  touchAccount(address: string): void
}

/** Opcodes whose effect depends on nothing but the stack, memory, code, calldata and storage. */
const PURE_OPCODES = new Set<number>([
  ...range(0x00, 0x0b), // STOP .. SIGNEXTEND
  ...range(0x10, 0x1d), // LT .. SAR
  0x20, // KECCAK256
  0x30, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3d, 0x3e, // ADDRESS, CALLER, CALLVALUE, CALLDATA*, CODESIZE/COPY, RETURNDATA*
  0x50, 0x51, 0x52, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5b, 0x5e, 0x5f, // POP .. MSIZE, JUMPDEST, MCOPY, PUSH0
  ...range(0x60, 0x9f), // PUSH1..32, DUP, SWAP
  ...range(0xa0, 0xa4), // LOG0..4
  0xf3, 0xfd, 0xfe, // RETURN, REVERT, INVALID
])

/** The EIPs whose system calls run through evm.runCall at the end of a block. */
const REQUEST_EIPS = [7002, 7251]
/** EIPs under which a replay would miss an effect (access lists in the header, state gas, witnesses). */
const UNSAFE_EIPS = [2780, 7864, 7928, 8037]

/** At most this much gas per state access can differ between a warm and a cold access. */
const MAX_ACCESS_GAS = 2_600n
const TRACES_PER_CALL = 4

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i)
}

/** True when every opcode of `code` (push data skipped) is in PURE_OPCODES. */
export function isPureCode(code: Uint8Array): boolean {
  for (let pc = 0; pc < code.length; pc++) {
    const op = code[pc]!
    if (!PURE_OPCODES.has(op)) return false
    if (op >= 0x60 && op <= 0x7f) pc += op - 0x5f
  }
  return true
}

function sameAccount(a: Account | undefined, b: Account | undefined): boolean {
  if (a === undefined || b === undefined) return a === b
  return a.nonce === b.nonce && a.balance === b.balance && equalBytes(a.storageRoot, b.storageRoot) && equalBytes(a.codeHash, b.codeHash)
}

const copy = (a: Account | undefined): Account | undefined =>
  a === undefined ? undefined : new Account(a.nonce, a.balance, a.storageRoot, a.codeHash)

/** A state manager that forwards to `inner` and writes down what it was asked and what it answered. */
class Recorder extends StateForwarder<StateManagerInterface> {
  readonly ops: Op[] = []
  replayable = true
  private readonly original: StateManagerInterface['originalStorageCache']

  constructor(inner: StateManagerInterface) {
    super()
    this.current = inner
    this.original = {
      get: async (a, k) => {
        const r = await inner.originalStorageCache.get(a, k)
        this.ops.push({ m: 'original', a, k: k.slice(), r })
        return r
      },
      clear: () => {
        inner.originalStorageCache.clear()
        this.ops.push({ m: 'clearOriginal' })
      },
    }
  }

  override get originalStorageCache() {
    return this.original
  }
  override async getAccount(a: Address) {
    const r = await this.current.getAccount(a)
    this.ops.push({ m: 'getAccount', a, ak: a.toString(), r: copy(r) })
    return r
  }
  override async getCode(a: Address) {
    const r = await this.current.getCode(a)
    this.ops.push({ m: 'getCode', a, ak: a.toString(), r })
    return r
  }
  override async getCodeSize(a: Address) {
    const r = await this.current.getCodeSize(a)
    this.ops.push({ m: 'getCodeSize', a, ak: a.toString(), r })
    return r
  }
  override async getStorage(a: Address, k: Uint8Array) {
    const r = await this.current.getStorage(a, k)
    this.ops.push({ m: 'getStorage', a, ak: a.toString(), k: k.slice(), r })
    return r
  }
  override async putAccount(a: Address, v?: Account) {
    this.ops.push({ m: 'putAccount', a, v: copy(v) })
    return this.current.putAccount(a, v)
  }
  override async deleteAccount(a: Address) {
    this.ops.push({ m: 'deleteAccount', a })
    return this.current.deleteAccount(a)
  }
  override async modifyAccountFields(a: Address, f: AccountFields) {
    this.ops.push({ m: 'modifyAccountFields', a, f: { ...f } })
    return this.current.modifyAccountFields(a, f)
  }
  override async putCode(a: Address, v: Uint8Array) {
    this.ops.push({ m: 'putCode', a, v })
    return this.current.putCode(a, v)
  }
  override async putStorage(a: Address, k: Uint8Array, v: Uint8Array) {
    this.ops.push({ m: 'putStorage', a, k: k.slice(), v: v.slice() })
    return this.current.putStorage(a, k, v)
  }
  override async clearStorage(a: Address) {
    this.ops.push({ m: 'clearStorage', a })
    return this.current.clearStorage(a)
  }
  override async checkpoint() {
    this.ops.push({ m: 'checkpoint' })
    return this.current.checkpoint()
  }
  override async commit() {
    this.ops.push({ m: 'commit' })
    return this.current.commit()
  }
  override async revert() {
    this.ops.push({ m: 'revert' })
    return this.current.revert()
  }
  // Anything else the EVM might ask of a state manager is not recorded: such a run is not replayed.
  override getStateRoot(): Promise<Uint8Array> {
    this.replayable = false
    return this.current.getStateRoot()
  }
  override setStateRoot(root: Uint8Array, clearCache?: boolean): Promise<void> {
    this.replayable = false
    return this.current.setStateRoot(root, clearCache)
  }
  override hasStateRoot(root: Uint8Array): Promise<boolean> {
    this.replayable = false
    return this.current.hasStateRoot(root)
  }
  override shallowCopy(): StateManagerInterface {
    this.replayable = false
    return this.current.shallowCopy()
  }
}

/**
 * A plain read compared through the view's synchronous readers (what its async getters return, without
 * the copy): whether it answers as recorded; undefined for any other operation.
 */
function plainRead(state: JournaledState, op: Op): boolean | undefined {
  switch (op.m) {
    case 'getAccount':
      return sameAccount(state.readAccount(op.ak, op.a.bytes), op.r)
    case 'getCode':
      return equalBytes(codeOf(state, op), op.r)
    case 'getCodeSize':
      return codeOf(state, op).length === op.r
    case 'getStorage':
      return equalBytes(state.readStorage(op.ak, op.a.bytes, op.k), op.r)
    default:
      return undefined
  }
}

/** Issues `op` against `state`; false when a read answers differently than recorded. */
async function replayOp(state: JournaledState, op: Op): Promise<boolean> {
  switch (op.m) {
    case 'getAccount':
    case 'getCode':
    case 'getCodeSize':
    case 'getStorage':
      return plainRead(state, op)!
    case 'original':
      return equalBytes(await state.originalStorageCache.get(op.a, op.k), op.r)
    case 'clearOriginal':
      state.originalStorageCache.clear()
      return true
    case 'putAccount':
      await state.putAccount(op.a, copy(op.v))
      return true
    case 'deleteAccount':
      await state.deleteAccount(op.a)
      return true
    case 'modifyAccountFields':
      await state.modifyAccountFields(op.a, { ...op.f })
      return true
    case 'putCode':
      await state.putCode(op.a, op.v)
      return true
    case 'putStorage':
      await state.putStorage(op.a, op.k, op.v)
      return true
    case 'clearStorage':
      await state.clearStorage(op.a)
      return true
    case 'checkpoint':
      await state.checkpoint()
      return true
    case 'commit':
      await state.commit()
      return true
    case 'revert':
      await state.revert()
      return true
  }
}

function codeOf(state: JournaledState, op: { readonly a: Address; readonly ak: string }): Uint8Array {
  const account = state.readAccount(op.ak, op.a.bytes)
  return account === undefined ? EMPTY : state.codeByHash(account.codeHash)
}

/** What a memo needs of the VM it serves. */
export interface SystemCallHost {
  /** The state manager the EVM calls (a forwarder whose target can be swapped for a recording). */
  readonly forwarder: StateForwarder<StateManagerInterface>
  /** The block's state view (the forwarder's target outside a recording). */
  state(): JournaledState
  readonly journal: unknown
  /** True when `address` (unprefixed lower-case hex) is a precompile of the current block. */
  isPrecompile(address: string): boolean
}

/** The memo of one fork; shared by every VM of that fork (see sim-vms.ts). */
export class SystemCallMemo {
  private readonly traces = new Map<string, Trace[]>()
  /** Undefined where the fork makes no such calls (before Prague) or a replay could miss an effect. */
  private readonly systemAddress: Address | undefined
  private readonly pureCode = new WeakMap<Uint8Array, boolean>()

  constructor(common: Common) {
    const enabled = REQUEST_EIPS.some((eip) => common.isActivatedEIP(eip)) && !UNSAFE_EIPS.some((eip) => common.isActivatedEIP(eip))
    this.systemAddress = enabled ? new Address(bigIntToAddressBytes(common.param('systemAddress'))) : undefined
  }

  /** A top-level call from the system address, no value, no data, no block: the shape of a system call. */
  isSystemCall(opts: EVMRunCallOpts): boolean {
    return (
      this.systemAddress !== undefined &&
      opts.message === undefined &&
      opts.block === undefined &&
      opts.to !== undefined &&
      opts.caller !== undefined &&
      opts.caller.equals(this.systemAddress) &&
      (opts.value ?? 0n) === 0n &&
      (opts.data === undefined || opts.data.length === 0) &&
      opts.code === undefined &&
      (opts.depth ?? 0) === 0 &&
      opts.skipBalance !== true &&
      opts.skipNonceIncrement !== true
    )
  }

  /** Runs a system call: replayed when a recorded run's reads agree with `host`'s state, else run and recorded. */
  async call(opts: EVMRunCallOpts, host: SystemCallHost, run: (opts: EVMRunCallOpts) => Promise<EVMResult>): Promise<EVMResult> {
    const to = opts.to!
    const key = `${to.toString()}:${opts.gasLimit}`
    const state = host.state()
    const journal = host.journal as JournalInternals
    if (host.isPrecompile(to.toString().slice(2))) return run(opts)
    for (const trace of [...(this.traces.get(key) ?? [])]) {
      if (await replay(state, trace)) {
        for (const a of trace.touched) journal.touchAccount(a)
        return { execResult: { returnValue: trace.returnValue, executionGasUsed: trace.gasUsed, logs: [], gasRefund: 0n } } as EVMResult
      }
    }
    if (!this.isPure(await state.getCode(to))) return run(opts)
    // The run's own touches are collected apart (the journal adds only what it does not hold yet), then merged.
    const recorder = new Recorder(state)
    const touchedBefore = journal.touched
    const touched = new Set<string>()
    journal.touched = touched
    host.forwarder.current = recorder
    let result: EVMResult
    try {
      result = await run(opts)
    } finally {
      host.forwarder.current = state
      journal.touched = touchedBefore
      for (const a of touched) touchedBefore.add(a)
    }
    const exec = result.execResult
    const margin = MAX_ACCESS_GAS * BigInt(recorder.ops.length)
    if (recorder.replayable && exec.exceptionError === undefined && opts.gasLimit !== undefined && exec.executionGasUsed + margin < opts.gasLimit) {
      const list = this.traces.get(key) ?? []
      list.unshift({ ops: recorder.ops, touched: [...touched], returnValue: exec.returnValue, gasUsed: exec.executionGasUsed })
      list.length = Math.min(list.length, TRACES_PER_CALL)
      this.traces.set(key, list)
    }
    return result
  }

  private isPure(code: Uint8Array): boolean {
    let pure = this.pureCode.get(code)
    if (pure === undefined) {
      pure = code.length > 0 && isPureCode(code)
      this.pureCode.set(code, pure)
    }
    return pure
  }
}

/** Replays `trace` against `state` inside a checkpoint; undoes it and answers false at the first differing read. */
async function replay(state: JournaledState, trace: Trace): Promise<boolean> {
  await state.checkpoint()
  let depth = 1
  for (const op of trace.ops) {
    if (!(plainRead(state, op) ?? (await replayOp(state, op)))) {
      for (; depth > 0; depth--) await state.revert()
      return false
    }
    if (op.m === 'checkpoint') depth++
    else if (op.m === 'commit' || op.m === 'revert') depth--
  }
  await state.commit()
  return true
}
