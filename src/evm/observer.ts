/**
 * Optional per-execution additions a caller may give our EVM (ExecutionContext / TxOptions): an observer of
 * frames, value moves, logs and (optionally) state reads, and a precompile table that replaces the fork's
 * (eth_simulateV1's `movePrecompileToAddress`). Both are absent on the ordinary path, where the host checks
 * one field per frame or log and nothing else runs; an observer without `state` changes nothing else either
 * (the transaction picks the state-observing host once, only when `state` is given).
 *
 * Observer semantics (geth's tracer hooks OnEnter / OnExit / OnLog and the lookups of its prestate tracer):
 * - `enter` is called for every frame, the transaction's own included, before the host's depth, balance and
 *   nonce checks (so a frame that fails those is entered and left at once). For a create, `msg.recipient` (and
 *   `codeAddress`) is the address it deploys to.
 * - `exit` after it, with the frame's result and `error`, geth's word for why the frame's changes were undone:
 *   undefined on success (and for a Frontier creation that could not pay its code deposit, which geth does not
 *   count as reverted), 'execution reverted', the halt reason, or the refusal of a frame that did not run
 *   ('max call depth exceeded', 'insufficient balance for transfer', 'nonce uint64 overflow'). `output` is the
 *   frame's return data, and for a successful create the code it deployed.
 * - A frame's value moves from caller to recipient when `msg.transfersValue` and the kind is Call, Create or
 *   Create2.
 * - `selfDestruct` reports every SELFDESTRUCT that runs (its gas paid), a zero balance included, inside its
 *   frame; `log` every log, inside its frame.
 * - `state` (optional) hears the state an opcode reads by address: `account` for BALANCE, SELFBALANCE,
 *   EXTCODESIZE, EXTCODECOPY (a non-empty copy), EXTCODEHASH and the balance SELFDESTRUCT prices with; `slot`
 *   for SLOAD and SSTORE, before the write. Each is called before the read, so the observer may read the
 *   current value itself from the WorldState.
 *
 * Ownership: everything an observer is handed is borrowed. `msg.input` of a call is a view of the caller's
 * pooled memory and `output` may be one too: both are overwritten once the frame (or its caller) moves on, so
 * an observer that keeps bytes past the call it was handed them in must copy them. Log data and topics are the
 * log's own (kept in the transaction's logs); an observer must not change any of it. An observer never
 * changes state, gas or results: it only looks.
 */

import type { Rules } from './fork.ts'
import type { FrameResult, Message, Precompile } from './types.ts'

export interface FrameObserver {
  enter(msg: Message): void
  exit(result: FrameResult, error: string | undefined, output: Uint8Array): void
  log(address: bigint, topics: readonly bigint[], data: Uint8Array): void
  selfDestruct(address: bigint, beneficiary: bigint, balance: bigint): void
  /** State reads by opcode (prestate tracing); absent for observers that only follow frames. */
  readonly state?: StateReadObserver
}

/** The state an opcode is about to read, by address (see the design comment). */
export interface StateReadObserver {
  account(address: bigint): void
  slot(address: bigint, slot: bigint): void
}

/** geth's words for a frame that did not run. */
export const REFUSED_DEPTH = 'max call depth exceeded'
export const REFUSED_BALANCE = 'insufficient balance for transfer'
export const REFUSED_NONCE = 'nonce uint64 overflow'
/** geth's word for a frame ended by REVERT. */
export const EXECUTION_REVERTED = 'execution reverted'

/** A precompile table replacing the fork's: address -> precompile (the set warmed per transaction stays the fork's). */
export type PrecompileTable = ReadonlyMap<bigint, Precompile>

/** The fork's precompile at `address` unless a table replaces the fork's. */
export type PrecompileLookup = (address: bigint, rules: Rules) => Precompile | undefined
