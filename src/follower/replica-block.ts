/**
 * The follower's open block: the sequencer's block rebuilt from its stream messages, without executing a
 * transaction. Each flashblock message adds its transactions (with the receipts the sequencer computed) and
 * its state changes, and yields the snapshot `pending` reads (preconf/snapshot.ts), the same snapshot the
 * sequencer published. The closing message seals it: the follower computes the state root (the parent's
 * tries with the block's diffs applied, message by message as they arrive: state/incremental-root.ts), the
 * transactions and receipts roots, the logs bloom and the gas used itself, and checks them, the
 * transactions' senders and the header's environment against the sealed header the message carries, and
 * that header's hash against the message's block hash. Only a block that
 * passes every check is returned for commit; any difference throws SealMismatch and nothing is committed.
 *
 * Invariants: messages are applied in index order (the caller checks sequence and index); a snapshot, once
 * returned, never changes; `seal` is called once.
 */

import { createBlock, type BlockHeader } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import { createTxFromRLP, type TypedTransaction } from '@ethereumjs/tx'
import type { ReceiptRecord } from '../chain/receipt-codec.ts'
import type { StoredBlock } from '../chain/chain-store.ts'
import { encodeBlock } from '../execution/block-body.ts'
import { rootsInTurns, type IncludedTransaction, type OrderedRoots } from '../execution/block-builder.ts'
import type { ExecutedBlock } from '../execution/block-runner.ts'
import { decodeHeader } from '../execution/block-codec.ts'
import type { ChainRules } from '../execution/chain-config.ts'
import { environmentBlock, openHeaderData } from '../execution/open-header.ts'
import { encodeReceiptFast } from '../execution/receipt-records.ts'
import { makeSnapshot, type PreconfirmedSnapshot } from '../preconf/snapshot.ts'
import { BLOOM_BYTES, logsBloom, orBloom } from '../primitives/bloom.ts'
import { bytesToHex, equalBytes } from '../primitives/hex.ts'
import { ArchiveReader } from '../state/archive-reader.ts'
import { IncrementalStateRoot } from '../state/incremental-root.ts'
import { EMPTY_DIFF, mergeDiffs, type StateDiff } from '../state/state-diff.ts'
import { computeStateRoot, type StateRootResult } from '../state/state-root.ts'
import type { KvStore } from '../storage/db.ts'
import type { DecodedBase, DecodedMessage, DecodedTransaction } from './message-decoder.ts'
import { DEPOSIT_TX_TYPE, type DepositTransaction } from '../opstack/deposit-tx.ts'
import { encodeDepositReceiptForRoot } from '../opstack/receipt-fields.ts'
import { decodeEip1559ExtraData } from '../opstack/base-fee.ts'
import { opForkActiveAt } from '../opstack/chain-config.ts'
import { parseTx } from '../txpool/decode.ts'
import { recoverDirect } from '../txpool/direct-prepare.ts'
import { daFootprintGasScalarFromStorage, transactionDAFootprint } from '../opstack/da-footprint.ts'
import { L1_BLOCK_ADDRESS } from '../opstack/l1-block-storage.ts'
import { readStorageWord } from '../state/state-reader.ts'
import { messagePasserStorageRoot, withdrawalsRootIsMessagePasser } from '../execution/op-withdrawals-root.ts'
import { preconfirmedReader } from '../preconf/state.ts'

/** A sealed block that does not match what the follower applied: never committed, never served. */
export class SealMismatch extends Error {
  constructor(
    readonly blockNumber: bigint,
    readonly field: string,
    readonly expected: string,
    readonly got: string,
  ) {
    super(`block ${blockNumber}: ${field} is ${got} in the sealed header, ${expected} from the stream's transactions and state`)
    this.name = 'SealMismatch'
  }
}

/**
 * The work a replica hands off, to worker threads where the node has them: the seal's ordered-trie roots
 * (transactions, receipts) and the recovery of each transaction's sender.
 */
export interface ReplicaWork {
  readonly orderedRoots: OrderedRoots
  /** Each raw transaction's signer under the block's fork; undefined where it must be recovered here. */
  readonly recoverSenders?: (raws: readonly Uint8Array[], header: BlockHeader) => Promise<readonly (Uint8Array | undefined)[]>
}

