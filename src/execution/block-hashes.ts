/**
 * The BLOCKHASH source the EVM asks for pre-Prague blocks (later forks read the history contract): hashes
 * of canonical blocks from the chain store. A block hash is the keccak of its header bytes, so nothing is
 * decoded.
 */

import { keccak256 } from '../primitives/keccak.ts'
import type { ChainStore } from '../chain/chain-store.ts'

export interface BlockHashSource {
  getBlock(blockId: number): Promise<{ hash(): Uint8Array }>
  putBlock(): Promise<void>
  shallowCopy(): BlockHashSource
}

const ZERO = new Uint8Array(32)

export function chainBlockHashes(chain: ChainStore, extra?: (n: bigint) => Uint8Array | undefined): BlockHashSource {
  const source: BlockHashSource = {
    async getBlock(blockId: number) {
      const n = BigInt(blockId)
      const fromExtra = extra?.(n)
      if (fromExtra !== undefined) return { hash: () => fromExtra }
      const rlp = chain.headerRlp(n)
      const hash = rlp === undefined ? ZERO : keccak256(rlp)
      return { hash: () => hash }
    },
    async putBlock() {},
    shallowCopy: () => source,
  }
  return source
}
