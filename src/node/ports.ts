/**
 * The node's small ports beside the NodeApi facade: narrow read-only interfaces for method groups that need
 * something other than blocks and state (the pool's content, the node's own identity and fork schedule, the memory of the process's threads).
 * rpc/ takes them with the facade (createEthMethods); each has a meaning for a node that lacks the part
 * (EMPTY_POOL for a node without a pool, no coinbase for a node that builds no blocks), so every node serves the same method table.
 */

import type { TxPoolApi } from './pool-api.ts'
import type { NodeInfoApi } from './node-info.ts'
import type { MemoryApi } from './thread-memory.ts'

export type { SenderPoolContent, TxPoolApi } from './pool-api.ts'
export type { NodeInfoApi } from './node-info.ts'
export type { MemoryApi, MemoryReport, ThreadMemory } from './thread-memory.ts'

export interface NodePorts {
  /** The transaction pool (EMPTY_POOL on a node without one). */
  readonly txpool: TxPoolApi
  /** The node's identity (eth_coinbase). */
  readonly info: NodeInfoApi
  /** Every thread's heap and bounded structures (flashnode_memory; development only). */
  readonly memory: MemoryApi
}
