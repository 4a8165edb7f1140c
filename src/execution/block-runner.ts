/**
 * Executes a complete block on top of its parent on our EVM (block-execution.ts, the same code the
 * sequencer builds with) and checks every commitment in its header: gas used, blob gas used (from Jovian the
 * DA footprint), logs bloom, receipts root, requests hash, state root, and on an OP chain from Isthmus the
 * withdrawals root (the L2ToL1MessagePasser's storage root: op-withdrawals-root.ts). A mismatch, or a transaction that may not be included, is an
 * InvalidBlockError.
 *
 * Before Byzantium a receipt carries the state root after its transaction instead of a status: computed
 * here after each transaction (state-root.ts over the net change so far), which only old blocks pay for.
 *
 * An OP Stack block runs by its chain's rules (base fee, gas limit, the L1 and operator fees: BlockExecution's
 * OP hooks) and its leading deposits, which the library's block type cannot hold, come beside it (decoded by
 * block-codec.ts decodeOpBlock) with the block's own bytes.
 *
 * The result holds everything to persist: the stored block (bytes, senders, receipt records) and the state
 * changes with their trie nodes. Nothing is written here; the caller commits it in one batch.
 */

import type { Block, BlockHeader } from '@ethereumjs/block'
import type { KvStore } from '../storage/db.ts'
import type { ChainStore, StoredBlock } from '../chain/chain-store.ts'
import type { ReceiptRecord } from '../chain/receipt-codec.ts'
import { ArchiveReader } from '../state/archive-reader.ts'
import { computeStateRoot, type StateRootResult } from '../state/state-root.ts'
import type { StateDiff } from '../state/state-diff.ts'
import { bigIntToFixedBytes, bytesToBigInt, bytesToHex, equalBytes } from '../primitives/hex.ts'
import type { ChainRules } from './chain-config.ts'
import { InvalidBlockError, validateHeader } from './header-validation.ts'
import { receiptRecord } from './receipt-records.ts'
import { BlockExecution, requestsHash } from './block-execution.ts'
import { chainBlockHash, txInputOf } from './evm-env.ts'
import { orderedTrieRoot } from './ordered-trie.ts'
import { InvalidTransaction } from '../evm/types.ts'
import { decodeDepositTransaction, depositTransactionHash } from '../opstack/deposit-tx.ts'
import { recordDeposit } from './op-deposit.ts'
import { messagePasserStorageRoot, withdrawalsRootIsMessagePasser } from './op-withdrawals-root.ts'

export interface ExecutedBlock {
  readonly stored: StoredBlock
  readonly diff: StateDiff
  readonly root: StateRootResult
}

