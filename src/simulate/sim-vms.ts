/**
 * Reusable VMs for simulated blocks. Building a VM (opcode tables, precompiles) costs more than running a
 * simple block, so idle VMs are kept per fork and lent out one block at a time. A lent VM runs on
 * forwarders plugged into the block's own state and block-hash source, carries the simulation hooks
 * (installed once, evm-hooks.ts) bound to the block's tracer, and takes the block's precompile table.
 *
 * A VM comes back only after its block was built (its journal is then closed); one whose block failed is
 * dropped. The pool is this module's own: no other user sees the hooked opcode tables.
 */

import type { Common } from '@ethereumjs/common'
import { StateForwarder } from '../execution/state-forwarder.ts'
import { createVM, type VM } from '@ethereumjs/vm'
import type { BlockHashSource } from '../execution/block-hashes.ts'
import { EvmHooks } from './evm-hooks.ts'
import type { SimPrecompiles } from './overrides.ts'
import type { SimState } from './sim-state.ts'
import type { TransferTracer } from './transfer-tracer.ts'


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
  private constructor(
    readonly common: Common,
    readonly vm: VM,
    readonly hooks: EvmHooks,
    private readonly state: StateForwarder<SimState>,
    private readonly hashes: HashForwarder,
  ) {}

  static async create(common: Common): Promise<SimVm> {
    const state = new StateForwarder<SimState>()
    const hashes = new HashForwarder()
    // A private copy of the Common: the EVM subscribes to its Common's events for good (see vm-pool.ts).
    const vm = await createVM({ common: common.copy(), stateManager: state, blockchain: hashes })
    return new SimVm(common, vm, new EvmHooks(vm.evm, common.gteHardfork('homestead')), state, hashes)
  }

  bind(state: SimState, hashes: BlockHashSource, precompiles: SimPrecompiles, tracer: TransferTracer): void {
    this.state.current = state
    this.hashes.current = hashes
    Object.assign(this.vm.evm, { _precompiles: precompiles })
    this.hooks.bind(state, tracer)
  }
}

const MAX_IDLE_PER_FORK = 4

export class SimVmPool {
  private readonly idle = new Map<Common, SimVm[]>()

  async acquire(common: Common): Promise<SimVm> {
    return this.idle.get(common)?.pop() ?? SimVm.create(common)
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
