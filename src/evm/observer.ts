/**
 * Optional per-execution additions a caller may give our EVM (ExecutionContext / TxOptions): an observer of
 * frames, value moves and logs, and a precompile table that replaces the fork's (eth_simulateV1's
 * `movePrecompileToAddress`). Both are absent on the ordinary path, where the host checks one field and
 * nothing else runs.
 *
 * Observer semantics (geth's tracer hooks OnEnter / OnExit / OnLog): `enter` is called for every frame,
 * the transaction's own included, before the host's depth, balance and nonce checks (so a frame that fails
 * those is entered and left at once); `exit` after it, with `reverted` true when the frame's changes were
 * undone (revert or halt). A frame's value moves from caller to recipient when `msg.transfersValue` and the
 * kind is Call, Create or Create2. For a create, `msg.recipient` is the address it deploys to. A
 * SELFDESTRUCT that moves a non-zero balance is reported by `selfDestruct` inside its frame; logs by `log`.
 */

import type { Rules } from './fork.ts'
import type { Message, Precompile } from './types.ts'

export interface FrameObserver {
  enter(msg: Message): void
  exit(reverted: boolean): void
  log(address: bigint, topics: readonly bigint[], data: Uint8Array): void
  selfDestruct(address: bigint, beneficiary: bigint, balance: bigint): void
}

/** A precompile table replacing the fork's: address -> precompile (the set warmed per transaction stays the fork's). */
export type PrecompileTable = ReadonlyMap<bigint, Precompile>

/** The fork's precompile at `address` unless a table replaces the fork's. */
export type PrecompileLookup = (address: bigint, rules: Rules) => Precompile | undefined
