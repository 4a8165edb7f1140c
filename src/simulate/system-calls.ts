/**
 * The system work of a simulated block on our EVM, as geth's simulator does it: at the start the EIP-4788
 * beacon root and the EIP-2935 parent hash, at the end the EIP-7685 requests (EIP-6110 deposits from the
 * block's logs, the EIP-7002 and EIP-7251 queues) and their hash. The calls themselves are the EVM's system
 * calls (src/evm/system-call.ts: from 0xff…fe, no fee or nonce, 30,000,000 gas, nothing traced).
 *
 * Unlike an imported block, a simulation on a chain without the queue contracts is not an error: an absent
 * queue contract or a failed queue call gives an empty request, as the library's block builder did.
 */

import { createHash } from 'node:crypto'
import type { Common } from '@ethereumjs/common'
import type { Rules } from '../evm/fork.ts'
import {
  BEACON_ROOTS_ADDRESS,
  CONSOLIDATION_QUEUE_ADDRESS,
  HISTORY_STORAGE_ADDRESS,
  runSystemCall,
  WITHDRAWAL_QUEUE_ADDRESS,
} from '../evm/system-call.ts'
import type { BlockEnv, Log } from '../evm/types.ts'
import type { WorldState } from '../evm/world-state.ts'
import { depositRequests, withType } from '../execution/deposit-requests.ts'

export { BEACON_ROOTS_ADDRESS, HISTORY_STORAGE_ADDRESS, runSystemCall, SYSTEM_ADDRESS } from '../evm/system-call.ts'

const EMPTY = new Uint8Array(0)

/** The block's opening system calls: beacon root (Cancun), parent hash (Prague). */
export function openBlock(world: WorldState, block: BlockEnv, rules: Rules, beaconRoot: Uint8Array | undefined, parentHash: Uint8Array): void {
  if (rules.cancun && beaconRoot !== undefined) runSystemCall(world, block, rules, BEACON_ROOTS_ADDRESS, beaconRoot)
  if (rules.prague) runSystemCall(world, block, rules, HISTORY_STORAGE_ADDRESS, parentHash)
}

/** The block's EIP-7685 requests (type byte ‖ data, empty ones included), or undefined before Prague. */
export function blockRequests(world: WorldState, block: BlockEnv, rules: Rules, common: Common, logs: readonly Log[]): Uint8Array[] | undefined {
  if (!rules.prague) return undefined
  const requests: Uint8Array[] = []
  requests.push(depositRequests(common, logs))
  requests.push(withType(1, queueCall(world, block, rules, WITHDRAWAL_QUEUE_ADDRESS)))
  requests.push(withType(2, queueCall(world, block, rules, CONSOLIDATION_QUEUE_ADDRESS)))
  return requests
}

/** sha256 of nothing: the requests hash of a block whose requests are all empty (nearly every block). */
const NO_REQUESTS_HASH = new Uint8Array(createHash('sha256').digest())

/** EIP-7685: sha256 of the sha256 of each non-empty request. */
export function requestsHash(requests: readonly Uint8Array[]): Uint8Array {
  if (requests.every((r) => r.length <= 1)) return NO_REQUESTS_HASH.slice()
  const outer = createHash('sha256')
  for (const r of requests) if (r.length > 1) outer.update(createHash('sha256').update(r).digest())
  return new Uint8Array(outer.digest())
}

function queueCall(world: WorldState, block: BlockEnv, rules: Rules, to: bigint): Uint8Array {
  if (!world.exists(to)) return EMPTY
  const r = runSystemCall(world, block, rules, to, EMPTY)
  return r.ok ? r.output : EMPTY
}


