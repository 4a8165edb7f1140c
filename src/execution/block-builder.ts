/**
 * Builds a new block transaction by transaction, for the sequencer.
 *
 * The library's BlockBuilder does everything a block needs at its edges (the EIP-4788 / EIP-2935 system
 * writes when it opens; withdrawals, EIP-7685 requests, state root and the header when it is built), but
 * its addTransaction re-creates a block holding every earlier transaction on each call: quadratic, 67 s
 * for 1,000 transactions. `LinearBlockBuilder` replaces only that method: each transaction runs against one
 * header-only block carrying the open block's environment, with the running gas total passed in, and is
 * appended to the builder's lists; the lifecycle stays the library's. (It sets the base class's fields by
 * name, which the library declares private; the set is pinned to @ethereumjs/vm 10.1.3 and covered by the
 * re-import test, which proves a built block validates.) It also computes the transaction and receipt roots
 * in one pass each.
 *
 * Per transaction: a plain value transfer skips the EVM (transfer-fast-path.ts, an exact replica of runTx
 * for calls that run no code); anything else goes through runTx. A transaction comes with its library
 * object, possibly built only on first access, and may come with its transfer view (TransferTx, computed at
 * admission): a transfer that takes the fast path then never needs the library object, not even for its
 * receipt or the block's lists. (The library's own transaction list, which its build() reads only under
 * EIP-7928, where the fast path is off, therefore skips fast transfers.) Each transaction is encoded once, at
 * inclusion (or its bytes as received are taken): the journal, the transactions root and the sealed
 * block's bytes all reuse that encoding, and sealing builds a header-only block (block-body.ts).
 *
 * A transaction that cannot be included (bad nonce, funds, no gas left in the block) leaves no trace and
 * reports why; one that runs and fails (revert, out of gas) is included with status 0, as on any chain.
 */

import { createBlock, type Block, type BlockHeader } from '@ethereumjs/block'
import { Blob4844Tx, createMinimal4844TxFromNetworkWrapper, type TypedTransaction } from '@ethereumjs/tx'
import { BlockBuilder, createVM, runTx, type RunTxResult } from '@ethereumjs/vm'
import type { EVM } from '@ethereumjs/evm'
import { Address } from '@ethereumjs/util'
import { encodeBlock } from './block-body.ts'
import { environmentBlock, openHeaderData, type BlockEnvironment } from './open-header.ts'
import { orderedTrieRootInTurns } from './ordered-trie.ts'
import { runPlainTransfer, transferOf, transfersEligible, type TransferBlock, type TransferTx } from './transfer-fast-path.ts'
import type { ReceiptRecord } from '../chain/receipt-codec.ts'
import type { StoredBlock } from '../chain/chain-store.ts'
import type { ChainStore } from '../chain/chain-store.ts'
import type { KvStore } from '../storage/db.ts'
import { ArchiveReader } from '../state/archive-reader.ts'
import { JournaledState } from '../state/journaled-state.ts'
import { computeStateRoot, type StateRootResult } from '../state/state-root.ts'
import type { StateDiff } from '../state/state-diff.ts'
import { chainBlockHashes } from './block-hashes.ts'
import type { ChainRules } from './chain-config.ts'
import type { ExecutedBlock } from './block-runner.ts'
import { encodeReceiptFast, receiptRecord, type ReceiptSource } from './receipt-records.ts'
import { countResult, internalsOf, openCheckpointOnce } from './builder-internals.ts'

/** Resolves on a later turn of the event loop (after pending I/O callbacks). */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

/** The ordered-trie roots (ordered-trie.ts) of each list, in order. */
export type OrderedRoots = (lists: readonly (readonly Uint8Array[])[]) => Promise<Uint8Array[]>

/** OrderedRoots on this thread, each root after a turn of the event loop and in turns of a few hundred entries. */
export const rootsInTurns: OrderedRoots = async (lists) => {
  const roots: Uint8Array[] = []
  for (const values of lists) {
    await nextTurn()
    roots.push(await orderedTrieRootInTurns(values, nextTurn))
  }
  return roots
}

