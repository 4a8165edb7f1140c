/**
 * The block a simulation builds on: its header (the first simulated block's parent), its hash, the state
 * after it, and where real state roots start from (used only when that setting is on).
 *
 * A sealed block is itself. `pending` is the open, pre-confirmed block: its header is the open block's
 * environment with the gas and blob gas used so far (so the next block's base fee and excess blob gas
 * follow from it), its hash is that header's hash (the block has no final hash yet), its state is the
 * pre-confirmed state, and roots start from the sealed parent's trie with the pre-confirmed changes on top.
 */

import { createBlockHeader, type BlockHeader } from '@ethereumjs/block'
import type { KvStore } from '../storage/db.ts'
import type { PreconfirmedSnapshot } from '../sequencer/snapshot.ts'
import { ArchiveReader } from '../state/archive-reader.ts'
import type { StateReader } from '../state/state-reader.ts'
import type { RootOrigin } from './state-roots.ts'

export interface SimulationBase {
  readonly header: BlockHeader
  readonly hash: Uint8Array
  readonly state: StateReader
  readonly roots: RootOrigin
}

export function sealedBase(kv: KvStore, header: BlockHeader): SimulationBase {
  const state = new ArchiveReader(kv, header.number)
  return { header, hash: header.hash(), state, roots: { store: kv, root: header.stateRoot, state } }
}

export function pendingBase(kv: KvStore, snapshot: PreconfirmedSnapshot, state: StateReader): SimulationBase {
  const env = snapshot.header
  const blobGasUsed = snapshot.transactions.reduce((n, t) => n + (t.receipt.blobGasUsed ?? 0n), 0n)
  const header = createBlockHeader(
    { ...env.toJSON(), gasUsed: snapshot.gasUsed, ...(env.common.isActivatedEIP(4844) ? { blobGasUsed } : {}) },
    { common: env.common, skipConsensusFormatValidation: true },
  )
  const parent = snapshot.parent
  return {
    header,
    hash: header.hash(),
    state,
    roots: { store: kv, root: parent.stateRoot, state: new ArchiveReader(kv, parent.number), unrooted: snapshot.diff },
  }
}
