/**
 * The system work of a simulated block on our EVM, as geth's simulator does it: at the start the EIP-4788
 * beacon root and the EIP-2935 parent hash, at the end the EIP-7685 requests (EIP-6110 deposits from the
 * block's logs, the EIP-7002 and EIP-7251 queues) and their hash. The calls themselves are the EVM's system
 * calls (src/evm/system-call.ts: from 0xff…fe, no fee or nonce, 30,000,000 gas, nothing traced).
 *
 * The opening calls and the requests hash are execution/block-execution.ts's, the same code for blocks built,
 * imported and simulated (re-exported here). What is the simulator's own: unlike an imported block, a
 * simulation on a chain without the queue contracts is not an error: an absent queue contract or a failed
 * queue call gives an empty request, as the library's block builder did.
 */

import type { Common } from '@ethereumjs/common'
import type { Rules } from '../evm/fork.ts'
import { CONSOLIDATION_QUEUE_ADDRESS, runSystemCall, WITHDRAWAL_QUEUE_ADDRESS } from '../evm/system-call.ts'
import type { SystemCallMemo } from '../evm/system-call-memo.ts'
import type { BlockEnv, Log } from '../evm/types.ts'
import type { WorldState } from '../evm/world-state.ts'
import { depositRequests, withType } from '../execution/deposit-requests.ts'

export { openBlock, requestsHash } from '../execution/block-execution.ts'

export { BEACON_ROOTS_ADDRESS, HISTORY_STORAGE_ADDRESS, runSystemCall, SYSTEM_ADDRESS } from '../evm/system-call.ts'

const EMPTY = new Uint8Array(0)

/** The block's EIP-7685 requests (type byte ‖ data, empty ones included), or undefined before Prague. */
export function blockRequests(world: WorldState, block: BlockEnv, rules: Rules, common: Common, logs: readonly Log[], memo?: SystemCallMemo): Uint8Array[] | undefined {
  if (!rules.prague) return undefined
  // OP Stack: no EIP-7685 requests (specs isthmus/exec-engine.md, "Block Sealing"), as block-execution.ts.
  if (rules.op !== undefined) return []
  const requests: Uint8Array[] = []
  requests.push(depositRequests(common, logs))
  requests.push(withType(1, queueCall(world, block, rules, WITHDRAWAL_QUEUE_ADDRESS, memo)))
  requests.push(withType(2, queueCall(world, block, rules, CONSOLIDATION_QUEUE_ADDRESS, memo)))
  return requests
}

function queueCall(world: WorldState, block: BlockEnv, rules: Rules, to: bigint, memo: SystemCallMemo | undefined): Uint8Array {
  if (!world.exists(to)) return EMPTY
  const r = runSystemCall(world, block, rules, to, EMPTY, memo)
  return r.ok ? r.output : EMPTY
}


