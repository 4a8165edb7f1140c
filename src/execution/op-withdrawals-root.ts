/**
 * Isthmus's header rule (specs protocol/isthmus/exec-engine.md, "L2ToL1MessagePasser Storage Root in Header";
 * op-geth core/genesis.go and its block assembly; Base's node execution/consensus validation/isthmus.rs): from
 * Isthmus a block header's withdrawalsRoot is the storage root of the L2ToL1MessagePasser predeploy
 * (0x4200…0016) after the block, not the root of the (always empty) withdrawals list. A chain whose account is
 * absent or has no storage gets the empty trie's root, which is also the empty list's.
 *
 * Owns: which blocks take the rule and reading the root out of a block's state-root result (the account as the
 * block left it when it touched it, else as its parent left it). It never computes tries (state-root.ts does).
 */

import { EMPTY_TRIE_ROOT, type StateRootResult } from '../state/state-root.ts'
import type { StateReader } from '../state/state-reader.ts'
import { hexToBytes } from '../primitives/hex.ts'
import { L2_TO_L1_MESSAGE_PASSER_ADDRESS } from '../opstack/predeploy-addresses.ts'
import { opForkActiveAt, type OpChainConfig } from '../opstack/chain-config.ts'

const KEY = L2_TO_L1_MESSAGE_PASSER_ADDRESS.toLowerCase()
const ADDRESS = hexToBytes(KEY)

/** True when a block at `timestamp` of this chain commits to the message passer's storage root. */
export function withdrawalsRootIsMessagePasser(op: OpChainConfig | undefined, timestamp: bigint): boolean {
  return op !== undefined && opForkActiveAt(op, 'isthmus', timestamp)
}

/** The L2ToL1MessagePasser's storage root after a block: `root` is its state-root result, `base` its parent's state. */
export function messagePasserStorageRoot(root: StateRootResult, base: StateReader): Uint8Array {
  if (root.accounts.has(KEY)) return root.accounts.get(KEY)?.storageRoot ?? EMPTY_TRIE_ROOT
  return base.getAccount(ADDRESS)?.storageRoot ?? EMPTY_TRIE_ROOT
}
