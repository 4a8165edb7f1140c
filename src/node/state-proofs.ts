/**
 * eth_getProof's port: an account's EIP-1186 proof at any block the node keeps, and at `pending`.
 *
 * A port of its own (NodeApi.proofs) rather than one more member of the facade: rpc/ reaches it as
 * `node.proofs`, and tests fake it alone. A sealed block's proof walks the tries stored with it (its header's
 * stateRoot; trie nodes are never pruned, so an old block costs what the newest does). `pending` takes the
 * request's one snapshot (the block resolver) and proves against that snapshot's own state root
 * (preconf/pending-trie.ts). It never writes, and never reads the flat history tables.
 */

import { FlashnodeError } from '../errors/errors.ts'
import type { BlockId } from '../primitives/block-id.ts'
import { pendingTrie } from '../preconf/pending-trie.ts'
import { proveAccount, type AccountProof } from '../state/account-proof.ts'
import { BufferedTrieDb } from '../state/trie-db.ts'
import type { KvStore } from '../storage/db.ts'
import type { BlockResolver } from './block-resolver.ts'
import type { ChainReader } from './chain-reader.ts'

export type { AccountProof, SlotProof } from '../state/account-proof.ts'

/** The most storage keys one request may ask proofs of (geth's bound too); the caller checks it. */
export const MAX_PROOF_SLOTS = 1024

export interface StateProofs {
  /** `slots` are 32 bytes each. Throws notFound (`header not found`) when the block does not exist. */
  getProof(address: Uint8Array, slots: readonly Uint8Array[], block: BlockId): Promise<AccountProof>
}

export class ProofService implements StateProofs {
  constructor(
    private readonly kv: KvStore,
    private readonly chain: ChainReader,
    private readonly resolver: BlockResolver,
  ) {}

  async getProof(address: Uint8Array, slots: readonly Uint8Array[], id: BlockId): Promise<AccountProof> {
    const block = this.resolver.resolve(id)
    if (block.snapshot !== undefined) {
      const trie = await pendingTrie(this.kv, block.snapshot)
      return proveAccount(trie.nodes, trie.root, address, slots)
    }
    const header = this.chain.header(block.number)
    if (header === undefined) throw new FlashnodeError('notFound', 'header not found')
    return proveAccount(new BufferedTrieDb(this.kv), header.stateRoot, address, slots)
  }
}
