/**
 * Builds a new block transaction by transaction, for the sequencer, on our EVM (block-execution.ts: the
 * same opening system calls, transaction runs and closing work as import).
 *
 * A transaction comes with its library object, possibly built only on first access, and may come with its
 * view (TxView, decoded at admission): a legacy, EIP-2930 or EIP-1559 transaction (call, creation or plain
 * transfer) with its view runs from it, so its library object is not built, not for its receipt nor for the
 * block's lists (a later read of the transaction may build it). Each transaction is encoded once, at
 * inclusion (or its bytes as received are taken): the journal, the transactions root and the sealed block's
 * bytes all reuse that encoding, and sealing builds a header-only block (block-body.ts).
 *
 * A transaction that cannot be included (bad nonce, funds, no gas left in the block) leaves no trace and
 * reports why; one that runs and fails (revert, out of gas) is included with status 0, as on any chain.
 *
 * Sealing: the EIP-7685 requests, then the state root (state-root.ts) and the transactions and receipts
 * roots (OpenOptions.orderedRoots: a worker thread, or here in turns of the event loop; or
 * OpenOptions.rootsFeed, told of each transaction as it joins, so that a worker has hashed most of the block
 * before the seal) side by side, then the header (the library's header type). A block that will not be sealed
 * is discarded. The sequencer runs one operation at a time on an open block.
 *
 * On an OP Stack chain the block's environment takes the chain's EIP-1559 parameters, each transaction runs
 * with its canonical bytes (its L1 data fee and operator fee: op-fees.ts; from Jovian its DA footprint, a
 * transaction that would take the block's over the gas limit staying out, retryable), the header commits to
 * the L2ToL1MessagePasser's storage root from Isthmus (op-withdrawals-root.ts), and deposit transactions
 * (`addDeposit`) lead the block; they have no library object, so they are kept apart from `included`
 * (which keeps the transactions after them) and join the body, receipts and lists in block order at seal.
 */

import { createBlock, type BlockHeader } from '@ethereumjs/block'
import type { TypedTransaction } from '@ethereumjs/tx'
import { KECCAK256_RLP, type Account } from '@ethereumjs/util'
import { encodeBlock } from './block-body.ts'
import { environmentBlock, openHeaderData, type BlockEnvironment } from './open-header.ts'
import { orderedTrieRootInTurns } from './ordered-trie.ts'
import type { TxView } from './tx-view.ts'
import type { ReceiptRecord } from '../chain/receipt-codec.ts'
import type { StoredBlock } from '../chain/chain-store.ts'
import type { ChainStore } from '../chain/chain-store.ts'
import type { KvStore } from '../storage/db.ts'
import { ArchiveReader } from '../state/archive-reader.ts'
import { computeStateRoot } from '../state/state-root.ts'
import { OverlayReader } from '../state/overlay-reader.ts'
import type { StateDiff } from '../state/state-diff.ts'
import { bytesToBigInt, bytesToHex } from '../primitives/hex.ts'
import type { ChainRules } from './chain-config.ts'
import type { ExecutedBlock } from './block-runner.ts'
import { receiptRecord, type ReceiptSource } from './receipt-records.ts'
import { BlockExecution, DA_FOOTPRINT_LIMIT_REACHED, requestsHash } from './block-execution.ts'
import { messagePasserStorageRoot, withdrawalsRootIsMessagePasser } from './op-withdrawals-root.ts'
import type { OpChainConfig } from '../opstack/chain-config.ts'
import { chainBlockHash, txInputOf } from './evm-env.ts'
import { InvalidTransaction, type AccessListEntry, type TxInput, type TxResult } from '../evm/types.ts'
import type { ChargedRollupCosts } from './op-fees.ts'
import { decodeDepositTransaction, type DepositTransaction } from '../opstack/deposit-tx.ts'
import { recordDeposit } from './op-deposit.ts'

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

