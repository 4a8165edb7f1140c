/**
 * The node's own identity beside the facade: what eth_coinbase answers (the fee recipient of the blocks this
 * node builds). A node that builds no blocks (a follower, a read-only node) has none, and geth's answer for a
 * node without an etherbase is an error, so `coinbase()` is undefined there. Never: state or chain reads.
 */

export interface NodeInfoApi {
  /** The sequencer's fee recipient; undefined on a node that builds no blocks. */
  coinbase(): Uint8Array | undefined
}

export function nodeInfo(coinbase: Uint8Array | undefined): NodeInfoApi {
  const copy = coinbase === undefined ? undefined : Uint8Array.from(coinbase)
  return { coinbase: () => (copy === undefined ? undefined : Uint8Array.from(copy)) }
}

/** The identity of a node that builds no blocks. */
export const NO_BLOCK_BUILDER: NodeInfoApi = nodeInfo(undefined)
