/**
 * A log in geth's types.Log JSON (eth_getLogs, receipt logs): address, topics, data, blockNumber,
 * transactionHash, transactionIndex, blockHash, blockTimestamp, logIndex, removed (always false: this node
 * serves no reorged logs). blockHash is the context's: 32 zero bytes in a pre-confirmed block, which has no
 * hash yet (preconf/views.ts).
 *
 * A receipt's logs are also written straight to text by receipt-json.ts, in this key order: change both.
 */

import type { LocatedLog } from '../chain/logs.ts'
import type { BlockContext, LogView } from '../chain/types.ts'
import { bytesToHex, quantity } from '../primitives/hex.ts'
import type { JsonObject } from './json.ts'

export interface LogPosition {
  readonly context: BlockContext
  readonly transactionHash: Uint8Array
  readonly transactionIndex: number
  readonly logIndex: number
}

export function formatLog(log: LogView, at: LogPosition): JsonObject {
  return {
    address: bytesToHex(log.address),
    topics: log.topics.map(bytesToHex),
    data: bytesToHex(log.data),
    blockNumber: quantity(at.context.blockNumber),
    transactionHash: bytesToHex(at.transactionHash),
    transactionIndex: quantity(at.transactionIndex),
    blockHash: bytesToHex(at.context.blockHash),
    blockTimestamp: quantity(at.context.blockTimestamp),
    logIndex: quantity(at.logIndex),
    removed: false,
  }
}

export const formatLocatedLog = (located: LocatedLog): JsonObject => formatLog(located.log, located)
