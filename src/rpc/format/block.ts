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

import { PRECONFIRMED_BLOCK_HASH, type BlockContext, type BlockView, type HeaderView, type WithdrawalView } from '../../chain/types.ts'
import { bytesToHex, quantity } from '../../primitives/hex.ts'
import { sortedKeys, type JsonObject } from './json.ts'
import { formatTransaction } from './transaction.ts'

export interface HeaderFormatOptions {
  /** The header of the open (pre-confirmed) block: hash, nonce and miner print as null. */
  readonly pending?: boolean
}

export function formatHeader(h: HeaderView, opts: HeaderFormatOptions = {}): JsonObject {
  const out: JsonObject = {
    number: quantity(h.number),
    hash: opts.pending ? null : bytesToHex(h.hash),
    parentHash: bytesToHex(h.parentHash),
    nonce: opts.pending ? null : bytesToHex(h.nonce),
    mixHash: bytesToHex(h.mixHash),
    sha3Uncles: bytesToHex(h.uncleHash),
    logsBloom: bytesToHex(h.logsBloom),
    stateRoot: bytesToHex(h.stateRoot),
    miner: opts.pending ? null : bytesToHex(h.coinbase),
    difficulty: quantity(h.difficulty),
    extraData: bytesToHex(h.extraData),
    gasLimit: quantity(h.gasLimit),
    gasUsed: quantity(h.gasUsed),
    timestamp: quantity(h.timestamp),
    transactionsRoot: bytesToHex(h.transactionsTrie),
    receiptsRoot: bytesToHex(h.receiptTrie),
  }
  if (h.baseFeePerGas !== undefined) out.baseFeePerGas = quantity(h.baseFeePerGas)
  if (h.withdrawalsRoot !== undefined) out.withdrawalsRoot = bytesToHex(h.withdrawalsRoot)
  if (h.blobGasUsed !== undefined) out.blobGasUsed = quantity(h.blobGasUsed)
  if (h.excessBlobGas !== undefined) out.excessBlobGas = quantity(h.excessBlobGas)
  if (h.parentBeaconBlockRoot !== undefined) out.parentBeaconBlockRoot = bytesToHex(h.parentBeaconBlockRoot)
  if (h.requestsHash !== undefined) out.requestsHash = bytesToHex(h.requestsHash)
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
  const out = formatHeader(h, { pending })
  out.size = quantity(block.size)
  if (fullTx) {
    const context: BlockContext = {
      blockHash: pending ? PRECONFIRMED_BLOCK_HASH : h.hash,
      preconfirmed: pending,
      blockNumber: h.number,
      blockTimestamp: h.timestamp,
      ...(h.baseFeePerGas !== undefined ? { baseFeePerGas: h.baseFeePerGas } : {}),
    }
    out.transactions = block.transactions.map((tx, index) => formatTransaction(tx, { context, index }))
  } else {
    out.transactions = block.transactions.map((tx) => bytesToHex(tx.hash))
  }
  out.uncles = block.uncleHashes.map(bytesToHex)
  if (block.withdrawals !== undefined) out.withdrawals = block.withdrawals.map(formatWithdrawal)
  return sortedKeys(out)
}
