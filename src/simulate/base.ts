/**
 * The block a simulation builds on: its header (the first simulated block's parent), its hash, the state
 * after it, and where real state roots start from (used only when that setting is on).
 *
 * A sealed block is itself. `pending` is the open, pre-confirmed block: its header is the open block's
 * environment with the gas and blob gas used so far (so the next block's base fee and excess blob gas
 * follow from it), its hash is that header's hash (the block has no final hash yet), its state is the
 * pre-confirmed state, and roots start from the sealed parent's trie with the pre-confirmed changes on top.
 * A pending base is made from the snapshot's state as plain data (preconf/state.ts, PreconfirmedState), so
 * an execution worker holding a replica of the snapshot builds the same one. A base's identity says when two
 * are the same state: a sealed block's hash, or the one PreconfirmedState object of a snapshot (replica).
 */

import { createBlockHeader, type BlockHeader } from '@ethereumjs/block'
import type { KvStore } from '../storage/db.ts'
import type { PreconfirmedState } from '../preconf/state.ts'
import { bytesToHex } from '../primitives/hex.ts'
import { ArchiveReader } from '../state/archive-reader.ts'
import type { StateReader } from '../state/state-reader.ts'
import type { RootOrigin } from './state-roots.ts'

export interface SimulationBase {
  readonly header: BlockHeader
  readonly hash: Uint8Array
  readonly state: StateReader
  readonly roots: RootOrigin
  /** Equal for two bases exactly when they are the same immutable state (reads of it may be shared). */
  readonly identity: unknown
}

/** The base header of a pending base and its hash, made once per snapshot state. */
const baseHeaders = new WeakMap<PreconfirmedState, { readonly header: BlockHeader; readonly hash: Uint8Array }>()

export function sealedBase(kv: KvStore, header: BlockHeader, state: StateReader = new ArchiveReader(kv, header.number)): SimulationBase {
  const hash = header.hash()
  return { header, hash, state, roots: { store: kv, root: header.stateRoot, state }, identity: bytesToHex(hash) }
}

/** `state` is the pre-confirmed state (the parent's with `p.diff` on top: preconf/state.ts). */
export function pendingBase(kv: KvStore, p: PreconfirmedState, state: StateReader): SimulationBase {
  let made = baseHeaders.get(p)
  if (made === undefined) {
    const env = p.header
    const header = createBlockHeader(
      { ...env.toJSON(), gasUsed: p.gasUsed, ...(env.common.isActivatedEIP(4844) ? { blobGasUsed: p.blobGasUsed } : {}) },
      { common: env.common, skipConsensusFormatValidation: true },
    )
    made = { header, hash: header.hash() }
    baseHeaders.set(p, made)
  }
  return {
    header: made.header,
    hash: made.hash,
    state,
    roots: { store: kv, root: p.parentStateRoot, state: new ArchiveReader(kv, p.parentNumber), unrooted: p.diff },
    identity: p,
  }
}
