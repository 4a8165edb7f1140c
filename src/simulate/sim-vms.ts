/**
 * Reusable VMs for simulated blocks. Building a VM (opcode tables, precompiles) costs more than running a
 * simple block, so idle VMs are kept per fork and lent out one block at a time. A lent VM runs on
 * forwarders plugged into the block's own state and block-hash source, carries the simulation hooks
 * (installed once, evm-hooks.ts) bound to the block's tracer, and takes the block's precompile table.
 *
 * A VM comes back only after its block was built (its journal is then closed); one whose block failed is
 * dropped. The pool is this module's own: no other user sees the hooked opcode tables.
 *
 * The block-end system calls of every VM of a fork go through that fork's SystemCallMemo (replayed when
 * their recorded reads still hold, system-call-memo.ts).
 */

import type { Common, StateManagerInterface } from '@ethereumjs/common'
import type { EVMResult, EVMRunCallOpts } from '@ethereumjs/evm'
import { StateForwarder } from '../execution/state-forwarder.ts'
import { createVM, type VM } from '@ethereumjs/vm'
import type { BlockHashSource } from '../execution/block-hashes.ts'
import { EvmHooks } from './evm-hooks.ts'
import type { SimPrecompiles } from './overrides.ts'
import type { SimState } from './sim-state.ts'
import type { TransferTracer } from './transfer-tracer.ts'
import { SystemCallMemo } from './system-call-memo.ts'

class HashForwarder implements BlockHashSource {
  current!: BlockHashSource
  getBlock(n: number): Promise<{ hash(): Uint8Array }> {
    return this.current.getBlock(n)
  }
  async putBlock(): Promise<void> {}
  shallowCopy(): BlockHashSource {
    return this
  }
}

/** A VM lent for one block. */
export class SimVm {
  private precompiles: SimPrecompiles | undefined
  private current: SimState | undefined

  private constructor(
    readonly common: Common,
    readonly vm: VM,
    readonly hooks: EvmHooks,
    private readonly state: StateForwarder<StateManagerInterface>,
    private readonly hashes: HashForwarder,
  ) {}

  static async create(common: Common, memo: SystemCallMemo): Promise<SimVm> {
    const state = new StateForwarder<StateManagerInterface>()
    const hashes = new HashForwarder()
    // A private copy of the Common: the EVM subscribes to its Common's events for good (see vm-pool.ts).
    const vm = await createVM({ common: common.copy(), stateManager: state, blockchain: hashes })
    const sim = new SimVm(common, vm, new EvmHooks(vm.evm, common.gteHardfork('homestead')), state, hashes)
    const evm = vm.evm
    const run = evm.runCall.bind(evm)
    const host = {
      forwarder: state,
      state: () => sim.current!,
      journal: evm.journal,
      isPrecompile: (a: string) => sim.precompiles?.has(a) === true,
    }
    evm.runCall = (opts: EVMRunCallOpts): Promise<EVMResult> =>
      !sim.hooks.active && memo.isSystemCall(opts) ? memo.call(opts, host, run) : run(opts)
    return sim
  }

  bind(state: SimState, hashes: BlockHashSource, precompiles: SimPrecompiles, tracer: TransferTracer): void {
    // A block starts with the library's journal empty, as on a fresh VM: what the previous block (perhaps
    // another simulation's) left touched is not this one's to clean up (geth finalises a block at its end).
    this.vm.evm.journal.cleanJournal()
    this.state.current = this.current = state
    this.hashes.current = hashes
    this.precompiles = precompiles
    Object.assign(this.vm.evm, { _precompiles: precompiles })
    this.hooks.bind(state, tracer)
  }
}

const MAX_IDLE_PER_FORK = 4

export class SimVmPool {
  private readonly idle = new Map<Common, SimVm[]>()
  private readonly memos = new Map<Common, SystemCallMemo>()

  async acquire(common: Common): Promise<SimVm> {
    const idle = this.idle.get(common)?.pop()
    if (idle !== undefined) return idle
    let memo = this.memos.get(common)
    if (memo === undefined) {
      memo = new SystemCallMemo(common)
      this.memos.set(common, memo)
    }
    return SimVm.create(common, memo)
  }

  /** Only for a VM whose block was built. */
  release(vm: SimVm): void {
    let list = this.idle.get(vm.common)
    if (list === undefined) {
      list = []
      this.idle.set(vm.common, list)
    }
    if (list.length < MAX_IDLE_PER_FORK) list.push(vm)
  }
}