/**
 * The seal's transactions and receipts roots fed while the block grows (node/seal-hashing's `feed`): `update`
 * is told the lists after each transaction joins them (they only grow: an item, once there, never changes),
 * and may hash what is final meanwhile; `roots` gives the roots of the complete lists at the seal; `discard`
 * drops a block that will not be sealed. One feed serves one block.
 */
export interface RootsFeed {
  update(lists: readonly (readonly Uint8Array[])[]): void
  roots(lists: readonly (readonly Uint8Array[])[]): Promise<Uint8Array[]>
  discard(): void
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

/** A transaction to add: its library object (which may be built on first access) and, when known, its view. */
export interface BlockTx {
  readonly tx: TypedTransaction
  /** Decoded without the library object (at admission), types 0 to 2; undefined: the library object is read. */
  readonly view?: TxView | undefined
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
  /**
   * The receipt's logs bloom as the block's execution computed it (the receipts root hashes it), when the
   * entry came from it; absent otherwise (a reader then derives it from the receipt's logs).
   */
  readonly logsBloom?: Uint8Array | undefined
  /** What it paid beyond L2 gas on an OP Stack chain (L1 data fee, operator fee); undefined on Ethereum. */
  readonly rollupCosts?: ChargedRollupCosts | undefined
  /**
   * Set when this is a deposit (OP Stack, type 0x7e) in a pre-confirmed snapshot's list (`depositEntry`): it
   * has no library object, and reading `tx` throws.
   */
  readonly deposit?: DepositTransaction | undefined
}

/** A deposit transaction in the block (OP Stack): no library object exists for type 0x7e. */
export interface IncludedDeposit {
  readonly deposit: DepositTransaction
  /** Its envelope bytes, as the block body holds them. */
  readonly raw: Uint8Array
  readonly hash: Uint8Array
  readonly sender: Uint8Array
  readonly receipt: ReceiptRecord
  /** The receipt's logs bloom, as hashed for the receipts root. */
  readonly logsBloom: Uint8Array
  /** True when the state transition refused it (mint kept, nonce incremented, all gas used, status 0). */
  readonly failed: boolean
}

export interface OpenOptions {
  /** Run transactions that come with their view from it, without building their library objects. Default true. */
  readonly fromViews?: boolean
  /** Where the seal's transactions and receipts roots are computed. Default: here, in turns (rootsInTurns). */
  readonly orderedRoots?: OrderedRoots
  /** A feed per block, told of each transaction as it joins (it takes the place of `orderedRoots`). */
  readonly rootsFeed?: () => RootsFeed
}

export type { BlockEnvironment } from './open-header.ts'

const BLOB_GAS_PER_BLOB = 131_072n
const EMPTY = new Uint8Array(0)

/** An open block: add transactions, read its state diff at any point, seal it once. */
export class OpenBlock {
  /** The block's transactions after its deposits (all of them on an Ethereum chain). */
  readonly included: IncludedTransaction[] = []
  /** The block's leading deposit transactions (OP Stack; `addDeposit`). */
  readonly deposits: IncludedDeposit[] = []
  /** Each included transaction's canonical encoding, in order (the block body, made once). */
  private readonly bodies: Uint8Array[] = []
  private readonly blobGasPrice: bigint | undefined
  private viewCount = 0
  private sealed = false
  /** Where the seal's roots are hashed as the block grows (OpenOptions.rootsFeed), if anywhere. */
  private readonly feed: RootsFeed | undefined

  private constructor(
    readonly header: BlockHeader,
    private readonly exec: BlockExecution,
    private readonly headerData: ReturnType<typeof openHeaderData>,
    private readonly kv: KvStore,
    private readonly parent: BlockHeader,
    private readonly base: ArchiveReader,
    private readonly options: OpenOptions,
    /** The OP chain's configuration (ChainRules.op); undefined on Ethereum. */
    private readonly op: OpChainConfig | undefined,
  ) {
    this.blobGasPrice = header.common.isActivatedEIP(4844) ? header.getBlobGasPrice() : undefined
    this.feed = options.rootsFeed?.()
  }