/** Why a transaction stayed out of the block. `retryable`: it may fit a later block (gas left, blobs). */
export class TransactionNotIncluded extends Error {
  constructor(
    message: string,
    readonly retryable = false,
  ) {
    super(message)
    this.name = 'TransactionNotIncluded'
  }
}

class LinearBlockBuilder extends BlockBuilder {
  envBlock!: Block
  state!: JournaledState
  /** Set when plain transfers skip the EVM (transfer-fast-path.ts); unset for the differential test's reference. */
  transferBlock: TransferBlock | undefined
  /** How many transactions took the fast path. */
  fastCount = 0

  /** Each included transaction's canonical encoding and type, in order (the block body, made once). */
  readonly bodies: Uint8Array[] = []
  readonly types: TypedTransaction['type'][] = []

  /** Computes the transactions and receipts roots (on a worker thread, or here in turns: OpenOptions). */
  orderedRoots: OrderedRoots = rootsInTurns
  private roots: Promise<Uint8Array[]> | undefined

  /**
   * One-pass trie roots (ordered-trie.ts) instead of the library's key-by-key inserts, both asked for at the
   * first of the two calls (the block's transactions and receipts are final by then). Here, each root (and
   * the state root) starts after a turn of the event loop and gives it back every few hundred transactions,
   * so a seal holds the main thread in many short pieces and requests are answered in between (they read
   * published snapshots, never the builder's state; nothing else touches the builder meanwhile, the
   * sequencer runs one operation at a time).
   */
  override async transactionsTrie(): Promise<Uint8Array> {
    return (await this.bothRoots())[0]!
  }

  override async receiptTrie(): Promise<Uint8Array> {
    return (await this.bothRoots())[1]!
  }

  private bothRoots(): Promise<Uint8Array[]> {
    this.roots ??= (async () => {
      await nextTurn()
      const receipts = internalsOf(this).transactionResults.map((r, i) => encodeReceiptFast(r.receipt as never, this.types[i]!))
      return this.orderedRoots([this.bodies, receipts])
    })()
    return this.roots
  }

  override async addTransaction(tx: TypedTransaction): Promise<RunTxResult> {
    return this.addFrom({ tx }, tx.getSenderAddress(), tx.serialize())
  }

  /** addTransaction with the sender already known (recovered once, at admission) and the transaction encoded. */
  async addFrom(source: BlockTx, caller: Address, encoded: Uint8Array): Promise<RunTxResult> {
    const self = internalsOf(this)
    await openCheckpointOnce(this)
    const transfer = this.transferBlock === undefined ? undefined : (source.transfer ?? transferOf(source.tx, caller))
    const gasLimit = transfer?.gasLimit ?? source.tx.gasLimit
    if (gasLimit > this.envBlock.header.gasLimit - self.gasUsed) {
      throw new TransactionNotIncluded('exceeds the gas left in the block', true)
    }
    const vm = (this as unknown as { vm: Parameters<typeof runTx>[0] }).vm
    const fast = transfer !== undefined ? runPlainTransfer(vm.evm as EVM, this.state, vm.common, this.transferBlock!, transfer, caller, self.gasUsed) : undefined
    if (fast !== undefined) {
      this.fastCount++
      this.bodies.push(encoded)
      this.types.push(transfer!.type as TypedTransaction['type'])
      countResult(this, fast, 0n)
      return fast
    }
    return this.addThroughLibrary(source.tx, encoded)
  }

