/**
 * eth_simulateV1's result in geth's shape: each simulated block is a full block object (formatBlock, with
 * transactions as hashes or as full objects located in the block) plus `calls`, one per call:
 * `{returnData, logs, gasUsed, maxUsedGas, status, error?}`, where `error` is `{code, message, data?}`
 * and `data` is the revert data (present, possibly `0x`, for a revert; absent for other VM errors).
 * Logs carry the block's final hash.
 */

import type { BlockContext } from '../chain/types.ts'
import { bytesToHex, quantity } from '../primitives/hex.ts'
import type { SimCallResult, SimulatedBlock } from '../simulate/types.ts'
import { formatBlock } from './block.ts'
import type { JsonObject } from './json.ts'
import { formatLog } from './log.ts'

function formatCall(call: SimCallResult, context: BlockContext, transactionHash: Uint8Array, transactionIndex: number): JsonObject {
  const out: JsonObject = {
    returnData: bytesToHex(call.returnData),
    logs: call.logs.map((l) => formatLog(l.log, { context, transactionHash, transactionIndex, logIndex: l.logIndex })),
    gasUsed: quantity(call.gasUsed),
    maxUsedGas: quantity(call.maxUsedGas),
    status: quantity(call.status),
  }
  if (call.error !== undefined) {
    out.error = {
      message: call.error.message,
      code: call.error.code,
      ...(call.error.data !== undefined ? { data: bytesToHex(call.error.data) } : {}),
    }
  }
  return out
}

/** eth_simulateV1's whole result as JSON text: the blocks formatted, then serialized as the transport would. */
export function simulatedBlocksJson(blocks: readonly SimulatedBlock[], fullTransactions: boolean): string {
  return JSON.stringify(blocks.map((b) => formatSimulatedBlock(b, fullTransactions)))
}

export function formatSimulatedBlock(sim: SimulatedBlock, fullTransactions: boolean): JsonObject {
  const h = sim.block.header
  const context: BlockContext = {
    blockHash: h.hash,
    preconfirmed: false,
    blockNumber: h.number,
    blockTimestamp: h.timestamp,
    ...(h.baseFeePerGas !== undefined ? { baseFeePerGas: h.baseFeePerGas } : {}),
  }
  const out = formatBlock(sim.block, fullTransactions)
  out.calls = sim.calls.map((call, i) => formatCall(call, context, sim.block.transactions[i]!.hash, i))
  return out
}