  /** The lists the seal's roots commit to: the transactions' encodings and the receipts', in block order. */
  private get rootLists(): readonly (readonly Uint8Array[])[] {
    return [this.bodies, this.exec.receiptEncodings]
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
    const headerData = openHeaderData(common, parent, env, rules.op)
    const header = environmentBlock(common, headerData).header
    const base = new ArchiveReader(kv, parent.number)
    const exec = new BlockExecution(base, header, chainBlockHash(chain), rules.opFork(header.number, header.timestamp), rules.op)
    exec.open(parent.hash(), header.parentBeaconBlockRoot)
    return new OpenBlock(header, exec, headerData, kv, parent, base, options, rules.op)
  }

  /** How many transactions ran from their views, without their library objects. */
  get ranFromViews(): number {
    return this.viewCount
  }

  get gasUsed(): bigint {
    return this.exec.gasUsed
  }

  /** The header's blobGasUsed so far: blob gas and, from Jovian, the DA footprint (block-execution.ts). */
  get blobGasUsed(): bigint {
    return this.exec.blobGasUsed
  }

  /**
   * Runs `tx` into the block. Throws TransactionNotIncluded (state untouched) when it cannot be included.
   * `raw`, when the caller has it, is the transaction's canonical encoding (saves re-encoding it).
   */
  async add(tx: TypedTransaction, sender: Uint8Array, hash: Uint8Array, raw?: Uint8Array): Promise<IncludedTransaction> {
    return this.addCandidate({ tx, sender, hash, raw })
  }

  /** The view to run from, if any: one of a type it describes, unless the options say otherwise. */
  private viewOf(v: TxView | undefined): TxView | undefined {
    return v !== undefined && v.type <= 2 && v.dataOffset >= 0 && (this.options.fromViews ?? true) ? v : undefined
  }

  /** `add` for a transaction whose library object may not be built yet (see BlockTx). */
  async addCandidate(c: BlockCandidate): Promise<IncludedTransaction> {
    if (this.sealed) throw new Error('the block is sealed')
    const exec = this.exec
    const before = exec.gasUsed
    const view = this.viewOf(c.view)
    const gasLimit = view?.gasLimit ?? c.tx.gasLimit
    if (gasLimit > this.header.gasLimit - before) throw new TransactionNotIncluded('exceeds the gas left in the block', true)
    let input: TxInput
    let type: number
    if (view !== undefined) {
      input = viewInput(view, c.sender)
      type = view.type
    } else {
      const tx = c.tx
      type = tx.type
      if (type === 3) {
        const refused = exec.refusal(type)
        if (refused !== undefined) throw new TransactionNotIncluded(refused)
        const blobGas = BigInt((tx as unknown as { blobVersionedHashes: unknown[] }).blobVersionedHashes.length) * BLOB_GAS_PER_BLOB
        if (exec.blobGasUsed + blobGas > exec.env.maxBlobGasPerBlock) throw new TransactionNotIncluded('exceeds the blob gas left in the block', true)
      }
      input = txInputOf(tx, c.sender)
    }
    const encoded = view !== undefined ? view.raw : c.raw !== undefined && type !== 3 ? c.raw : c.tx.serialize()
    let result: TxResult
    try {
      result = exec.opFork === undefined ? exec.run(input) : exec.run(input, undefined, encoded)
    } catch (e) {
      if (e instanceof InvalidTransaction) throw new TransactionNotIncluded(e.reason, /^(blob )?gas limit reached/.test(e.reason) || e.reason.startsWith(DA_FOOTPRINT_LIMIT_REACHED))
      throw e
    }
    if (view !== undefined) this.viewCount++
    const libraryReceipt = exec.receipt(result, type)
    this.bodies.push(encoded)
    const source: ReceiptSource = view !== undefined ? receiptSource(view) : c.tx
    const created = result.createdAddress === undefined ? undefined : addressBytes(result.createdAddress)
    const receipt = receiptRecord(source, c.hash, c.sender, libraryReceipt, created, before, this.header.baseFeePerGas, this.blobGasPrice)
    const entry = new Included(c, encoded, receipt, libraryReceipt.bitvector, exec.rollupCosts)
    this.included.push(entry)
    this.feed?.update(this.rootLists)
    return entry
  }

