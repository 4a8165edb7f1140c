/**
 * The block a simulation builds on: its header (the first simulated block's parent), its hash, the state
 * after it, and where real state roots start from (used only when that setting is on).
 *
 * A sealed block is itself. `pending` is the open, pre-confirmed block: its header is the open block's
 * environment with the gas and blob gas used so far (so the next block's base fee and excess blob gas
 * follow from it), its hash is that header's hash (the block has no final hash yet), its state is the
 * pre-confirmed state, and roots start from the sealed parent's trie with the pre-confirmed changes on top.
 * A pending base is made from plain data (PendingBaseData), so an execution worker holding a replica of
 * the snapshot builds the same one. A base's identity says when two are the same state: a sealed block's
 * hash, or the one PendingBaseData object of a snapshot (replica).
 */

import { createBlockHeader, type BlockHeader } from '@ethereumjs/block'
import type { KvStore } from '../storage/db.ts'
import type { PreconfirmedSnapshot } from '../sequencer/snapshot.ts'
import { bytesToHex } from '../primitives/hex.ts'
import { ArchiveReader } from '../state/archive-reader.ts'
import type { StateDiff } from '../state/state-diff.ts'
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

/** What a pending base is made of. */
export interface PendingBaseData {
  /** The open block's environment. */
  readonly header: BlockHeader
  readonly gasUsed: bigint
  readonly blobGasUsed: bigint
  readonly parentNumber: bigint
  readonly parentStateRoot: Uint8Array
  /** The pre-confirmed changes on top of the parent's state. */
  readonly diff: StateDiff
}

const baseData = new WeakMap<PreconfirmedSnapshot, PendingBaseData>()
/** The base header of a pending base and its hash, made once per PendingBaseData. */
const baseHeaders = new WeakMap<PendingBaseData, { readonly header: BlockHeader; readonly hash: Uint8Array }>()

/** One object per snapshot (so what is made of it is made once). */
export function pendingBaseData(snapshot: PreconfirmedSnapshot): PendingBaseData {
  let data = baseData.get(snapshot)
  if (data === undefined) {
    data = {
      header: snapshot.header,
      gasUsed: snapshot.gasUsed,
      blobGasUsed: snapshot.transactions.reduce((n, t) => n + (t.receipt.blobGasUsed ?? 0n), 0n),
      parentNumber: snapshot.parent.number,
      parentStateRoot: snapshot.parent.stateRoot,
      diff: snapshot.diff,
    }
    baseData.set(snapshot, data)
  }
  return data
}

export function sealedBase(kv: KvStore, header: BlockHeader, state: StateReader = new ArchiveReader(kv, header.number)): SimulationBase {
  const hash = header.hash()
  return { header, hash, state, roots: { store: kv, root: header.stateRoot, state }, identity: bytesToHex(hash) }
}

/** `state` is the pre-confirmed state (the parent's with `p.diff` on top). */
export function pendingBase(kv: KvStore, p: PendingBaseData, state: StateReader): SimulationBase {
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
