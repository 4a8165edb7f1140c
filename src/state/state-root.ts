/**
 * State roots: applies a diff to the persisted Merkle-Patricia tries and hashes the result.
 *
 * Runs only where a root is needed (importing a block, sealing a block, the simulate setting that computes
 * real roots), never on the read path. For each touched account: its storage trie is opened at the base
 * storage root (empty when the diff wiped it), the changed slots are applied, and the account leaf is
 * rewritten with the new storage root; deleted accounts are removed. The result carries the final accounts
 * (with correct storage roots, as the archive stores them) and the new trie nodes, to be committed with the
 * block.
 */

import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { RLP } from '@ethereumjs/rlp'
import { Account, KECCAK256_RLP, ValueEncoding } from '@ethereumjs/util'
import type { KvStore } from '../storage/db.ts'
import { equalBytes, hexToBytes } from '../primitives/hex.ts'
import { BufferedTrieDb } from './trie-db.ts'
import { touchedAddresses, type StateDiff } from './state-diff.ts'
import type { StateReader } from './state-reader.ts'

export interface StateRootResult {
  readonly root: Uint8Array
  /** Final value of every touched account (null = absent), storage roots included. */
  readonly accounts: ReadonlyMap<string, Account | null>
  readonly trieDb: BufferedTrieDb
}

export const EMPTY_TRIE_ROOT = KECCAK256_RLP

function openTrie(db: BufferedTrieDb, root: Uint8Array): MerklePatriciaTrie {
  return new MerklePatriciaTrie({ db, root, useKeyHashing: true, valueEncoding: ValueEncoding.Bytes })
}

export async function computeStateRoot(
  store: KvStore,
  parentRoot: Uint8Array,
  base: StateReader,
  diff: StateDiff,
): Promise<StateRootResult> {
  const db = new BufferedTrieDb(store)
  const accountTrie = openTrie(db, parentRoot)
  const finals = new Map<string, Account | null>()
  const addresses = [...touchedAddresses(diff)].sort()
  for (const addrHex of addresses) {
    const address = hexToBytes(addrHex)
    const baseAccount = base.getAccount(address)
    const next = diff.accounts.has(addrHex) ? diff.accounts.get(addrHex)! : (baseAccount ?? null)
    if (next === null) {
      finals.set(addrHex, null)
      if (baseAccount !== undefined) await accountTrie.del(address)
      continue
    }
    const wiped = diff.wiped.has(addrHex)
    let storageRoot = wiped ? EMPTY_TRIE_ROOT : (baseAccount?.storageRoot ?? EMPTY_TRIE_ROOT)
    const slots = diff.storage.get(addrHex)
    if (slots !== undefined && slots.size > 0) {
      const storageTrie = openTrie(db, storageRoot)
      for (const [slotHex, value] of [...slots].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        const slot = hexToBytes(slotHex)
        if (value.length === 0) await storageTrie.del(slot)
        else await storageTrie.put(slot, RLP.encode(value))
      }
      storageRoot = storageTrie.root()
    }
    const account = new Account(next.nonce, next.balance, storageRoot, next.codeHash)
    finals.set(addrHex, account)
    if (baseAccount === undefined || !equalBytes(account.serialize(), baseAccount.serialize())) {
      await accountTrie.put(address, account.serialize())
    }
  }
  return { root: accountTrie.root(), accounts: finals, trieDb: db }
}