  /**
   * Runs a deposit transaction (OP Stack, type 0x7e; its envelope bytes) into the block. Deposits lead an OP
   * block: one after any other transaction is refused. A failed deposit is included (its mint kept, its nonce
   * incremented); only a block without the gas left for it refuses it (TransactionNotIncluded, retryable).
   */
  addDeposit(envelope: Uint8Array): IncludedDeposit {
    if (this.sealed) throw new Error('the block is sealed')
    if (this.included.length > 0) throw new TransactionNotIncluded('deposits precede every other transaction of a block')
    const exec = this.exec
    const deposit = decodeDepositTransaction(envelope)
    let recorded
    try {
      recorded = recordDeposit(exec, deposit, envelope, this.header.baseFeePerGas, this.blobGasPrice)
    } catch (e) {
      if (e instanceof InvalidTransaction) throw new TransactionNotIncluded(e.reason, true)
      throw e
    }
    this.bodies.push(envelope)
    const entry: IncludedDeposit = { deposit, raw: envelope, hash: recorded.hash, sender: deposit.from, receipt: recorded.receipt, logsBloom: recorded.logsBloom, failed: recorded.failed }
    this.deposits.push(entry)
    this.feed?.update(this.rootLists)
    return entry
  }

  /** A read view of the block's state so far (the parent's state with diff() over it). */
  get state(): { getAccount(address: { readonly bytes: Uint8Array }): Promise<Account | undefined> } {
    const view = new OverlayReader(this.base, this.diff())
    return { getAccount: async (address) => view.getAccount(address.bytes) }
  }

  /** The net state change so far: a copy, safe to publish. */
  diff(): StateDiff {
    return this.exec.world.diff()
  }

  /** Drops a block that will not be sealed (what its roots' feed holds goes); it cannot be used afterwards. */
  discard(): void {
    if (this.sealed) return
    this.sealed = true
    this.feed?.discard()
  }