  private async addThroughLibrary(tx: TypedTransaction, encoded: Uint8Array): Promise<RunTxResult> {
    const self = internalsOf(this)
    const common = this.envBlock.common
    let blobGas = 0n
    if (tx instanceof Blob4844Tx) {
      blobGas = BigInt(tx.numBlobs()) * common.param('blobGasPerBlob')
      if (self.blobGasUsed + blobGas > common.getBlobGasSchedule().maxBlobGasPerBlock) {
        throw new TransactionNotIncluded('exceeds the blob gas left in the block', true)
      }
    }
    const vm = (this as unknown as { vm: Parameters<typeof runTx>[0] }).vm
    const result = await runTx(vm, { tx, block: this.envBlock, blockGasUsed: self.gasUsed, skipHardForkValidation: true })
    const included = tx instanceof Blob4844Tx ? createMinimal4844TxFromNetworkWrapper(tx, { common }) : tx
    self.transactions.push(included)
    this.bodies.push(included === tx ? encoded : included.serialize())
    this.types.push(tx.type)
    countResult(this, result, blobGas)
    return result
  }
}

/** A transaction to add: its library object (which may be built on first access) and, when known, its transfer view. */
export interface BlockTx {
  readonly tx: TypedTransaction
  /** Computed without the library object (at admission); undefined: derived from `tx` when needed. */
  readonly transfer?: TransferTx | undefined
}

/** A transaction to add, with what the block records of it. */
export interface BlockCandidate extends BlockTx {
  readonly hash: Uint8Array
  readonly sender: Uint8Array
  /** Its bytes as received (the canonical encoding for all but blob transactions in network form). */
  readonly raw?: Uint8Array | undefined
}

export interface IncludedTransaction {
  /** The library object (built on first access when the transaction came without one). */
  readonly tx: TypedTransaction
  /** The canonical (block-body) encoding, made once: journal, transactions root and block bytes reuse it. */
  readonly raw: Uint8Array
  readonly hash: Uint8Array
  readonly sender: Uint8Array
  readonly receipt: ReceiptRecord
}

export interface OpenOptions {
  /** Run plain value transfers without the EVM (transfer-fast-path.ts). Default true. */
  readonly fastTransfers?: boolean
  /** Where the seal's transactions and receipts roots are computed. Default: here, in turns (rootsInTurns). */
  readonly orderedRoots?: OrderedRoots
}

export type { BlockEnvironment } from './open-header.ts'

/** An open block: add transactions, read its state diff at any point, seal it once. */
export class OpenBlock {
  readonly included: IncludedTransaction[] = []
  private readonly blobGasPrice: bigint | undefined

  private constructor(
    readonly header: BlockHeader,
    readonly state: JournaledState,
    private readonly builder: LinearBlockBuilder,
    /** The state root the builder last asked for (with the trie nodes to commit). */
    private readonly lastRoot: () => StateRootResult | undefined,
  ) {
    this.blobGasPrice = header.common.isActivatedEIP(4844) ? header.getBlobGasPrice() : undefined
  }

  static async open(
    rules: ChainRules,
    kv: KvStore,
    chain: ChainStore,
    parent: BlockHeader,
    env: BlockEnvironment,
    options: OpenOptions = {},
  ): Promise<OpenBlock> {
    const common = rules.mutableCopy()
    const headerData = openHeaderData(common, parent, env)
    const base = new ArchiveReader(kv, parent.number)
    let lastRoot: StateRootResult | undefined
    const state = new JournaledState(base, async (diff) => {
      await nextTurn()
      lastRoot = await computeStateRoot(kv, parent.stateRoot, base, diff)
      return lastRoot.root
    })
    const vm = await createVM({ common, stateManager: state, blockchain: chainBlockHashes(chain) })
    const parentBlock = createBlock({ header: parent.toJSON() }, { common: parent.common, skipConsensusFormatValidation: true })
    const builder = new LinearBlockBuilder(vm, {
      parentBlock,
      headerData,
      ...(common.isActivatedEIP(4895) ? { withdrawals: [] } : {}),
      blockOpts: { putBlockIntoBlockchain: false, setHardfork: false },
    })
    await builder.initState()
    builder.envBlock = environmentBlock(common, headerData)
    builder.state = state
    if (options.orderedRoots !== undefined) builder.orderedRoots = options.orderedRoots
    if ((options.fastTransfers ?? true) && transfersEligible(common)) {
      const h = builder.envBlock.header
      builder.transferBlock = { gasLimit: h.gasLimit, baseFee: h.baseFeePerGas ?? 0n, coinbase: h.coinbase, coinbaseKey: h.coinbase.toString() }
    }
    return new OpenBlock(builder.envBlock.header, state, builder, () => lastRoot)
  }