export async function executeBlock(
  rules: ChainRules,
  kv: KvStore,
  chain: ChainStore,
  block: Block,
  parent: BlockHeader,
  /** An OP Stack block's leading deposits (block-codec.ts decodeOpBlock), which `block` goes without. */
  op?: { readonly deposits: readonly Uint8Array[]; readonly blockRlp: Uint8Array },
): Promise<ExecutedBlock> {
  const header = block.header
  const number = header.number
  validateHeader(header, parent, rules.op)
  const opFork = rules.op === undefined ? undefined : rules.opFork(number, header.timestamp)
  const invalid = (reason: string): InvalidBlockError => new InvalidBlockError(number, reason)
  if (op !== undefined && op.deposits.length > 0 && opFork === undefined) throw invalid('deposit transactions outside an OP Stack chain')
  const base = new ArchiveReader(kv, parent.number)
  const exec = new BlockExecution(base, header, chainBlockHash(chain), opFork, rules.op)
  const common = header.common

  exec.open(header.parentHash, header.parentBeaconBlockRoot)
  const baseFee = header.baseFeePerGas
  const blobGasPrice = common.isActivatedEIP(4844) ? header.getBlobGasPrice() : undefined
  const senders: Uint8Array[] = []
  const txHashes: Uint8Array[] = []
  const receipts: ReceiptRecord[] = []
  for (const [i, envelope] of (op?.deposits ?? []).entries()) {
    let deposit
    try {
      deposit = decodeDepositTransaction(envelope)
    } catch (e) {
      throw invalid(`transaction ${i}: ${(e as Error).message}`)
    }
    let recorded
    try {
      recorded = recordDeposit(exec, deposit, envelope, baseFee, blobGasPrice)
    } catch (e) {
      if (e instanceof InvalidTransaction) throw invalid(`could not apply tx ${i} [${bytesToHex(depositTransactionHash(envelope))}]: ${e.reason}`)
      throw e
    }
    receipts.push(recorded.receipt)
    senders.push(deposit.from)
    txHashes.push(recorded.hash)
  }
  for (const [i, tx] of block.transactions.entries()) {
    let sender: Uint8Array
    try {
      sender = tx.getSenderAddress().bytes
    } catch (e) {
      throw invalid(`transaction ${i}: ${(e as Error).message}`)
    }
    const before = exec.gasUsed
    let result
    try {
      result = opFork === undefined ? exec.run(txInputOf(tx, sender)) : exec.run(txInputOf(tx, sender), undefined, tx.serialize())
    } catch (e) {
      if (e instanceof InvalidTransaction) throw invalid(`could not apply tx ${i + (op?.deposits.length ?? 0)} [${bytesToHex(tx.hash())}]: ${e.reason}`)
      throw e
    }
    const intermediate = exec.rules.byzantium ? undefined : (await computeStateRoot(kv, parent.stateRoot, base, exec.world.diff())).root
    const libraryReceipt = exec.receipt(result, tx.type, intermediate)
    const hash = tx.hash()
    const created = result.createdAddress === undefined ? undefined : bigIntToFixedBytes(result.createdAddress, 20)
    receipts.push(receiptRecord(tx, hash, sender, libraryReceipt, created, before, baseFee, blobGasPrice))
    senders.push(sender)
    txHashes.push(hash)
  }

  let requests: Uint8Array[] | undefined
  try {
    const withdrawals = (block.withdrawals ?? []).map((w) => ({ address: bytesToBigInt(w.address.bytes), amount: w.amount }))
    const uncles = block.uncleHeaders.map((u) => ({ number: u.number, coinbase: bytesToBigInt(u.coinbase.bytes) }))
    requests = exec.finish(common, withdrawals, uncles)
  } catch (e) {
    throw invalid((e as Error).message)
  }

  if (exec.gasUsed !== header.gasUsed) throw invalid(`invalid gasUsed: header ${header.gasUsed}, executed ${exec.gasUsed}`)
  if (common.isActivatedEIP(4844) && exec.blobGasUsed !== (header.blobGasUsed ?? 0n)) {
    throw invalid(`invalid blobGasUsed: header ${header.blobGasUsed}, executed ${exec.blobGasUsed}`)
  }
  if (!equalBytes(exec.bloom, header.logsBloom)) throw invalid('invalid bloom')
  const receiptTrie = await orderedTrieRoot(exec.receiptEncodings)
  if (!equalBytes(receiptTrie, header.receiptTrie)) throw invalid(`invalid receiptTrie: header ${bytesToHex(header.receiptTrie)}, executed ${bytesToHex(receiptTrie)}`)
  if (requests !== undefined) {
    const hash = requestsHash(requests)
    if (header.requestsHash === undefined || !equalBytes(hash, header.requestsHash)) throw invalid('invalid requestsHash')
  }
  const diff = exec.world.diff()
  const root = await computeStateRoot(kv, parent.stateRoot, base, diff)
  if (!equalBytes(root.root, header.stateRoot)) throw invalid(`invalid state root: header ${bytesToHex(header.stateRoot)}, executed ${bytesToHex(root.root)}`)
  if (withdrawalsRootIsMessagePasser(rules.op, header.timestamp)) {
    const expected = messagePasserStorageRoot(root, base)
    if (header.withdrawalsRoot === undefined || !equalBytes(expected, header.withdrawalsRoot)) {
      throw invalid(`invalid withdrawalsRoot (L2ToL1MessagePasser storage root): header ${header.withdrawalsRoot === undefined ? 'none' : bytesToHex(header.withdrawalsRoot)}, executed ${bytesToHex(expected)}`)
    }
  }

  return {
    stored: {
      number,
      hash: block.hash(),
      headerRlp: header.serialize(),
      blockRlp: op?.blockRlp ?? block.serialize(),
      senders,
      txHashes,
      receipts,
    },
    diff,
    root,
  }
}
