/**
 * Receipts written straight to JSON text: the very bytes `JSON.stringify` gives for formatReceipt's objects
 * (receipt.ts, and log.ts for their logs), without building those objects. For eth_getBlockReceipts, where a
 * block of a few thousand transactions is megabytes of hex.
 *
 * Invariant: `blockReceiptsJson(rs, c) === JSON.stringify(rs.map((r) => formatReceipt(r, c)))` for every
 * input (receipt-json.test.ts holds the two renderings equal); a change of shape goes into both. Key order is
 * therefore receipt.ts's (sorted, as geth prints the map) and log.ts's (the types.Log field order). The
 * block's own fields (hash, number, timestamp) are encoded once per block, not once per receipt and log.
 *
 * An OP Stack receipt (a deposit's, or one with the L1 fee keys, whose keys sort in among the common ones) is
 * written as JSON.stringify writes formatReceipt's object: the invariant holds by construction, and an
 * Ethereum receipt never takes that path.
 */

import type { BlockContext, LogView, ReceiptView } from '../../chain/types.ts'
import { bytesToHex, quantity } from '../../primitives/hex.ts'
import { ascii, AsciiJsonWriter } from '../../format/ascii-json-writer.ts'
import { formatReceipt } from './receipt.ts'

const OPEN_LIST = ascii('[')
const CLOSE_LIST = ascii(']')
const COMMA = ascii(',')
const NULL = ascii('null')

const RECEIPT_OPEN = ascii('{')
const BLOB_GAS_PRICE = ascii('"blobGasPrice":')
const BLOB_GAS_USED = ascii(',"blobGasUsed":')
const CUMULATIVE_GAS_USED = ascii(',"cumulativeGasUsed":')
const EFFECTIVE_GAS_PRICE = ascii(',"effectiveGasPrice":')
const FROM = ascii(',"from":')
const GAS_USED = ascii(',"gasUsed":')
const LOGS = ascii(',"logs":[')
const LOGS_BLOOM = ascii('],"logsBloom":')
const ROOT = ascii(',"root":')
const STATUS = ascii(',"status":')
const TO = ascii(',"to":')
const TRANSACTION_HASH = ascii(',"transactionHash":')
const TRANSACTION_INDEX = ascii(',"transactionIndex":')
const TYPE = ascii(',"type":')
const RECEIPT_CLOSE = ascii('}')

const LOG_ADDRESS = ascii('{"address":')
const LOG_TOPICS = ascii(',"topics":[')
const LOG_DATA = ascii('],"data":')
const LOG_TRANSACTION_INDEX = ascii(',"transactionIndex":')
const LOG_CLOSE = ascii(',"removed":false}')

/** The parts of a receipt and of its logs that only depend on the block, encoded once. */
interface BlockFragments {
  /** `"blockHash":…,"blockNumber":…,"contractAddress":` */
  readonly receiptBlock: Uint8Array
  /** `,"blockNumber":…,"transactionHash":` */
  readonly logBlockNumber: Uint8Array
  /** `,"blockHash":…,"blockTimestamp":…,"logIndex":` */
  readonly logBlockHash: Uint8Array
}

function blockFragments(context: BlockContext): BlockFragments {
  const hash = `"${bytesToHex(context.blockHash)}"`
  const number = `"${quantity(context.blockNumber)}"`
  return {
    receiptBlock: ascii(`"blockHash":${hash},"blockNumber":${number},"contractAddress":`),
    logBlockNumber: ascii(`,"blockNumber":${number},"transactionHash":`),
    logBlockHash: ascii(`,"blockHash":${hash},"blockTimestamp":"${quantity(context.blockTimestamp)}","logIndex":`),
  }
}

const isZero = (b: Uint8Array): boolean => b.every((x) => x === 0)

/** Room for a receipt without its logs' data, and for a log without its topics and data (grows past it). */
const RECEIPT_BYTES = 1_100
const LOG_BYTES = 420

function estimatedBytes(receipts: readonly ReceiptView[]): number {
  let bytes = 2
  for (const r of receipts) {
    bytes += RECEIPT_BYTES
    for (const log of r.logs) bytes += LOG_BYTES + log.topics.length * 70 + log.data.length * 2
  }
  return bytes
}

/** A JSON array of the block's receipts, all in `context`'s block. */
export function blockReceiptsJson(receipts: readonly ReceiptView[], context: BlockContext): string {
  const block = blockFragments(context)
  const out = new AsciiJsonWriter(estimatedBytes(receipts))
  out.fragment(OPEN_LIST)
  for (let i = 0; i < receipts.length; i++) {
    if (i > 0) out.fragment(COMMA)
    const r = receipts[i]!
    if (r.opFields !== undefined || r.depositNonce !== undefined) out.fragment(ascii(JSON.stringify(formatReceipt(r, context))))
    else writeReceipt(out, r, block)
  }
  out.fragment(CLOSE_LIST)
  return out.text()
}

function writeReceipt(out: AsciiJsonWriter, r: ReceiptView, block: BlockFragments): void {
  out.fragment(RECEIPT_OPEN)
  if (r.type === 3) {
    out.fragment(BLOB_GAS_PRICE)
    if (r.blobGasPrice === undefined) out.fragment(NULL)
    else out.quantity(r.blobGasPrice)
    out.fragment(BLOB_GAS_USED)
    out.quantity(r.blobGasUsed ?? 0n)
    out.fragment(COMMA)
  }
  out.fragment(block.receiptBlock)
  if (r.contractAddress === null || isZero(r.contractAddress)) out.fragment(NULL)
  else out.data(r.contractAddress)
  out.fragment(CUMULATIVE_GAS_USED)
  out.quantity(r.cumulativeGasUsed)
  out.fragment(EFFECTIVE_GAS_PRICE)
  out.quantity(r.effectiveGasPrice)
  out.fragment(FROM)
  out.data(r.from)
  out.fragment(GAS_USED)
  out.quantity(r.gasUsed)
  out.fragment(LOGS)
  for (let i = 0; i < r.logs.length; i++) {
    if (i > 0) out.fragment(COMMA)
    writeLog(out, r.logs[i]!, r, r.firstLogIndex + i, block)
  }
  out.fragment(LOGS_BLOOM)
  out.data(r.logsBloom)
  if (r.root !== undefined && r.root.length > 0) {
    out.fragment(ROOT)
    out.data(r.root)
  } else {
    out.fragment(STATUS)
    out.quantity(r.status ?? 0)
  }
  out.fragment(TO)
  if (r.to === null) out.fragment(NULL)
  else out.data(r.to)
  out.fragment(TRANSACTION_HASH)
  out.data(r.transactionHash)
  out.fragment(TRANSACTION_INDEX)
  out.quantity(r.transactionIndex)
  out.fragment(TYPE)
  out.quantity(r.type)
  out.fragment(RECEIPT_CLOSE)
}

function writeLog(out: AsciiJsonWriter, log: LogView, r: ReceiptView, logIndex: number, block: BlockFragments): void {
  out.fragment(LOG_ADDRESS)
  out.data(log.address)
  out.fragment(LOG_TOPICS)
  for (let i = 0; i < log.topics.length; i++) {
    if (i > 0) out.fragment(COMMA)
    out.data(log.topics[i]!)
  }
  out.fragment(LOG_DATA)
  out.data(log.data)
  out.fragment(block.logBlockNumber)
  out.data(r.transactionHash)
  out.fragment(LOG_TRANSACTION_INDEX)
  out.quantity(r.transactionIndex)
  out.fragment(block.logBlockHash)
  out.quantity(logIndex)
  out.fragment(LOG_CLOSE)
}
