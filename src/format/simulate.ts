/**
 * eth_simulateV1's result in geth's shape: each simulated block is a full block object (formatBlock, with
 * transactions as hashes or as full objects located in the block) plus `calls`, one per call:
 * `{returnData, logs, gasUsed, maxUsedGas, status, error?}`, where `error` is `{code, message, data?}`
 * and `data` is the revert data (present, possibly `0x`, for a revert; absent for other VM errors).
 * Logs carry the block's final hash.
 *
 * The common answer (transactions as hashes, no call error, no withdrawal) is written straight to text
 * (`writeSimulatedBlock`): the very bytes JSON.stringify gives for formatSimulatedBlock's object, without
 * building the object and its ~25 strings first (for a one-transfer simulation that halved the ~19 µs of
 * formatting). Any other answer goes through the object. simulate.test.ts holds the two renderings equal;
 * a change of shape goes into both (key order: block.ts's sorted header keys, log.ts's, formatCall's).
 */

import type { BlockContext } from '../chain/types.ts'
import { bytesToHex, quantity } from '../primitives/hex.ts'
import type { SimCallResult, SimulatedBlock } from '../simulate/types.ts'
import { ascii, AsciiJsonWriter } from './ascii-json-writer.ts'
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
  if (fullTransactions || !blocks.every(writable)) return JSON.stringify(blocks.map((b) => formatSimulatedBlock(b, fullTransactions)))
  const w = writer()
  w.fragment(OPEN_LIST)
  blocks.forEach((b, i) => {
    if (i > 0) w.fragment(COMMA)
    writeSimulatedBlock(w, b)
  })
  w.fragment(CLOSE_LIST)
  return w.text()
}

/** One writer reused by every answer on this thread (text() copies out), dropped when a large answer grew it. */
let kept: AsciiJsonWriter | undefined
const KEPT_CAPACITY = 64 * 1024

function writer(): AsciiJsonWriter {
  if (kept === undefined || kept.capacity > KEPT_CAPACITY) kept = new AsciiJsonWriter(8 * 1024)
  else kept.clear()
  return kept
}

/** What the direct writer covers: a sealed-shape block (not pending) without withdrawals, calls without errors. */
function writable(sim: SimulatedBlock): boolean {
  return sim.block.pending !== true && (sim.block.withdrawals?.length ?? 0) === 0 && sim.calls.every((c) => c.error === undefined)
}

const OPEN_LIST = ascii('[')
const CLOSE_LIST = ascii(']')
const COMMA = ascii(',')
const OPEN_OBJECT = ascii('{')
const K_BASE_FEE = ascii('"baseFeePerGas":')
const K_BLOB_GAS_USED = ascii('"blobGasUsed":')
const K_DIFFICULTY = ascii('"difficulty":')
const K_EXCESS_BLOB_GAS = ascii(',"excessBlobGas":')
const K_EXTRA_DATA = ascii(',"extraData":')
const K_GAS_LIMIT = ascii(',"gasLimit":')
const K_GAS_USED = ascii(',"gasUsed":')
const K_HASH = ascii(',"hash":')
const K_LOGS_BLOOM = ascii(',"logsBloom":')
const K_MINER = ascii(',"miner":')
const K_MIX_HASH = ascii(',"mixHash":')
const K_NONCE = ascii(',"nonce":')
const K_NUMBER = ascii(',"number":')
const K_PARENT_BEACON_BLOCK_ROOT = ascii(',"parentBeaconBlockRoot":')
const K_PARENT_HASH = ascii(',"parentHash":')
const K_RECEIPTS_ROOT = ascii(',"receiptsRoot":')
const K_REQUESTS_HASH = ascii(',"requestsHash":')
const K_SHA3_UNCLES = ascii(',"sha3Uncles":')
const K_SIZE = ascii(',"size":')
const K_STATE_ROOT = ascii(',"stateRoot":')
const K_TIMESTAMP = ascii(',"timestamp":')
const K_TRANSACTIONS = ascii(',"transactions":[')
const K_TRANSACTIONS_ROOT = ascii('],"transactionsRoot":')
const K_UNCLES = ascii(',"uncles":[')
const K_WITHDRAWALS = ascii('],"withdrawals":[]')
const K_WITHDRAWALS_ROOT = ascii(',"withdrawalsRoot":')
const K_CALLS = ascii(',"calls":[')
const K_CALLS_END = ascii(']}')
const K_RETURN_DATA = ascii('{"returnData":')
const K_LOGS = ascii(',"logs":[')
const K_CALL_GAS_USED = ascii('],"gasUsed":')
const K_MAX_USED_GAS = ascii(',"maxUsedGas":')
const K_STATUS = ascii(',"status":')
const K_CALL_END = ascii('}')
const K_LOG_ADDRESS = ascii('{"address":')
const K_LOG_TOPICS = ascii(',"topics":[')
const K_LOG_DATA = ascii('],"data":')
const K_LOG_BLOCK_NUMBER = ascii(',"blockNumber":')
const K_LOG_TRANSACTION_HASH = ascii(',"transactionHash":')
const K_LOG_TRANSACTION_INDEX = ascii(',"transactionIndex":')
const K_LOG_BLOCK_HASH = ascii(',"blockHash":')
const K_LOG_BLOCK_TIMESTAMP = ascii(',"blockTimestamp":')
const K_LOG_INDEX = ascii(',"logIndex":')
const K_LOG_END = ascii(',"removed":false}')

