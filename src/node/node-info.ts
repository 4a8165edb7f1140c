/**
 * The node's own identity beside the facade: what eth_coinbase answers (the fee recipient of the blocks this
 * node builds) and eth_config (EIP-7910: the fork configuration at the sealed head, execution/fork-config.ts).
 * A node that builds no blocks (a follower, a read-only node) has no coinbase, and geth's answer for a node
 * without an etherbase is an error, so `coinbase()` is undefined there. Never: state reads.
 */

import type { EthConfig } from '../execution/fork-config.ts'

export type { EthConfig, ForkConfig } from '../execution/fork-config.ts'

export interface NodeInfoApi {
  /** The sequencer's fee recipient; undefined on a node that builds no blocks. */
  coinbase(): Uint8Array | undefined
  /** EIP-7910's current, next and last fork configurations, at the sealed head's time. */
  ethConfig(): EthConfig
}

const NO_CONFIG = (): EthConfig => ({ current: null, next: null, last: null })

export function nodeInfo(coinbase: Uint8Array | undefined, config: () => EthConfig = NO_CONFIG): NodeInfoApi {
  const copy = coinbase === undefined ? undefined : Uint8Array.from(coinbase)
  return { coinbase: () => (copy === undefined ? undefined : Uint8Array.from(copy)), ethConfig: config }
}

/** The identity of a node that builds no blocks (and knows no fork schedule: tests' handler tables). */
export const NO_BLOCK_BUILDER: NodeInfoApi = nodeInfo(undefined)
