/**
 * Headers and blocks in geth's RPCMarshalHeader / RPCMarshalBlock shape.
 *
 * Header fields: number, hash, parentHash, nonce, mixHash, sha3Uncles, logsBloom, stateRoot, miner, difficulty,
 * extraData, gasLimit, gasUsed, timestamp, transactionsRoot, receiptsRoot; and, only when the block's fork has
 * them, baseFeePerGas, withdrawalsRoot, blobGasUsed, excessBlobGas, parentBeaconBlockRoot, requestsHash. A block
 * adds size, transactions (hashes, or full objects located in this block), uncles (hashes) and withdrawals when
 * the block has a withdrawals list. No totalDifficulty (recent geth dropped it). Keys are sorted, as geth
 * prints this map. A view marked `pending` (the open, pre-confirmed block) has no hash, nonce or miner yet: they
 * print as null, as geth prints its pending block, and its transactions carry the pre-confirmed block hash
 * (32 zero bytes; preconf/views.ts).
 */

import { PRECONFIRMED_BLOCK_HASH, type BlockContext, type BlockView, type HeaderView, type WithdrawalView } from '../chain/types.ts'
import { bytesToHex, quantity } from '../primitives/hex.ts'
import type { JsonObject, JsonValue } from './json.ts'
import { formatTransaction } from './transaction.ts'

export interface HeaderFormatOptions {
  /** The header of the open (pre-confirmed) block: hash, nonce and miner print as null. */
  readonly pending?: boolean
}

export function formatHeader(h: HeaderView, opts: HeaderFormatOptions = {}): JsonObject {
  return headerObject(h, opts.pending === true, undefined)
}

/** What a block adds to its header's fields. */
interface BlockParts {
  readonly size: JsonValue
  readonly transactions: JsonValue
  readonly uncles: JsonValue
  readonly withdrawals: JsonValue | undefined
}

/**
 * The header's fields, and a block's parts among them, written in sorted key order as they are built (geth
 * prints this map with sorted keys; sorting a built object cost ~15 µs per block). Upper-case letters sort
 * before lower-case ones ("gasLimit" < "gasUsed", "parentBeaconBlockRoot" < "parentHash"); block.test.ts
 * holds the order.
 */
function headerObject(h: HeaderView, pending: boolean, block: BlockParts | undefined): JsonObject {
  const out: JsonObject = {}
  if (h.baseFeePerGas !== undefined) out.baseFeePerGas = quantity(h.baseFeePerGas)
  if (h.blobGasUsed !== undefined) out.blobGasUsed = quantity(h.blobGasUsed)
  out.difficulty = quantity(h.difficulty)
  if (h.excessBlobGas !== undefined) out.excessBlobGas = quantity(h.excessBlobGas)
  out.extraData = bytesToHex(h.extraData)
  out.gasLimit = quantity(h.gasLimit)
  out.gasUsed = quantity(h.gasUsed)
  out.hash = pending ? null : bytesToHex(h.hash)
  out.logsBloom = bytesToHex(h.logsBloom)
  out.miner = pending ? null : bytesToHex(h.coinbase)
  out.mixHash = bytesToHex(h.mixHash)
  out.nonce = pending ? null : bytesToHex(h.nonce)
  out.number = quantity(h.number)
  if (h.parentBeaconBlockRoot !== undefined) out.parentBeaconBlockRoot = bytesToHex(h.parentBeaconBlockRoot)
  out.parentHash = bytesToHex(h.parentHash)
  out.receiptsRoot = bytesToHex(h.receiptTrie)
  if (h.requestsHash !== undefined) out.requestsHash = bytesToHex(h.requestsHash)
  out.sha3Uncles = bytesToHex(h.uncleHash)
  if (block !== undefined) out.size = block.size
  out.stateRoot = bytesToHex(h.stateRoot)
  out.timestamp = quantity(h.timestamp)
  if (block !== undefined) out.transactions = block.transactions
  out.transactionsRoot = bytesToHex(h.transactionsTrie)
  if (block !== undefined) out.uncles = block.uncles
  if (block?.withdrawals !== undefined) out.withdrawals = block.withdrawals
  if (h.withdrawalsRoot !== undefined) out.withdrawalsRoot = bytesToHex(h.withdrawalsRoot)
  return out
}

export function formatWithdrawal(w: WithdrawalView): JsonObject {
  return {
    index: quantity(w.index),
    validatorIndex: quantity(w.validatorIndex),
    address: bytesToHex(w.address),
    amount: quantity(w.amount),
  }
}

export function formatBlock(block: BlockView, fullTx: boolean): JsonObject {
  const h = block.header
  const pending = block.pending === true
  let transactions: JsonValue
  if (fullTx) {
    const context: BlockContext = {
      blockHash: pending ? PRECONFIRMED_BLOCK_HASH : h.hash,
      preconfirmed: pending,
      blockNumber: h.number,
      blockTimestamp: h.timestamp,
      ...(h.baseFeePerGas !== undefined ? { baseFeePerGas: h.baseFeePerGas } : {}),
    }
    transactions = block.transactions.map((tx, index) => formatTransaction(tx, { context, index }))
  } else {
    transactions = block.transactions.map((tx) => bytesToHex(tx.hash))
  }
  return headerObject(h, pending, {
    size: quantity(block.size),
    transactions,
    uncles: block.uncleHashes.map(bytesToHex),
    withdrawals: block.withdrawals?.map(formatWithdrawal),
  })
}