/** Everything on this thread, in turns of the event loop. */
export const WORK_HERE: ReplicaWork = { orderedRoots: rootsInTurns }

/** A message that does not extend the open block (wrong block, index, or environment). */
export class ReplicaOutOfStep extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ReplicaOutOfStep'
  }
}

export class ReplicaBlock {
  private transactions: IncludedTransaction[] = []
  /**
   * Each transaction's receipt as the receipts trie holds it, in block order, and the block's bloom so far:
   * made in idle turns after a flashblock is published (the seal makes what is left), so that applying a
   * flashblock costs only what its snapshot needs.
   */
  private receiptEncodings: Uint8Array[] = []
  private encodingScheduled = false
  private diff: StateDiff = EMPTY_DIFF
  private gasUsed = 0n
  /** The header's blobGasUsed for the transactions so far (`addBlobGas`). */
  private blobGasUsedSoFar = 0n
  /** Jovian: the DA footprint gas scalar L1Block holds after the block's deposits (read once, when first needed). */
  private daScalar: bigint | undefined
  private last: PreconfirmedSnapshot
  private readonly bloom = new Uint8Array(BLOOM_BYTES)
  /**
   * Each transaction's signature is recovered and compared with the sender its receipt names in the
   * background as the transactions arrive (on the work's threads; here, a few per turn of the event loop):
   * recovering a whole block's at its seal held the follower's thread for hundreds of ms, and every
   * flashblock message behind it waited. The seal waits for what is left. The first transaction whose
   * sender does not match, if any.
   */
  private senders: Promise<ForgedSender | undefined> = Promise.resolve(undefined)
  /**
   * The block's state root, advanced by each message's diff in an idle turn after its snapshot is published
   * (`advanceStateRoot`), so the seal applies only its own changes. Once a step failed, the seal computes the
   * root from the whole diff instead.
   */
  private stateRoot: { readonly root: IncrementalStateRoot; steps: Promise<void> } | undefined
  private stateRootFailed = false
  /** A signed (non-deposit) transaction is in the block: no deposit may follow. */
  private signedSeen = false

  private constructor(
    private readonly rules: ChainRules,
    private readonly kv: KvStore,
    readonly parent: BlockHeader,
    readonly header: BlockHeader,
    readonly payloadId: string,
    opening: DecodedMessage,
    private readonly work: ReplicaWork,
  ) {
    this.last = this.add(opening)
  }

  /**
   * Opens the block of an index-0 message on `parent`; its environment must follow from the parent. `kv`: the
   * database holding the parent's state and tries (the follower's).
   */
  static open(rules: ChainRules, kv: KvStore, parent: BlockHeader, opening: DecodedMessage, work: ReplicaWork = WORK_HERE): ReplicaBlock {
    const base = opening.base
    if (opening.index !== 0 || base === undefined) throw new ReplicaOutOfStep(`block ${opening.blockNumber} index ${opening.index}: not a block's opening`)
    checkBase(parent, base, opening.blockNumber)
    const common = rules.mutableCopy()
    checkOpEnvironment(rules, base)
    const header = environmentBlock(common, openHeaderData(common, parent, base, rules.op)).header
    if ((header.baseFeePerGas ?? 0n) !== base.baseFeePerGas) {
      throw new ReplicaOutOfStep(`block ${base.number}: base fee ${base.baseFeePerGas} does not follow from the parent (${header.baseFeePerGas})`)
    }
    return new ReplicaBlock(rules, kv, parent, header, opening.payloadId, opening, work)
  }

  get number(): bigint {
    return this.header.number
  }

  get index(): number {
    return this.last.index
  }

  /** The snapshot after the newest message applied. */
  snapshot(): PreconfirmedSnapshot {
    return this.last
  }

  /** Applies the next flashblock message (index one past the last); returns its snapshot. */
  apply(message: DecodedMessage): PreconfirmedSnapshot {
    this.checkNext(message)
    if (message.closing !== undefined) throw new ReplicaOutOfStep(`block ${message.blockNumber}: a closing message is sealed, not applied`)
    this.last = this.add(message)
    return this.last
  }

