/**
 * A block's state root computed as its changes arrive: each flashblock's diff is applied to the tries as it
 * comes (`apply`), so the root at the seal costs only the seal's own changes (`finish`). The result is the
 * one computeStateRoot (state-root.ts) gives for the merged diff: the same root, the same final accounts, and
 * the same new trie nodes to store.
 *
 * The same semantics as the one-shot computation, kept step by step: an account's value is the last one a
 * diff set (else the parent's); its storage root is the parent's, or empty from its last wipe on, with every
 * later slot applied, whether or not the account ends deleted; a deleted account leaves the account trie if
 * it is there. Tries are canonical, so the final tries equal the one-shot ones whatever the order of steps.
 *
 * The nodes that later steps replaced are never stored: `finish` keeps only the buffered nodes reachable from
 * the final root (through the account trie's leaves into storage tries); every other node either is in the
 * database already or belongs to an intermediate trie.
 */

import { RLP } from '@ethereumjs/rlp'
import { Account } from '@ethereumjs/util'
import { bytesToHex, equalBytes, hexToBytes } from '../primitives/hex.ts'
import { keccak256 } from '../primitives/keccak.ts'
import type { KvStore } from '../storage/db.ts'
import { applyTrieUpdates, type TrieUpdate } from './batch-trie.ts'
import { touchedAddresses, type StateDiff } from './state-diff.ts'
import type { StateReader } from './state-reader.ts'
import { EMPTY_TRIE_ROOT, type StateRootResult } from './state-root.ts'
import { BufferedTrieDb } from './trie-db.ts'

interface Tracked {
  /** The account's value as the diffs left it (null: deleted), without its storage root. */
  value: Account | null
  storageRoot: Uint8Array
  /** Its leaf in the account trie now (undefined: not in the trie). */
  leaf: Uint8Array | undefined
}

export class IncrementalStateRoot {
  private readonly db: BufferedTrieDb
  private root: Uint8Array
  private readonly tracked = new Map<string, Tracked>()
  private finished = false

  constructor(
    private readonly store: KvStore,
    parentRoot: Uint8Array,
    private readonly base: StateReader,
  ) {
    this.db = new BufferedTrieDb(store)
    this.root = parentRoot
  }

  /** Applies one diff (the next flashblock's, or the seal's) on top of those applied so far. */
  async apply(diff: StateDiff): Promise<void> {
    if (this.finished) throw new Error('state root already finished')
    const updates: TrieUpdate[] = []
    for (const addrHex of [...touchedAddresses(diff)].sort()) {
      const t = this.track(addrHex)
      if (diff.accounts.has(addrHex)) t.value = diff.accounts.get(addrHex)!
      if (diff.wiped.has(addrHex)) t.storageRoot = EMPTY_TRIE_ROOT
      const slots = diff.storage.get(addrHex)
      if (slots !== undefined && slots.size > 0) {
        const slotUpdates: TrieUpdate[] = []
        for (const [slotHex, value] of slots) slotUpdates.push({ key: keccak256(hexToBytes(slotHex)), value: value.length === 0 ? null : RLP.encode(value) })
        t.storageRoot = await applyTrieUpdates(this.db, t.storageRoot, slotUpdates)
      }
      const leaf = finalAccount(t)?.serialize()
      if (leaf === t.leaf || (leaf !== undefined && t.leaf !== undefined && equalBytes(leaf, t.leaf))) continue
      updates.push({ key: keccak256(hexToBytes(addrHex)), value: leaf ?? null })
      t.leaf = leaf
    }
    this.root = await applyTrieUpdates(this.db, this.root, updates)
  }

  /** The root after every diff applied, the final accounts, and the new nodes to store with the block. */
  finish(): StateRootResult {
    this.finished = true
    const accounts = new Map<string, Account | null>()
    for (const [addrHex, t] of this.tracked) accounts.set(addrHex, finalAccount(t))
    const kept = new BufferedTrieDb(this.store)
    keepReachable(this.db.pending, this.root, true, kept.pending)
    return { root: this.root, accounts, trieDb: kept }
  }

  private track(addrHex: string): Tracked {
    let t = this.tracked.get(addrHex)
    if (t === undefined) {
      const parent = this.base.getAccount(hexToBytes(addrHex))
      t = { value: parent ?? null, storageRoot: parent?.storageRoot ?? EMPTY_TRIE_ROOT, leaf: parent?.serialize() }
      this.tracked.set(addrHex, t)
    }
    return t
  }
}

/** The account as the diffs left it, with its storage root (null: deleted). */
function finalAccount(t: Tracked): Account | null {
  return t.value === null ? null : new Account(t.value.nonce, t.value.balance, t.storageRoot, t.value.codeHash)
}

type Raw = Uint8Array | Raw[]

/**
 * Copies into `out` every node of `buffered` reachable from `root` (a node's key: its unprefixed-hex hash).
 * In the account trie (`accounts`), a leaf's value is an account whose storage root is walked as well.
 */
function keepReachable(buffered: ReadonlyMap<string, Uint8Array>, root: Uint8Array, accounts: boolean, out: Map<string, Uint8Array>): void {
  const key = bytesToHex(root).slice(2)
  const node = buffered.get(key)
  if (node === undefined || out.has(key)) return
  out.set(key, node)
  walk(RLP.decode(node) as Raw, accounts, buffered, out)
}

function walk(raw: Raw, accounts: boolean, buffered: ReadonlyMap<string, Uint8Array>, out: Map<string, Uint8Array>): void {
  if (!Array.isArray(raw)) return
  const child = (ref: Raw): void => {
    if (Array.isArray(ref)) walk(ref, accounts, buffered, out)
    else if (ref.length === 32) keepReachable(buffered, ref, accounts, out)
  }
  if (raw.length === 17) {
    for (let i = 0; i < 16; i++) child(raw[i]!)
    return
  }
  const leaf = (raw[0] as Uint8Array)[0]! >> 4 >= 2
  if (!leaf) return child(raw[1]!)
  if (!accounts) return
  const fields = RLP.decode(raw[1] as Uint8Array) as Uint8Array[]
  keepReachable(buffered, fields[2]!, false, out)
}