  /**
   * Finishes the block: requests, roots, header. The block cannot be used afterwards. The block's bytes are
   * assembled from the included transactions' encodings and a header-only block (block-body.ts).
   */
  async seal(): Promise<ExecutedBlock> {
    if (this.sealed) throw new Error('the block is sealed')
    this.sealed = true
    const exec = this.exec
    const common = this.header.common
    const requests = exec.finish(common, [], [])
    const diff = exec.world.diff()
    const [root, [transactionsTrie, receiptTrie]] = await Promise.all([
      (async () => {
        await nextTurn()
        return computeStateRoot(this.kv, this.parent.stateRoot, this.base, diff)
      })(),
      (async () => {
        await nextTurn()
        return this.feed !== undefined ? this.feed.roots(this.rootLists) : (this.options.orderedRoots ?? rootsInTurns)(this.rootLists)
      })(),
    ])
    const withdrawals = common.isActivatedEIP(4895)
    const block = createBlock(
      {
        header: {
          ...this.headerData,
          stateRoot: root.root,
          transactionsTrie,
          receiptTrie,
          logsBloom: exec.bloom,
          gasUsed: exec.gasUsed,
          ...(withdrawals ? { withdrawalsRoot: withdrawalsRootIsMessagePasser(this.op, this.header.timestamp) ? messagePasserStorageRoot(root, this.base) : KECCAK256_RLP } : {}),
          ...(common.isActivatedEIP(4844) ? { blobGasUsed: exec.blobGasUsed } : {}),
          ...(requests !== undefined ? { requestsHash: requestsHash(requests) } : {}),
        },
        ...(withdrawals ? { withdrawals: [] } : {}),
      },
      { common, skipConsensusFormatValidation: true },
    )
    const stored: StoredBlock = {
      number: block.header.number,
      hash: block.hash(),
      headerRlp: block.header.serialize(),
      blockRlp: encodeBlock(block, this.bodies),
      senders: [...this.deposits.map((d) => d.sender), ...this.included.map((i) => i.sender)],
      txHashes: [...this.deposits.map((d) => d.hash), ...this.included.map((i) => i.hash)],
      receipts: [...this.deposits.map((d) => d.receipt), ...this.included.map((i) => i.receipt)],
    }
    return { stored, diff, root }
  }
}

/**
 * A deposit as an entry of a list of included transactions (a pre-confirmed snapshot's, whose positions and
 * stream messages are the block's): hash, bytes, sender and receipt as any entry's, `deposit` set, and no
 * library object: `tx` throws, naming the deposit, for a reader that has not learnt deposits yet.
 */
export function depositEntry(d: IncludedDeposit): IncludedTransaction {
  return {
    get tx(): TypedTransaction {
      throw new Error(`transaction ${bytesToHex(d.hash)} is a deposit (0x7e): it has no library transaction object`)
    },
    raw: d.raw,
    hash: d.hash,
    sender: d.sender,
    receipt: d.receipt,
    logsBloom: d.logsBloom,
    deposit: d.deposit,
  }
}

const addressBytes = (a: bigint): Uint8Array => {
  const out = new Uint8Array(20)
  let v = a
  for (let i = 19; i >= 0; i--, v >>= 8n) out[i] = Number(v & 0xffn)
  return out
}

const NO_ACCESS_LIST: readonly AccessListEntry[] = Object.freeze([])

/**
 * A transaction's view as the EVM's input: what txInputOf (evm-env.ts) reads of its library object, the
 * call data a view of the bytes as received (the EVM never writes to it).
 */
function viewInput(t: TxView, sender: Uint8Array): TxInput {
  // Written out per type: on this runtime `{ ...base, more }` costs microseconds (see docs/architecture.md).
  const from = bytesToBigInt(sender)
  const to = t.to === undefined ? undefined : bytesToBigInt(t.to)
  const data = t.dataLength === 0 ? EMPTY : new Uint8Array(t.raw.buffer, t.raw.byteOffset + t.dataOffset, t.dataLength)
  if (t.type === 2) {
    return { type: 2, from, nonce: t.nonce, gasLimit: t.gasLimit, to, value: t.value, data, maxFeePerGas: t.feeCap, maxPriorityFeePerGas: t.tipCap, accessList: t.accessList ?? NO_ACCESS_LIST }
  }
  if (t.type === 1) return { type: 1, from, nonce: t.nonce, gasLimit: t.gasLimit, to, value: t.value, data, gasPrice: t.feeCap, accessList: t.accessList ?? NO_ACCESS_LIST }
  return { type: 0, from, nonce: t.nonce, gasLimit: t.gasLimit, to, value: t.value, data, gasPrice: t.feeCap }
}

/** What a receipt reads of a transaction, in the library object's terms, from its view. */
function receiptSource(t: TxView): ReceiptSource {
  const to = t.to === undefined ? undefined : { bytes: t.to }
  return t.type === 2 ? { type: t.type, to, maxFeePerGas: t.feeCap, maxPriorityFeePerGas: t.tipCap } : { type: t.type, to, gasPrice: t.feeCap }
}

/** An included transaction; its library object is the candidate's, built when first read. */
class Included implements IncludedTransaction {
  readonly hash: Uint8Array
  readonly sender: Uint8Array

  constructor(
    private readonly candidate: BlockCandidate,
    readonly raw: Uint8Array,
    readonly receipt: ReceiptRecord,
    readonly logsBloom: Uint8Array,
    readonly rollupCosts?: ChargedRollupCosts,
  ) {
    this.hash = candidate.hash
    this.sender = candidate.sender
  }

  get tx(): TypedTransaction {
    return this.candidate.tx
  }
}
