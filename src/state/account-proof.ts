/**
 * An account's EIP-1186 proof at a state root: the account trie's proof of keccak(address), the account as
 * its leaf holds it, and a proof of each asked slot in that account's storage trie.
 *
 * Reads the tries only (trie-proof.ts), never the flat history tables: the values a proof carries are the
 * ones its nodes prove, so an answer can never disagree with its own proof. An absent account answers nonce
 * 0, balance 0, the empty code hash and the empty trie root, with a proof of absence; its slots (and every
 * slot of an account with empty storage) read zero with an empty proof, as geth answers them. Writes nothing.
 */

import { RLP } from '@ethereumjs/rlp'
import { KECCAK256_NULL } from '@ethereumjs/util'
import { bytesToBigInt } from '../primitives/hex.ts'
import { keccak256 } from '../primitives/keccak.ts'
import { decodeAccount } from './account-rlp.ts'
import type { NodeStore } from './batch-trie.ts'
import { EMPTY_TRIE_ROOT } from './state-root.ts'
import { proveKey } from './trie-proof.ts'

export interface SlotProof {
  /** The slot as asked (32 bytes). */
  readonly slot: Uint8Array
  readonly value: bigint
  readonly proof: readonly Uint8Array[]
}

export interface AccountProof {
  readonly address: Uint8Array
  readonly accountProof: readonly Uint8Array[]
  readonly nonce: bigint
  readonly balance: bigint
  readonly codeHash: Uint8Array
  readonly storageHash: Uint8Array
  readonly storageProof: readonly SlotProof[]
}

/** `slots` are 32 bytes each; the answer lists them in the same order. */
export async function proveAccount(store: NodeStore, stateRoot: Uint8Array, address: Uint8Array, slots: readonly Uint8Array[]): Promise<AccountProof> {
  const found = await proveKey(store, stateRoot, keccak256(address))
  const account = found.value === undefined ? undefined : decodeAccount(found.value)
  const storageHash = account?.storageRoot ?? EMPTY_TRIE_ROOT
  const storageProof: SlotProof[] = []
  for (const slot of slots) {
    const at = await proveKey(store, storageHash, keccak256(slot))
    storageProof.push({ slot, value: at.value === undefined ? 0n : bytesToBigInt(RLP.decode(at.value) as Uint8Array), proof: at.nodes })
  }
  return {
    address,
    accountProof: found.nodes,
    nonce: account?.nonce ?? 0n,
    balance: account?.balance ?? 0n,
    codeHash: account?.codeHash ?? KECCAK256_NULL,
    storageHash,
    storageProof,
  }
}
