/**
 * eth_simulateV1: runs a request's blocks one after another on top of a base block, without committing
 * anything, and returns each built block with its call results.
 *
 * Order of work (geth's): request limits -> the base block (`header not found` when it does not exist) ->
 * block numbers and timestamps (gaps filled) -> per block: header from its parent, state overrides,
 * system calls, the calls in order, the finished block. The first call that cannot be included ends the
 * request with its code. All blocks share one state view (writes of one block are the next block's
 * state), one gas budget for every call, and one deadline.
 *
 * Everything runs on our EVM (sim-block.ts); a block's state is the request's state so far (the base with
 * the earlier blocks' changes as an overlay; a block's changes are taken only when a later block or a state
 * root needs them). The state root is 32 zero bytes unless `computeStateRoot` is set (the contract's
 * default); the block hash always follows from the header as built. BLOCKHASH sees the canonical chain
 * below the base, the base itself and the blocks simulated so far. Calls run synchronously; between calls
 * the event loop is let in every 20 ms. A meter, when given, adds each call's gas and EVM time (the calls
 * only: not the blocks' system calls).
 */

import type { BlockHeader } from '@ethereumjs/block'
import type { ChainStore } from '../chain/chain-store.ts'
import type { BlockView } from '../chain/types.ts'
import { chainBlockHash } from '../execution/evm-env.ts'
import type { EvmMeter } from '../execution/evm-meter.ts'
import { ExecutionTimeout } from '../evm/types.ts'
import type { ChainRules } from '../execution/chain-config.ts'
import { FlashnodeError } from '../errors/errors.ts'
import { ExecutionDeadlineExceeded } from '../state/journaled-state.ts'
import { BaseReaders } from './read-cache.ts'
import { StateRoots } from './state-roots.ts'
import { OverlayReader } from '../state/overlay-reader.ts'
import type { StateReader } from '../state/state-reader.ts'
import { SystemCallMemo } from '../evm/system-call-memo.ts'
import { EMPTY_DIFF, mergeDiffs, type StateDiff } from '../state/state-diff.ts'
import type { StateRootResult } from '../state/state-root.ts'
import type { SimulationBase } from './base.ts'
import { checkLimits, planChain } from './chain-plan.ts'
import { SIM_CODES, simError } from './errors.ts'
import { headerFields, headerTemplates, type HeaderTemplate } from './headers.ts'
import { callTransactionView } from './call-args.ts'
import type { FinishedHeader } from './sim-header.ts'
import { SimBlock, type IncludedCall } from './sim-block.ts'
import { blockSize } from './block-size.ts'
import type { SimulatedBlock, SimulatePayload, SimulateSettings } from './types.ts'

/** How long a simulation runs calls before it lets the event loop in. */
const YIELD_EVERY_MS = 20

export interface SimulatorDeps {
  readonly rules: ChainRules
  /** Canonical block hashes below the base. */
  readonly chain: ChainStore
  readonly settings: SimulateSettings
}

export class Simulator {
  /** Reads of the newest bases, shared by the simulations on them (read-cache.ts). */
  private readonly bases = new BaseReaders(4)
  /** The system calls remembered on each of those bases (evm/system-call-memo.ts). */
  private readonly systemCalls = new WeakMap<StateReader, SystemCallMemo>()

  constructor(private readonly deps: SimulatorDeps) {}

