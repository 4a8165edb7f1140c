/**
 * Block identifiers as the rpc layer hands them to node/.
 *
 * The rpc param schema turns every accepted wire form (a hex number, a tag, a 32-byte hash string, an
 * EIP-1898 `{blockNumber}` / `{blockHash, requireCanonical}` object) into one of these. Only node/ resolves
 * them to a block and a state view.
 */

export type BlockTag = 'latest' | 'pending' | 'safe' | 'finalized' | 'earliest'

export type BlockId =
  | { readonly kind: 'tag'; readonly tag: BlockTag }
  | { readonly kind: 'number'; readonly number: bigint }
  | { readonly kind: 'hash'; readonly hash: Uint8Array; readonly requireCanonical: boolean }

export const LATEST: BlockId = { kind: 'tag', tag: 'latest' }
export const PENDING: BlockId = { kind: 'tag', tag: 'pending' }

export const BLOCK_TAGS: readonly BlockTag[] = ['latest', 'pending', 'safe', 'finalized', 'earliest']

export const isBlockTag = (s: string): s is BlockTag => (BLOCK_TAGS as readonly string[]).includes(s)
