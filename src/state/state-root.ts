/**
 * State roots: applies a diff to the persisted Merkle-Patricia tries and hashes the result.
 *
 * Runs only where a root is needed (importing a block, sealing a block, the simulate setting that computes
 * real roots), never on the read path. For each touched account: its storage trie is updated from the base
 * storage root (empty when the diff wiped it) with the changed slots, and the account leaf is rewritten with
 * the new storage root; deleted accounts are removed. Each trie takes its changes as one batch
 * (batch-trie.ts): every changed node is hashed once, not once per key. The result carries the final accounts
 * (with correct storage roots, as the archive stores them) and the new trie nodes, to be committed with the
 * block.
 */

import { RLP } from '@ethereumjs/rlp'
import { Account, KECCAK256_RLP } from '@ethereumjs/util'
import { keccak256 } from '../primitives/keccak.ts'
import type { KvStore } from '../storage/db.ts'
import { hexToBytes } from '../primitives/hex.ts'
import { applyTrieUpdates, type TrieUpdate } from './batch-trie.ts'
import { BufferedTrieDb } from './trie-db.ts'
import { sameAccount, touchedAddresses, type StateDiff } from './state-diff.ts'
import type { StateReader } from './state-reader.ts'

export interface StateRootResult {
  readonly root: Uint8Array
  /** Final value of every touched account (null = absent), storage roots included. */
  readonly accounts: ReadonlyMap<string, Account | null>
  readonly trieDb: BufferedTrieDb
}

export const EMPTY_TRIE_ROOT = KECCAK256_RLP

export async function computeStateRoot(
  store: KvStore,
  parentRoot: Uint8Array,
  base: StateReader,
  diff: StateDiff,
  /** Where the new nodes go (and nodes are read through): by default a fresh buffer over `store`. */
  db: BufferedTrieDb = new BufferedTrieDb(store),
): Promise<StateRootResult> {
  const finals = new Map<string, Account | null>()
  const accountUpdates: TrieUpdate[] = []
  const addresses = [...touchedAddresses(diff)].sort()
  for (const addrHex of addresses) {
    const address = hexToBytes(addrHex)
    const baseAccount = base.getAccount(address)
    const next = diff.accounts.has(addrHex) ? diff.accounts.get(addrHex)! : (baseAccount ?? null)
    if (next === null) {
      finals.set(addrHex, null)
      if (baseAccount !== undefined) accountUpdates.push({ key: keccak256(address), value: null })
      continue
    }
    const wiped = diff.wiped.has(addrHex)
    let storageRoot = wiped ? EMPTY_TRIE_ROOT : (baseAccount?.storageRoot ?? EMPTY_TRIE_ROOT)
    const slots = diff.storage.get(addrHex)
    if (slots !== undefined && slots.size > 0) {
      const updates: TrieUpdate[] = []
      for (const [slotHex, value] of slots) updates.push({ key: keccak256(hexToBytes(slotHex)), value: value.length === 0 ? null : RLP.encode(value) })
      storageRoot = await applyTrieUpdates(db, storageRoot, updates)
    }
    const account = new Account(next.nonce, next.balance, storageRoot, next.codeHash)
    finals.set(addrHex, account)
    if (baseAccount === undefined || !sameAccount(account, baseAccount)) accountUpdates.push({ key: keccak256(address), value: account.serialize() })
  }
  const root = await applyTrieUpdates(db, parentRoot, accountUpdates)
  return { root, accounts: finals, trieDb: db }
}