  /** `base` is asked for only once the request is within limits (it throws for an unknown block). */
  async simulate(payload: SimulatePayload, base: () => SimulationBase, meter?: EvmMeter): Promise<SimulatedBlock[]> {
    const { settings } = this.deps
    checkLimits(payload, settings)
    const b = base()
    const baseState = this.bases.of(b.identity, b.state)
    const plan = planChain(payload.blockStateCalls, { number: b.header.number, timestamp: b.header.timestamp }, settings.maxBlocks)
    const templates = headerTemplates(plan, b.header, this.deps.rules)
    const roots = settings.computeStateRoot ? new StateRoots(b.roots) : undefined
    const simulated = new Map<bigint, Uint8Array>()
    const blockHash = chainBlockHash(this.deps.chain, (n) => (n === b.header.number ? b.hash : simulated.get(n)))
    const deadline = Date.now() + settings.timeoutMs
    let lastYield = Date.now()
    /** What the blocks simulated so far changed. */
    let changes: StateDiff = EMPTY_DIFF
    const results: SimulatedBlock[] = []
    let budget = settings.gasBudget
    let parent = b.header
    let parentHash = b.hash
    try {
      for (let i = 0; i < plan.length; i++) {
        const p = plan[i]!
        const common = this.deps.rules.at(p.number, p.time)
        const opFork = this.deps.rules.opFork(p.number, p.time)
        let root: StateRootResult | undefined
        const reader = changes === EMPTY_DIFF ? baseState : new OverlayReader(baseState, changes)
        // The first block reads the base itself, so its system calls may be the ones remembered there.
        const systemCalls = reader === baseState ? this.memoOf(baseState) : undefined
        const block = await SimBlock.open({
          common,
          ...(opFork !== undefined ? { opFork } : {}),
          state: reader,
          blockHash,
          deadline,
          ...(roots === undefined
            ? {}
            : {
                stateRoot: async (diff: StateDiff) => {
                  root = await roots.compute(diff)
                  return root.root
                },
              }),
          header: headerFields(templates[i]!, parent, parentHash, common, payload.validation, this.deps.rules.op),
          template: templates[i]!,
          stateOverrides: p.stateOverrides,
          traceTransfers: payload.traceTransfers,
          validation: payload.validation,
          revertCode: settings.revertCode,
          ...(meter !== undefined ? { meter } : {}),
          ...(systemCalls !== undefined ? { systemCalls } : {}),
        })
        for (const call of p.calls) {
          const now = Date.now()
          if (now > deadline) throw new ExecutionDeadlineExceeded()
          if (now - lastYield > YIELD_EVERY_MS) {
            // Our EVM runs a call synchronously: let the worker's other requests in between calls.
            await new Promise<void>((resolve) => setImmediate(resolve))
            lastYield = Date.now()
          }
          const included = block.run(call, budget)
          if (included.result.gasUsed > budget) {
            throw simError(SIM_CODES.generic, `RPC gas cap exhausted: need ${included.result.gasUsed}, remaining ${budget}`)
          }
          budget -= included.result.gasUsed
        }
        const built = await block.finish()
        if (root !== undefined) roots?.advance(root)
        if (i < plan.length - 1) changes = mergeDiffs(changes, built.diff())
        const { hash } = built.header
        simulated.set(p.number, hash)
        results.push({ block: blockView(built.header, built.withdrawals, templates[i]!, block.included), calls: block.included.map((c) => c.result) })
        if (i < plan.length - 1) parent = built.header.libraryHeader()
        parentHash = hash
      }
    } catch (e) {
      if (e instanceof ExecutionTimeout || e instanceof ExecutionDeadlineExceeded || (e instanceof Error && e.cause instanceof ExecutionDeadlineExceeded)) {
        throw simError(SIM_CODES.clientLimitExceeded, `execution aborted (timeout = ${formatSeconds(settings.timeoutMs)})`)
      }
      if (e instanceof FlashnodeError) throw e
      throw new FlashnodeError('internal', `simulation failed: ${e instanceof Error ? e.message : String(e)}`, { cause: e })
    }
    return results
  }

  private memoOf(base: StateReader): SystemCallMemo {
    let memo = this.systemCalls.get(base)
    if (memo === undefined) {
      memo = new SystemCallMemo()
      this.systemCalls.set(base, memo)
    }
    return memo
  }
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`
}

/** The view of a simulated block: its header, its calls as unsigned transactions (call-args.ts), its size. */
function blockView(header: FinishedHeader, withdrawals: readonly Uint8Array[] | undefined, template: HeaderTemplate, included: readonly IncludedCall[]): BlockView {
  return {
    header: { hash: header.hash, ...header.fields },
    transactions: included.map((c) => callTransactionView(c.call, c.sender, c)),
    uncleHashes: [],
    ...(template.withdrawals !== undefined ? { withdrawals: template.withdrawals } : {}),
    size: blockSize(header.rlp, included.map((c) => ({ type: c.call.type, serialized: c.serialized })), withdrawals),
  }
}