  /** Seals with the closing message: the block to commit, once every check passed (SealMismatch otherwise). */
  async seal(message: DecodedMessage): Promise<ExecutedBlock> {
    this.checkNext(message)
    const closing = message.closing
    if (closing === undefined) throw new ReplicaOutOfStep(`block ${message.blockNumber} index ${message.index}: not a closing message`)
    const n = this.header.number
    const header = decodeHeader(this.rules, closing.header)
    const diff = mergeDiffs(this.diff, message.diff)
    const raws = this.transactions.map((t) => t.raw)
    this.encodeUpTo(this.transactions.length)
    // The ordered roots (on a worker where the node has one) while this thread computes the state root.
    const orderedRoots = this.work.orderedRoots([raws, this.receiptEncodings])
    orderedRoots.catch(() => undefined) // awaited below; not left unhandled if the state root throws first
    const root = await this.finalStateRoot(diff, message.diff)
    const [transactionsTrie, receiptsTrie] = (await orderedRoots) as [Uint8Array, Uint8Array]
    const check = (field: string, expected: Uint8Array | bigint | undefined, got: Uint8Array | bigint | undefined): void => {
      const show = (v: Uint8Array | bigint | undefined) => (v === undefined ? 'absent' : typeof v === 'bigint' ? String(v) : bytesToHex(v))
      const same = typeof expected === 'bigint' || typeof got === 'bigint' ? expected === got : expected !== undefined && got !== undefined ? equalBytes(expected, got) : expected === got
      if (!same) throw new SealMismatch(n, field, show(expected), show(got))
    }
    check('number', n, header.number)
    check('parentHash', this.parent.hash(), header.parentHash)
    check('stateRoot', root.root, header.stateRoot)
    check('stateRoot (message)', root.root, closing.stateRoot)
    check('transactionsTrie', transactionsTrie, header.transactionsTrie)
    check('receiptTrie', receiptsTrie, header.receiptTrie)
    check('receiptsRoot (message)', receiptsTrie, closing.receiptsRoot)
    check('logsBloom', this.bloom, header.logsBloom)
    check('gasUsed', this.gasUsed, header.gasUsed)
    check('timestamp', this.header.timestamp, header.timestamp)
    check('coinbase', this.header.coinbase.bytes, header.coinbase.bytes)
    check('gasLimit', this.header.gasLimit, header.gasLimit)
    check('extraData', this.header.extraData, header.extraData)
    check('mixHash', this.header.mixHash, header.mixHash)
    check('baseFeePerGas', this.header.baseFeePerGas, header.baseFeePerGas)
    check('excessBlobGas', this.header.excessBlobGas, header.excessBlobGas)
    if (header.common.isActivatedEIP(4844)) check('blobGasUsed', this.blobGasUsedSoFar, header.blobGasUsed)
    if (withdrawalsRootIsMessagePasser(this.rules.op, header.timestamp)) {
      check('withdrawalsRoot (L2ToL1MessagePasser storage root)', messagePasserStorageRoot(root, new ArchiveReader(this.kv, this.parent.number)), header.withdrawalsRoot)
    }
    check('parentBeaconBlockRoot', this.header.parentBeaconBlockRoot, header.parentBeaconBlockRoot)
    check('blockHash', header.hash(), closing.blockHash)
    const forged = await this.senders
    if (forged !== undefined) check(`sender of ${bytesToHex(forged.transaction.hash)}`, forged.signer, forged.transaction.sender)
    const headerOnly = createBlock({ header, ...(header.common.isActivatedEIP(4895) ? { withdrawals: [] } : {}) }, { common: header.common, skipConsensusFormatValidation: true })
    const stored: StoredBlock = {
      number: n,
      hash: header.hash(),
      headerRlp: header.serialize(),
      blockRlp: encodeBlock(headerOnly, raws),
      senders: this.transactions.map((t) => t.sender),
      txHashes: this.transactions.map((t) => t.hash),
      receipts: this.transactions.map((t) => t.receipt),
    }
    return { stored, diff, root }
  }