/** formatSimulatedBlock's object as text, for a block `writable` accepts. */
function writeSimulatedBlock(w: AsciiJsonWriter, sim: SimulatedBlock): void {
  const b = sim.block
  const h = b.header
  // The first key is the first present of baseFeePerGas, blobGasUsed, difficulty (always there).
  w.fragment(OPEN_OBJECT)
  if (h.baseFeePerGas !== undefined) {
    w.quantityField(K_BASE_FEE, h.baseFeePerGas)
    w.fragment(COMMA)
  }
  if (h.blobGasUsed !== undefined) {
    w.quantityField(K_BLOB_GAS_USED, h.blobGasUsed)
    w.fragment(COMMA)
  }
  w.quantityField(K_DIFFICULTY, h.difficulty)
  if (h.excessBlobGas !== undefined) w.quantityField(K_EXCESS_BLOB_GAS, h.excessBlobGas)
  w.dataField(K_EXTRA_DATA, h.extraData)
  w.quantityField(K_GAS_LIMIT, h.gasLimit)
  w.quantityField(K_GAS_USED, h.gasUsed)
  w.dataField(K_HASH, h.hash)
  w.dataField(K_LOGS_BLOOM, h.logsBloom)
  w.dataField(K_MINER, h.coinbase)
  w.dataField(K_MIX_HASH, h.mixHash)
  w.dataField(K_NONCE, h.nonce)
  w.quantityField(K_NUMBER, h.number)
  if (h.parentBeaconBlockRoot !== undefined) w.dataField(K_PARENT_BEACON_BLOCK_ROOT, h.parentBeaconBlockRoot)
  w.dataField(K_PARENT_HASH, h.parentHash)
  w.dataField(K_RECEIPTS_ROOT, h.receiptTrie)
  if (h.requestsHash !== undefined) w.dataField(K_REQUESTS_HASH, h.requestsHash)
  w.dataField(K_SHA3_UNCLES, h.uncleHash)
  w.quantityField(K_SIZE, b.size)
  w.dataField(K_STATE_ROOT, h.stateRoot)
  w.quantityField(K_TIMESTAMP, h.timestamp)
  w.fragment(K_TRANSACTIONS)
  w.dataItems(b.transactions.map((tx) => tx.hash))
  w.dataField(K_TRANSACTIONS_ROOT, h.transactionsTrie)
  w.fragment(K_UNCLES)
  w.dataItems(b.uncleHashes)
  if (b.withdrawals !== undefined) w.fragment(K_WITHDRAWALS)
  else w.fragment(CLOSE_LIST)
  if (h.withdrawalsRoot !== undefined) w.dataField(K_WITHDRAWALS_ROOT, h.withdrawalsRoot)
  w.fragment(K_CALLS)
  sim.calls.forEach((call, i) => {
    if (i > 0) w.fragment(COMMA)
    writeCall(w, call, sim, i)
  })
  w.fragment(K_CALLS_END)
}

/** formatCall's object as text, for a call without an error. */
function writeCall(w: AsciiJsonWriter, call: SimCallResult, sim: SimulatedBlock, index: number): void {
  const h = sim.block.header
  const transactionHash = sim.block.transactions[index]!.hash
  w.dataField(K_RETURN_DATA, call.returnData)
  w.fragment(K_LOGS)
  call.logs.forEach(({ log, logIndex }, k) => {
    if (k > 0) w.fragment(COMMA)
    w.dataField(K_LOG_ADDRESS, log.address)
    w.fragment(K_LOG_TOPICS)
    w.dataItems(log.topics)
    w.dataField(K_LOG_DATA, log.data)
    w.quantityField(K_LOG_BLOCK_NUMBER, h.number)
    w.dataField(K_LOG_TRANSACTION_HASH, transactionHash)
    w.quantityField(K_LOG_TRANSACTION_INDEX, index)
    w.dataField(K_LOG_BLOCK_HASH, h.hash)
    w.quantityField(K_LOG_BLOCK_TIMESTAMP, h.timestamp)
    w.quantityField(K_LOG_INDEX, logIndex)
    w.fragment(K_LOG_END)
  })
  w.quantityField(K_CALL_GAS_USED, call.gasUsed)
  w.quantityField(K_MAX_USED_GAS, call.maxUsedGas)
  w.quantityField(K_STATUS, call.status)
  w.fragment(K_CALL_END)
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
