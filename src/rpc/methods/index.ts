/**
 * The method table (eth_, net_, web3_, txpool_, debug_ and the node's own namespaces): every handler of this
 * folder, by exact name. The handlers see the node through the NodeApi facade and its small ports
 * (node/ports.ts); a port not given is the one of a node without that part (no pool: an empty one). The transport looks methods up
 * here; endpoint policy (which profile serves which method) lives with the transport, not here.
 */

import type { NodeApi } from '../../node/api.ts'
import { EMPTY_POOL } from '../../node/pool-api.ts'
import { NO_BLOCK_BUILDER } from '../../node/node-info.ts'
import type { NodePorts } from '../../node/ports.ts'
import type { MethodHandler, MethodTable } from '../registry.ts'
import { blockMethods } from './blocks.ts'
import { callMethods } from './call.ts'
import { feeMethods } from './fees.ts'
import { logMethods } from './logs.ts'
import { metaMethods } from './meta.ts'
import { receiptMethods } from './receipts.ts'
import { stateMethods } from './state.ts'
import { proofMethods } from './proof.ts'
import { transactionMethods } from './transactions.ts'
import { sendMethods } from './send.ts'
import { devMethods } from './dev.ts'
import { simulateMethods } from './simulate.ts'
import { traceMethods } from './trace.ts'
import { subscriptionMethods, type SubscriptionOptions } from '../subscriptions.ts'
import { filterMethods } from '../filters.ts'
import { txpoolMethods } from './txpool.ts'
import { debugMethods } from './debug.ts'
import { memoryMethods } from './memory.ts'
import { PROCESS_MEMORY } from '../../node/thread-memory.ts'

export function createEthMethods(node: NodeApi, ports: Partial<NodePorts> = {}, subscriptions: SubscriptionOptions = {}): MethodTable {
  const groups: Record<string, MethodHandler>[] = [
    metaMethods(node, ports.info ?? NO_BLOCK_BUILDER),
    stateMethods(node),
    proofMethods(node),
    callMethods(node),
    simulateMethods(node),
    traceMethods(node),
    blockMethods(node),
    transactionMethods(node),
    receiptMethods(node),
    logMethods(node),
    feeMethods(node),
    sendMethods(node),
    subscriptionMethods(node, subscriptions),
    filterMethods(node),
    devMethods(node),
    txpoolMethods(ports.txpool ?? EMPTY_POOL),
    debugMethods(node),
    memoryMethods(ports.memory ?? PROCESS_MEMORY),
  ]
  const table = new Map<string, MethodHandler>()
  for (const group of groups) {
    for (const [name, handler] of Object.entries(group)) {
      if (table.has(name)) throw new Error(`duplicate method ${name}`)
      table.set(name, handler)
    }
  }
  return table
}
