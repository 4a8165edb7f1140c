/**
 * A system call: a message from the system address 0xff…fe to a system contract, as a block's opening and
 * closing work makes it (EIP-4788 beacon root, EIP-2935 parent hash, EIP-7002 and EIP-7251 request queues).
 *
 * It is a message, not a transaction: 30,000,000 gas, no fee, no nonce bump, no value (so the system
 * address is neither touched nor created and EIP-161 never cleans it up), its own warm sets, its state
 * changes kept unless it fails, and none of its gas counted in the block. An address without code runs
 * nothing and succeeds with empty output: whether that is a no-op (4788, 2935) or an invalid block (7002,
 * 7251) is the caller's decision.
 */

import type { Rules } from './fork.ts'
import { TransactionHost } from './frames.ts'
import { MessageKind, Status, type BlockEnv, type ExecutionContext, type Log } from './types.ts'
import type { SystemCallMemo } from './system-call-memo.ts'
import type { WorldState } from './world-state.ts'

export const SYSTEM_ADDRESS = 0xfffffffffffffffffffffffffffffffffffffffen
export const BEACON_ROOTS_ADDRESS = 0x000f3df6d732807ef1319fb7b8bb8522d0beac02n
export const HISTORY_STORAGE_ADDRESS = 0x0000f90827f1c53a10cb7a02335b175320002935n
export const WITHDRAWAL_QUEUE_ADDRESS = 0x00000961ef480eb55e80d19ad83579a64c007002n
export const CONSOLIDATION_QUEUE_ADDRESS = 0x0000bbddc7ce488642fb579f8b00f3a590007251n
export const SYSTEM_CALL_GAS = 30_000_000

export interface SystemCallResult {
  /** The call succeeded (false: reverted or halted; its changes are undone). */
  readonly ok: boolean
  readonly output: Uint8Array
  readonly logs: readonly Log[]
  /** Whether the callee had code (a call to an address without code runs nothing). */
  readonly hasCode: boolean
}

/**
 * One call from the system address to `to` with `data`; its changes stay when it succeeds. With a memo
 * (system-call-memo.ts: one per base state, and `world` must read that base), a call it remembers is applied
 * without running, and one it may remember is recorded.
 */
export function runSystemCall(world: WorldState, block: BlockEnv, rules: Rules, to: bigint, data: Uint8Array, memo?: SystemCallMemo): SystemCallResult {
  const key = memo?.keyOf(world, block, to, data)
  if (key !== undefined) {
    const remembered = memo!.apply(world, rules, key)
    if (remembered !== undefined) return remembered
  }
  const hasCode = world.getCode(to).length > 0
  world.beginTransaction()
  try {
    const ctx: ExecutionContext = { rules, block, tx: { origin: SYSTEM_ADDRESS, gasPrice: 0n, blobHashes: [] } }
    if (rules.berlin) {
      world.warmAccount(SYSTEM_ADDRESS)
      world.warmAccount(to)
    }
    const result = new TransactionHost(world, ctx).call({
      kind: MessageKind.Call,
      caller: SYSTEM_ADDRESS,
      recipient: to,
      codeAddress: to,
      value: 0n,
      transfersValue: true,
      input: data,
      gas: SYSTEM_CALL_GAS,
      depth: 0,
      isStatic: false,
    })
    const ok = result.status === Status.Success
    if (key !== undefined) memo!.record(world, key, { ok, output: result.output, hasCode })
    const logs = world.endTransaction(rules.spuriousDragon)
    return { ok, output: result.output, logs, hasCode }
  } catch (e) {
    world.discardTransaction()
    throw e
  }
}
