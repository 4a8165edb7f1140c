/**
 * The tries of a pre-confirmed snapshot's state, for proofs at `pending`: the sealed parent's stored tries
 * with the open block's diff applied in memory, and their root (what the block's state root would be if it
 * were sealed now, before the seal's own system operations).
 *
 * No trie exists for a flashblock: the sequencer computes a root only when it seals. So the first proof asked
 * of a snapshot applies the snapshot's whole diff (state-root.ts, as the seal does: every touched account and
 * slot, since every one of them moves sibling hashes on some path); later proofs of the same snapshot share
 * that result (one per snapshot, dropped with it). The new nodes live in a buffer that reads through to the
 * database and is never flushed: nothing here writes. The computation gives the event loop back every few
 * hundred node reads, so a large open block never holds the 200 ms cadence for long.
 */

import type { KvStore } from '../storage/db.ts'
import { ArchiveReader } from '../state/archive-reader.ts'
import type { NodeStore } from '../state/batch-trie.ts'
import { computeStateRoot } from '../state/state-root.ts'
import { BufferedTrieDb } from '../state/trie-db.ts'
import type { PreconfirmedSnapshot } from './snapshot.ts'

export interface PendingTrie {
  /** The state root of the snapshot's state. */
  readonly root: Uint8Array
  /** The parent's nodes and the snapshot's new ones. */
  readonly nodes: NodeStore
}

/** Node reads between two turns of the event loop. */
const READS_PER_TURN = 256

/** A trie buffer that yields to the event loop every READS_PER_TURN reads (the database reads are synchronous). */
class YieldingTrieDb extends BufferedTrieDb {
  private reads = 0

  override async get(key: string): Promise<Uint8Array | undefined> {
    if (++this.reads % READS_PER_TURN === 0) await new Promise<void>((resolve) => setImmediate(resolve))
    return super.get(key)
  }
}

const made = new WeakMap<PreconfirmedSnapshot, Promise<PendingTrie>>()

/** The snapshot's tries, computed on first use and shared by every later request for the same snapshot. */
export function pendingTrie(kv: KvStore, snapshot: PreconfirmedSnapshot): Promise<PendingTrie> {
  let trie = made.get(snapshot)
  if (trie === undefined) {
    trie = build(kv, snapshot)
    made.set(snapshot, trie)
    trie.catch(() => made.delete(snapshot))
  }
  return trie
}

async function build(kv: KvStore, snapshot: PreconfirmedSnapshot): Promise<PendingTrie> {
  const db = new YieldingTrieDb(kv)
  const result = await computeStateRoot(kv, snapshot.parent.stateRoot, new ArchiveReader(kv, snapshot.parent.number), snapshot.diff, db)
  return { root: result.root, nodes: db }
}