  /**
   * Adds the header's blobGasUsed for `added` (applied, with the state their message changed): their blob gas,
   * and on a Jovian chain each signed transaction's DA footprint under the scalar L1Block holds after the
   * block's L1-attributes deposit (opstack/da-footprint.ts, as block-execution.ts adds it when building). Kept
   * as messages arrive so each snapshot carries what the sealed header will (the pending block shows it).
   */
  private addBlobGas(added: readonly IncludedTransaction[]): void {
    for (const t of added) this.blobGasUsedSoFar += t.receipt.blobGasUsed ?? 0n
    if (this.rules.op === undefined || !opForkActiveAt(this.rules.op, 'jovian', this.header.timestamp)) return
    for (const t of added) {
      if (t.raw[0] === DEPOSIT_TX_TYPE) continue
      if (this.daScalar === undefined) {
        const state = preconfirmedReader(this.kv, { parentNumber: this.parent.number, diff: this.diff })
        this.daScalar = daFootprintGasScalarFromStorage((slot) => readStorageWord(state, L1_BLOCK_ADDRESS, slot))
      }
      this.blobGasUsedSoFar += transactionDAFootprint(t.raw, this.daScalar)
    }
  }

  /** Encodes receipts (and adds their blooms) up to position `end`. */
  private encodeUpTo(end: number): void {
    for (let i = this.receiptEncodings.length; i < end; i++) {
      const receipt = this.transactions[i]!.receipt
      const bloom = logsBloom(receipt.logs)
      orBloom(this.bloom, bloom)
      this.receiptEncodings.push(receipt.type === DEPOSIT_TX_TYPE ? depositReceiptForRoot(receipt, bloom) : encodeReceiptFast(libraryReceipt(receipt, bloom), receipt.type))
    }
  }

  private readonly encodeSome = (): void => {
    this.encodingScheduled = false
    this.encodeUpTo(Math.min(this.transactions.length, this.receiptEncodings.length + RECEIPTS_PER_TURN))
    if (this.receiptEncodings.length < this.transactions.length) {
      this.encodingScheduled = true
      setImmediate(this.encodeSome)
    }
  }

  /** Advances the block's state root by `diff` (a message's, applied to the snapshot) in an idle turn. */
  private advanceStateRoot(diff: StateDiff): void {
    if (this.stateRootFailed) return
    const s = (this.stateRoot ??= { root: new IncrementalStateRoot(this.kv, this.parent.stateRoot, new ArchiveReader(this.kv, this.parent.number)), steps: Promise.resolve() })
    s.steps = s.steps
      .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
      .then(() => s.root.apply(diff))
      .catch(() => {
        // Only a head start (the database closed under it, say): the seal computes the root from the whole diff.
        this.stateRootFailed = true
      })
  }

  /** The state root with the seal's own changes (`closing`) applied; `whole`: the block's merged diff. */
  private async finalStateRoot(whole: StateDiff, closing: StateDiff): Promise<StateRootResult> {
    const s = this.stateRoot
    if (s !== undefined) await s.steps
    if (s === undefined || this.stateRootFailed) return computeStateRoot(this.kv, this.parent.stateRoot, new ArchiveReader(this.kv, this.parent.number), whole)
    await s.root.apply(closing)
    return s.root.finish()
  }

  private checkNext(message: DecodedMessage): void {
    if (message.blockNumber !== this.header.number || message.payloadId !== this.payloadId) {
      throw new ReplicaOutOfStep(`message for block ${message.blockNumber} (${message.payloadId}) while block ${this.header.number} (${this.payloadId}) is open`)
    }
    if (message.index !== this.last.index + 1) throw new ReplicaOutOfStep(`block ${message.blockNumber}: index ${message.index} after ${this.last.index}`)
  }

  private add(message: DecodedMessage): PreconfirmedSnapshot {
    const first = this.transactions.length
    let cumulative = this.gasUsed
    const added = message.transactions.map((t) => {
      const streamed = this.included(t)
      if (streamed.receipt.cumulativeGasUsed !== cumulative + streamed.receipt.gasUsed) {
        throw new ReplicaOutOfStep(`block ${message.blockNumber}: receipt of ${bytesToHex(t.hash)} does not add up (cumulative gas)`)
      }
      cumulative = streamed.receipt.cumulativeGasUsed
      return streamed
    })
    if (cumulative !== message.gasUsed) throw new ReplicaOutOfStep(`block ${message.blockNumber} index ${message.index}: gas used ${message.gasUsed}, receipts add up to ${cumulative}`)
    this.transactions = [...this.transactions, ...added]
    if (added.length > 0 && !this.encodingScheduled) {
      this.encodingScheduled = true
      setImmediate(this.encodeSome)
    }
    this.senders = this.senders.then((found) => found ?? firstForgedSender(added, this.header, this.work))
    this.diff = mergeDiffs(this.diff, message.diff)
    this.advanceStateRoot(message.diff)
    this.gasUsed = cumulative
    this.addBlobGas(added)
    const previous = first === 0 && message.index === 0 ? undefined : this.last
    return makeSnapshot(this.parent, this.header, message.index, this.transactions, first, this.diff, this.gasUsed, this.blobGasUsedSoFar, previous)
  }

