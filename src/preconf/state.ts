/**
 * THE one place a reader of pre-confirmed state is built: the sealed parent's archived state with the
 * snapshot's diff on top. Every reader of pre-confirmed state gets its reader here: the feed (for the
 * facade, admission and the pool), the sequencer, the inline executor and an execution worker's replica.
 *
 * A snapshot's state in plain data (`PreconfirmedState`: the open block's environment, the gas and blob gas
 * used so far, the parent and the diff) is what an execution worker holds as its replica (wire.ts) and what
 * a simulation builds on (simulate/base.ts). It is made once per snapshot, so what is derived from it (a
 * simulation's base header) is made once too, and its identity stands for the snapshot's.
 * Invariants: a reader never changes what it reads (snapshots are immutable and the parent is sealed); it
 * is cheap to build (no copy of the diff), so callers build one per request rather than share one.
 */

import type { BlockHeader } from '@ethereumjs/block'
import type { KvStore } from '../storage/db.ts'
import { ArchiveReader } from '../state/archive-reader.ts'
import { OverlayReader } from '../state/overlay-reader.ts'
import type { StateDiff } from '../state/state-diff.ts'
import type { StateReader } from '../state/state-reader.ts'
import type { PreconfirmedSnapshot } from './snapshot.ts'

/** A snapshot's state and environment as plain data. */
export interface PreconfirmedState {
  /** The open block's environment. */
  readonly header: BlockHeader
  readonly gasUsed: bigint
  readonly blobGasUsed: bigint
  readonly parentNumber: bigint
  readonly parentStateRoot: Uint8Array
  /** The pre-confirmed changes on top of the parent's state. */
  readonly diff: StateDiff
}

const made = new WeakMap<PreconfirmedSnapshot, PreconfirmedState>()

/** One object per snapshot (so what is made of it is made once). */
export function preconfirmedState(snapshot: PreconfirmedSnapshot): PreconfirmedState {
  let data = made.get(snapshot)
  if (data === undefined) {
    data = {
      header: snapshot.header,
      gasUsed: snapshot.gasUsed,
      blobGasUsed: snapshot.blobGasUsed,
      parentNumber: snapshot.parent.number,
      parentStateRoot: snapshot.parent.stateRoot,
      diff: snapshot.diff,
    }
    made.set(snapshot, data)
  }
  return data
}

/** A reader of the pre-confirmed state: the parent's state (block `parentNumber`) with `diff` on top. */
export function preconfirmedReader(kv: KvStore, p: { readonly parentNumber: bigint; readonly diff: StateDiff }): StateReader {
  return new OverlayReader(new ArchiveReader(kv, p.parentNumber), p.diff)
}

/** A reader of a snapshot's state. */
export function snapshotReader(kv: KvStore, snapshot: PreconfirmedSnapshot): StateReader {
  return preconfirmedReader(kv, { parentNumber: snapshot.parent.number, diff: snapshot.diff })
}
