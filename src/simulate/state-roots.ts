/**
 * Real state roots for a chain of simulated blocks, computed incrementally: each block's root is its own
 * changes applied to the previous block's trie, so a long simulation costs what its blocks change, not
 * (blocks x everything changed so far).
 *
 * The tries of the simulated blocks live only here: the nodes computeStateRoot creates are kept in memory
 * and read before the database, and the final accounts it reports (with their storage roots) stand in for
 * the base state's accounts in the next block. Nothing is written to the database.
 *
 * The origin is a sealed root with its state, plus changes already on top of it that have no root of
 * their own (the pre-confirmed block's, when simulating on `pending`); they go into the first block's root.
 */

import type { Account } from '@ethereumjs/util'
import { bytesToHex, hexToBytes } from '../primitives/hex.ts'
import { computeStateRoot, type StateRootResult } from '../state/state-root.ts'
import { mergeDiffs, type StateDiff } from '../state/state-diff.ts'
import type { StateReader } from '../state/state-reader.ts'
import type { KvStore } from '../storage/db.ts'
import { keys } from '../storage/keys.ts'

export interface RootOrigin {
  readonly store: KvStore
  /** A root whose trie is in the store, and the state it commits to. */
  readonly root: Uint8Array
  readonly state: StateReader
  /** Changes on top of that state without a root of their own. */
  readonly unrooted?: StateDiff
}

export class StateRoots {
  private root: Uint8Array
  private unrooted: StateDiff | undefined
  private readonly accounts = new Map<string, Account | null>()
  /** Trie nodes created so far, by their database key (hex). */
  private readonly nodes = new Map<string, Uint8Array>()
  private readonly store: KvStore
  private readonly state: StateReader

  constructor(private readonly origin: RootOrigin) {
    this.root = origin.root
    this.unrooted = origin.unrooted
    const nodes = this.nodes
    const db = origin.store
    // Only trie nodes are read through it (state-root.ts's trie db).
    this.store = Object.assign(Object.create(db) as KvStore, { get: (key: Uint8Array) => nodes.get(bytesToHex(key)) ?? db.get(key) })
    const accounts = this.accounts
    this.state = {
      getAccount: (address) => {
        const key = bytesToHex(address)
        if (!accounts.has(key)) return origin.state.getAccount(address)
        return accounts.get(key) ?? undefined
      },
      getStorage: (address, slot) => origin.state.getStorage(address, slot),
      getCode: (hash) => origin.state.getCode(hash),
    }
  }

  /** The root after the blocks so far and then `changes` (the current block's, up to now). */
  compute(changes: StateDiff): Promise<StateRootResult> {
    const diff = this.unrooted === undefined ? changes : mergeDiffs(this.unrooted, changes)
    return computeStateRoot(this.store, this.root, this.state, diff)
  }

  /** Makes a block's final root the base of the next one. */
  advance(result: StateRootResult): void {
    for (const [hash, node] of result.trieDb.pending) this.nodes.set(bytesToHex(keys.trie(hexToBytes(`0x${hash}`))), node)
    for (const [address, account] of result.accounts) this.accounts.set(address, account)
    this.root = result.root
    this.unrooted = undefined
  }
}