  /**
   * A streamed transaction as an included one, not executed: its fields as the decoder read them (its type
   * must be its receipt's); the library's object is built only when something reads it.
   */
  private included(t: DecodedTransaction): IncludedTransaction {
    const r = t.receipt
    const parsed = t.parsed
    if (parsed.type !== r.type) throw new ReplicaOutOfStep(`transaction ${bytesToHex(t.hash)}: type ${parsed.type}, its receipt says ${r.type}`)
    if (t.deposit !== undefined) this.checkDeposit(t, t.deposit)
    else if (r.depositNonce !== undefined || r.depositReceiptVersion !== undefined) throw new ReplicaOutOfStep(`transaction ${bytesToHex(t.hash)}: a deposit's receipt fields on a transaction of type ${parsed.type}`)
    else this.signedSeen = true
    const chainId = this.header.common.chainId()
    if (parsed.chainId !== undefined && parsed.chainId !== chainId) throw new ReplicaOutOfStep(`transaction ${bytesToHex(t.hash)}: signed for chain ${parsed.chainId}, not ${chainId}`)
    const receipt: ReceiptRecord = {
      transactionHash: t.hash,
      type: r.type,
      from: r.from,
      to: parsed.to ?? null,
      status: r.status,
      cumulativeGasUsed: r.cumulativeGasUsed,
      gasUsed: r.gasUsed,
      effectiveGasPrice: r.effectiveGasPrice,
      contractAddress: r.contractAddress,
      logs: r.logs,
      ...(r.blobGasUsed !== undefined ? { blobGasUsed: r.blobGasUsed } : {}),
      ...(r.blobGasPrice !== undefined ? { blobGasPrice: r.blobGasPrice } : {}),
      ...(r.depositNonce !== undefined ? { depositNonce: r.depositNonce } : {}),
      ...(r.depositReceiptVersion !== undefined ? { depositReceiptVersion: r.depositReceiptVersion } : {}),
    }
    return new StreamedTransaction(t.raw, t.hash, r.from, receipt, this.header.common, t.deposit)
  }

  /**
   * An OP Stack deposit: only on an OP chain, only ahead of the block's signed transactions, and its receipt
   * names its `from` as sender (it has no signature to recover one from).
   */
  private checkDeposit(t: DecodedTransaction, deposit: DepositTransaction): void {
    const hash = bytesToHex(t.hash)
    if (this.rules.op === undefined) throw new ReplicaOutOfStep(`transaction ${hash}: a deposit (type 0x7e) on a chain without deposits (not an OP Stack chain)`)
    if (this.signedSeen) throw new ReplicaOutOfStep(`transaction ${hash}: a deposit after the block's first signed transaction (deposits lead an OP Stack block)`)
    if (!equalBytes(deposit.from, t.receipt.from)) throw new ReplicaOutOfStep(`deposit ${hash}: from ${bytesToHex(deposit.from)}, its receipt says ${bytesToHex(t.receipt.from)}`)
  }
}

/** An included transaction from the stream; its library object is built from its bytes when first read. */
class StreamedTransaction implements IncludedTransaction {
  private built: TypedTransaction | undefined

  constructor(
    readonly raw: Uint8Array,
    readonly hash: Uint8Array,
    readonly sender: Uint8Array,
    readonly receipt: ReceiptRecord,
    private readonly common: Common,
    /** An OP Stack deposit's fields (it has no library object: reading `tx` throws, as for the sequencer's). */
    readonly deposit?: DepositTransaction,
  ) {}

  get tx(): TypedTransaction {
    if (this.deposit !== undefined) throw new Error(`transaction ${bytesToHex(this.hash)} is a deposit (0x7e): it has no library transaction object`)
    return (this.built ??= createTxFromRLP(this.raw, { common: this.common }))
  }
}

const RECEIPTS_PER_TURN = 32