  /** How many transactions ran as plain transfers without the EVM. */
  get fastTransfers(): number {
    return this.builder.fastCount
  }

  get gasUsed(): bigint {
    return internalsOf(this.builder).gasUsed
  }

  /**
   * Runs `tx` into the block. Throws TransactionNotIncluded (state untouched) when it cannot be included.
   * `raw`, when the caller has it, is the transaction's canonical encoding (saves re-encoding it).
   */
  async add(tx: TypedTransaction, sender: Uint8Array, hash: Uint8Array, raw?: Uint8Array): Promise<IncludedTransaction> {
    return this.addCandidate({ tx, sender, hash, raw })
  }

  /** `add` for a transaction whose library object may not be built yet (see BlockTx). */
  async addCandidate(c: BlockCandidate): Promise<IncludedTransaction> {
    const before = this.gasUsed
    const type = c.transfer?.type ?? c.tx.type
    const encoded = c.raw !== undefined && type !== 3 ? c.raw : c.tx.serialize()
    let result: RunTxResult
    try {
      result = await this.builder.addFrom(c, new Address(c.sender), encoded)
    } catch (e) {
      if (e instanceof TransactionNotIncluded) throw e
      throw new TransactionNotIncluded(e instanceof Error ? e.message : String(e))
    }
    const source = c.transfer !== undefined ? receiptSource(c.transfer) : c.tx
    const receipt = receiptRecord(source, c.hash, c.sender, result.receipt, result.createdAddress?.bytes, before, this.header.baseFeePerGas, this.blobGasPrice)
    const entry = new Included(c, encoded, receipt)
    this.included.push(entry)
    return entry
  }

  /** The net state change so far: a copy, safe to publish. */
  diff(): StateDiff {
    return this.state.diff()
  }

  /**
   * Finishes the block: requests, withdrawals, roots, header. The block cannot be used afterwards.
   * The library builds a header-only block (its transaction list emptied just before; the roots come from
   * the builder's own encodings) and the block's bytes are assembled from those encodings (block-body.ts).
   * Under EIP-7928 the library numbers its access list by the transaction count, so there it keeps them.
   */
  async seal(): Promise<ExecutedBlock> {
    const self = internalsOf(this.builder)
    const headerOnly = !this.header.common.isActivatedEIP(7928)
    if (headerOnly) self.transactions = []
    const { block } = await this.builder.build()
    const root = this.lastRoot()
    if (root === undefined) throw new Error('sealing did not compute a state root')
    const stored: StoredBlock = {
      number: block.header.number,
      hash: block.hash(),
      headerRlp: block.header.serialize(),
      blockRlp: headerOnly ? encodeBlock(block, this.builder.bodies) : block.serialize(),
      senders: this.included.map((i) => i.sender),
      txHashes: this.included.map((i) => i.hash),
      receipts: this.included.map((i) => i.receipt),
    }
    return { stored, diff: this.state.diff(), root }
  }
}

/** What a receipt reads of a transfer, in the library object's terms. */
function receiptSource(t: TransferTx): ReceiptSource {
  return t.type === 2
    ? { type: t.type, to: t.to, maxFeePerGas: t.feeCap, maxPriorityFeePerGas: t.tipCap }
    : { type: t.type, to: t.to, gasPrice: t.feeCap }
}

/** An included transaction; its library object is the candidate's, built when first read. */
class Included implements IncludedTransaction {
  readonly hash: Uint8Array
  readonly sender: Uint8Array

  constructor(
    private readonly candidate: BlockCandidate,
    readonly raw: Uint8Array,
    readonly receipt: ReceiptRecord,
  ) {
    this.hash = candidate.hash
    this.sender = candidate.sender
  }

  get tx(): TypedTransaction {
    return this.candidate.tx
  }
}