/** A transaction whose signature does not name the sender its receipt does (`signer`: what it names). */
interface ForgedSender {
  readonly transaction: IncludedTransaction
  readonly signer: Uint8Array | undefined
}

/**
 * Recovers each sender (on the work's threads, what they cannot do here, a few per turn of the event loop)
 * and compares it with its receipt's; the first that differs, if any. A signature that recovers no sender at
 * all differs too.
 */
async function firstForgedSender(all: readonly IncludedTransaction[], header: BlockHeader, work: ReplicaWork): Promise<ForgedSender | undefined> {
  // Deposits are unsigned: their sender is their `from`, checked when they were applied.
  const txs = all.some((t) => t.deposit !== undefined) ? all.filter((t) => t.deposit === undefined) : all
  if (txs.length === 0) return undefined
  const recovered = work.recoverSenders === undefined ? [] : await work.recoverSenders(txs.map((t) => t.raw), header)
  let here = 0
  for (let i = 0; i < txs.length; i++) {
    const t = txs[i]!
    let signer = recovered[i]
    if (signer === undefined) {
      if (here++ % SENDERS_PER_TURN === 0) await new Promise<void>((resolve) => setImmediate(resolve))
      signer = signerHere(t, header.common)
    }
    if (signer === undefined || !equalBytes(signer, t.sender)) return { transaction: t, signer }
  }
  return undefined
}

/**
 * The signer recovered on this thread: the everyday shapes without a library object (txpool/direct-prepare.ts,
 * which answers only what the library would, and declines the rest), the others through theirs.
 */
function signerHere(t: IncludedTransaction, common: Common): Uint8Array | undefined {
  try {
    const direct = recoverDirect(parseTx(t.raw), common)
    if (direct !== undefined) return direct.sender
  } catch {
    // Not decodable here: the library object decides.
  }
  try {
    return t.tx.getSenderAddress().bytes
  } catch {
    return undefined
  }
}

const SENDERS_PER_TURN = 8

/**
 * An OP Stack block's environment as op-geth checks it: from Holocene its extraData carries the EIP-1559
 * parameters (version 0, 9 bytes), which the next block's base fee is computed from.
 */
function checkOpEnvironment(rules: ChainRules, base: DecodedBase): void {
  const op = rules.op
  if (op === undefined || !opForkActiveAt(op, 'holocene', base.timestamp)) return
  const jovian = opForkActiveAt(op, 'jovian', base.timestamp)
  if (decodeEip1559ExtraData(base.extraData, jovian) === undefined) {
    throw new ReplicaOutOfStep(`block ${base.number}: extraData ${bytesToHex(base.extraData)} is not ${jovian ? "Jovian's" : "Holocene's"} EIP-1559 parameters`)
  }
}

function checkBase(parent: BlockHeader, base: DecodedBase, number: bigint): void {
  if (base.number !== number || number !== parent.number + 1n) {
    throw new ReplicaOutOfStep(`opening of block ${base.number} (metadata ${number}) does not follow block ${parent.number}`)
  }
  if (!equalBytes(base.parentHash, parent.hash())) {
    throw new ReplicaOutOfStep(`block ${number} builds on ${bytesToHex(base.parentHash)}, not on this node's block ${parent.number} (${bytesToHex(parent.hash())})`)
  }
}

/** A deposit's receipt as the receipts trie holds it (with its nonce and version, as the sequencer hashed it). */
function depositReceiptForRoot(r: ReceiptRecord, bloom: Uint8Array): Uint8Array {
  return encodeDepositReceiptForRoot({
    status: r.status ?? 0,
    cumulativeGasUsed: r.cumulativeGasUsed,
    logsBloom: bloom,
    logs: r.logs,
    ...(r.depositNonce !== undefined ? { depositNonce: r.depositNonce } : {}),
    ...(r.depositReceiptVersion !== undefined ? { depositReceiptVersion: r.depositReceiptVersion } : {}),
  })
}

/** A receipt record in the library's receipt shape (what the receipts trie encodes). */
function libraryReceipt(r: ReceiptRecord, bloom: Uint8Array): never {
  return {
    cumulativeBlockGasUsed: r.cumulativeGasUsed,
    bitvector: bloom,
    logs: r.logs.map((l) => [l.address, l.topics, l.data]),
    ...(r.status !== undefined ? { status: r.status } : { stateRoot: r.root }),
  } as never
}
