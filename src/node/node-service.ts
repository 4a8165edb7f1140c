/**
 * The NodeApi implementation: state reads, execution, blocks, receipts and logs over the sealed chain.
 *
 * Every method resolves its block id once (BlockResolver) and then reads one consistent state view. Fees,
 * logs and gas estimation live in their own modules; this file wires them to the facade.
 *
 * Its inputs are separate (NodeInputs): the pre-confirmation feed that `pending` reads, the admission side
 * that takes transactions (pool and forwarding; it carries no reads), the events subscriptions hear, and the
 * local producer's development controls. A facade built without the feed serves sealed state only, whether
 * or not the node takes transactions (a read-only node, or an endpoint with pre-confirmations off):
 * `pending` reads `latest`; receipts, transactions' block places and logs appear once sealed (a
 * pre-confirmed transaction reads as a pending one, as a pooled one does); eth_simulateV1 is not served;
 * eth_sendRawTransactionSync waits for the seal; subscriptions announce sealed blocks only. The pending
 * nonce still counts every accepted transaction not sealed yet (pre-confirmed or pooled), as geth's pending
 * nonce counts its pool, so a client sending several transactions in a row never reuses a nonce.
 */

import type { DepositRequest } from '../sequencer/block-opening.ts'
import { DepositNotKept } from '../sequencer/deposit-keeping.ts'
import type { BlockView } from '../chain/types.ts'
import type { BlockId } from '../primitives/block-id.ts'
import { leftPad } from '../primitives/hex.ts'
import { ArchiveReader } from '../state/archive-reader.ts'
import type { StateReader } from '../state/state-reader.ts'
import type { KvStore } from '../storage/db.ts'
import type { ChainRules } from '../execution/chain-config.ts'
import type {
  NodeListener,
  TransactionStatus,
  AccessListResult,
  BlockOverrides,
  CallRequest,
  FeeHistory,
  LocatedLog,
  LocatedReceipt,
  LocatedTransaction,
  LogFilter,
  NodeApi,
  StateOverrides,
  SyncStatus,
} from './api.ts'
import { BlockResolver, type ResolvedBlock } from './block-resolver.ts'
import { ProofService, type StateProofs } from './state-proofs.ts'
import { TraceService, type TraceApi } from './trace-service.ts'
import type { PreconfirmedFeed } from '../preconf/feed.ts'
import { pendingBlock, pendingContext, pendingTransactions } from '../preconf/views.ts'
import { pendingRpcReceipts } from './op-receipts.ts'
import { bytesToHex } from '../primitives/hex.ts'
import { PENDING } from '../primitives/block-id.ts'
import type { ChainReader } from './chain-reader.ts'
import type { PreconfirmedSnapshot } from '../preconf/snapshot.ts'
import { FeeOracle } from './fee-oracle.ts'
import { findLogs, type LogLimits } from './log-finder.ts'
import type { ExecutionTarget, Executor, JobResult } from './execution/jobs.ts'
import type { ResultCache } from './execution/result-cache.ts'
import type { TransactionAdmission } from './admission.ts'
import type { NodeEvents } from './node-events.ts'
import { waitForReceipt, type ReceiptWatch } from './receipt-wait.ts'
import { FlashnodeError } from '../errors/errors.ts'
import { checkLimits } from '../simulate/chain-plan.ts'
import { DEFAULT_SIMULATE_SETTINGS, type SimulatedBlock, type SimulatePayload, type SimulateSettings } from '../simulate/types.ts'

export interface NodeSettings {
  readonly chainId: bigint
  readonly networkId: bigint
  readonly clientVersion: string
  readonly logs: LogLimits
  /** eth_simulateV1's limits and settings. */
  readonly simulate?: SimulateSettings
}

/** What a node that takes transactions adds to the read side (its facades share one). */
export interface WriteSide {
  /** Where transactions go in. */
  readonly admission: TransactionAdmission
  /** What subscriptions hear (built over the feed). */
  readonly events: NodeEvents
  /** Development controls (evm_mine, flashnode_flashblock): the node's own producer. */
  readonly producer: { seal(): Promise<unknown>; flashblock(): Promise<unknown>; queueDeposit(request: DepositRequest): Promise<Uint8Array> }
  /** Default and maximum wait of eth_sendRawTransactionSync (ms). */
  readonly syncTimeoutMs: number
  /** Time from one sealed block to the next (ms): a facade without pre-confirmations waits this longer. */
  readonly blockTimeMs: number
}

export interface NodeInputs {
  /** The pre-confirmed state `pending` reads; absent: this facade serves sealed state only. */
  readonly feed?: PreconfirmedFeed
  /** Absent: a node that takes no transactions (read-only). */
  readonly write?: WriteSide
  /** eth_call results per immutable target. */
  readonly results?: ResultCache
  /** Where the node stands against the chain it follows (a follower); absent: never syncing. */
  readonly syncing?: () => SyncStatus
}

export class NodeService implements NodeApi {
  readonly chainId: bigint
  readonly networkId: bigint
  readonly clientVersion: string
  private readonly resolver: BlockResolver
  private readonly fees: FeeOracle
  private readonly pending: PreconfirmedFeed | undefined
  private readonly write: WriteSide | undefined
  private readonly results: ResultCache | undefined
  private readonly syncStatus: (() => SyncStatus) | undefined

  readonly preconfirmations: boolean
  readonly proofs: StateProofs
  readonly traces: TraceApi

  constructor(
    private readonly kv: KvStore,
    private readonly chain: ChainReader,
    private readonly rules: ChainRules,
    private readonly settings: NodeSettings,
    private readonly executor: Executor,
    inputs: NodeInputs = {},
  ) {
    this.pending = inputs.feed
    this.write = inputs.write
    this.results = inputs.results
    this.syncStatus = inputs.syncing
    this.preconfirmations = this.pending !== undefined
    this.chainId = settings.chainId
    this.networkId = settings.networkId
    this.clientVersion = settings.clientVersion
    this.resolver = new BlockResolver(chain, this.pending)
    this.proofs = new ProofService(kv, chain, this.resolver)
    this.traces = new TraceService(chain, this.resolver, executor)
    this.fees = new FeeOracle(chain, rules)
  }

  // --- state --------------------------------------------------------------------------------------

  private stateAt(block: ResolvedBlock): StateReader {
    if (block.snapshot !== undefined && this.pending !== undefined) return this.pending.state(block.snapshot)
    return new ArchiveReader(this.kv, block.number)
  }

  blockNumber(): bigint {
    return this.chain.head()
  }

  syncing(): SyncStatus {
    return this.syncStatus?.() ?? { syncing: false }
  }

  async getBalance(address: Uint8Array, block: BlockId): Promise<bigint> {
    return this.stateAt(this.resolver.resolve(block)).getAccount(address)?.balance ?? 0n
  }

  /**
   * With `pending`: max(pre-confirmed nonce, the pool's next consecutive nonce), so no gap is handed out;
   * the same without pre-confirmations (sealed state, but the transactions the node holds count).
   */
  async getTransactionCount(address: Uint8Array, block: BlockId): Promise<bigint> {
    const resolved = this.resolver.resolve(block)
    if (resolved.pending && this.write !== undefined && this.pending === undefined) return this.write.admission.unsealedNonce(address)
    const nonce = this.stateAt(resolved).getAccount(address)?.nonce ?? 0n
    if (!resolved.pending || this.write === undefined) return nonce
    return this.write.admission.poolNonce(address, nonce)
  }

  async getCode(address: Uint8Array, block: BlockId): Promise<Uint8Array> {
    const state = this.stateAt(this.resolver.resolve(block))
    const account = state.getAccount(address)
    return account === undefined ? new Uint8Array(0) : state.getCode(account.codeHash)
  }

  async getStorageAt(address: Uint8Array, slot: Uint8Array, block: BlockId): Promise<Uint8Array> {
    const value = this.stateAt(this.resolver.resolve(block)).getStorage(address, leftPad(slot, 32))
    return leftPad(value, 32)
  }

  // --- execution ----------------------------------------------------------------------------------

  private target(block: ResolvedBlock): ExecutionTarget {
    return block.snapshot !== undefined ? { kind: 'pending', snapshot: block.snapshot } : { kind: 'sealed', number: block.number }
  }

  /** Results are cached per immutable target: a sealed block's hash, or a published snapshot. */
  async call(req: CallRequest, blockId: BlockId, overrides?: StateOverrides, blockOverrides?: BlockOverrides): Promise<Uint8Array> {
    const job = { kind: 'call' as const, request: req, ...(overrides ? { state: overrides } : {}), ...(blockOverrides ? { block: blockOverrides } : {}) }
    const block = this.resolver.resolve(blockId)
    const target = this.target(block)
    if (this.results === undefined) return (await this.executor.run(job, target)) as Uint8Array
    const key = block.snapshot !== undefined ? this.results.snapshotKey(block.snapshot) : bytesToHex(this.chain.header(block.number)!.hash())
    return (await this.results.through(key, job, this.executor, target)) as Uint8Array
  }

  async estimateGas(req: CallRequest, blockId: BlockId, overrides?: StateOverrides): Promise<bigint> {
    const job = { kind: 'estimateGas' as const, request: req, ...(overrides ? { state: overrides } : {}) }
    return (await this.executor.run(job, this.target(this.resolver.resolve(blockId)))) as bigint
  }

  async createAccessList(req: CallRequest, blockId: BlockId): Promise<AccessListResult> {
    return (await this.executor.run({ kind: 'createAccessList', request: req }, this.target(this.resolver.resolve(blockId)))) as AccessListResult
  }

  /**
   * Only where pre-confirmations are on (the contract). Runs where eth_call runs (the execution workers),
   * with its own limits; those are checked before the block is resolved, as geth does.
   */
  async simulateV1(payload: SimulatePayload, blockId: BlockId): Promise<SimulatedBlock[]> {
    return (await this.simulation(payload, blockId, undefined)) as SimulatedBlock[]
  }

  async simulateV1Json(payload: SimulatePayload, blockId: BlockId): Promise<string> {
    return (await this.simulation(payload, blockId, 'json')) as string
  }

  private async simulation(payload: SimulatePayload, blockId: BlockId, answer: 'json' | undefined): Promise<JobResult> {
    if (this.pending === undefined) throw new FlashnodeError('methodNotFound', 'the method eth_simulateV1 does not exist/is not available')
    checkLimits(payload, this.settings.simulate ?? DEFAULT_SIMULATE_SETTINGS)
    return this.executor.run({ kind: 'simulate', payload, ...(answer !== undefined ? { answer } : {}) }, this.target(this.resolver.resolve(blockId)))
  }

  // --- blocks, transactions, receipts ---------------------------------------------------------------

  async getBlock(blockId: BlockId): Promise<BlockView | null> {
    const block = this.resolver.tryResolve(blockId)
    if (block?.snapshot !== undefined) return pendingBlock(block.snapshot)
    return block === undefined ? null : (this.chain.block(block.number) ?? null)
  }

  async rawBlock(blockId: BlockId): Promise<Uint8Array | null> {
    const block = this.resolver.tryResolve(blockId)
    if (block === undefined || block.snapshot !== undefined) return null
    return this.chain.store.blockRlp(block.number) ?? null
  }

  async getBlockReceipts(blockId: BlockId): Promise<readonly LocatedReceipt[] | null> {
    const block = this.resolver.tryResolve(blockId)
    if (block === undefined) return null
    if (block.snapshot !== undefined) return this.pendingBlockReceipts(block.snapshot)
    const receipts = this.chain.rpcReceipts(block.number)
    const context = this.chain.context(block.number)
    if (receipts === undefined || context === undefined) return null
    return receipts.map((receipt) => ({ receipt, context }))
  }

  /** One frozen list per snapshot, as NodeApi.getBlockReceipts promises (callers memoize on its identity). */
  private readonly pendingReceiptLists = new WeakMap<PreconfirmedSnapshot, readonly LocatedReceipt[]>()

  private pendingBlockReceipts(snapshot: PreconfirmedSnapshot): readonly LocatedReceipt[] {
    let list = this.pendingReceiptLists.get(snapshot)
    if (list === undefined) {
      const context = pendingContext(snapshot)
      list = Object.freeze(pendingRpcReceipts(this.rules, snapshot).map((receipt) => ({ receipt, context })))
      this.pendingReceiptLists.set(snapshot, list)
    }
    return list
  }

  async getTransactionByHash(hash: Uint8Array): Promise<LocatedTransaction | null> {
    const loc = this.chain.store.txLocation(hash)
    if (loc !== undefined) return this.transactionAt(loc.number, loc.index)
    const pending = this.pendingLocation(hash)
    if (pending !== undefined) return this.pendingTransactionAt(pending.snapshot, pending.index)
    const unsealed = this.pending === undefined ? this.write?.admission.unsealedTransaction(hash) : this.write?.admission.poolTransaction(hash)
    return unsealed === undefined ? null : { tx: unsealed, placement: null }
  }

  async getTransactionByBlockAndIndex(blockId: BlockId, index: number): Promise<LocatedTransaction | null> {
    const block = this.resolver.tryResolve(blockId)
    if (block?.snapshot !== undefined) return this.pendingTransactionAt(block.snapshot, index)
    return block === undefined ? null : this.transactionAt(block.number, index)
  }

  /** A pre-confirmed transaction's place in the newest snapshot (none without pre-confirmations). */
  private pendingLocation(hash: Uint8Array) {
    const snapshot = this.resolver.tryResolve(PENDING)?.snapshot
    const index = snapshot?.positions.get(bytesToHex(hash))
    return snapshot === undefined || index === undefined ? undefined : { snapshot, index }
  }

  private pendingTransactionAt(snapshot: PreconfirmedSnapshot, index: number): LocatedTransaction | null {
    const tx = pendingTransactions(snapshot)[index]
    return tx === undefined ? null : { tx, placement: { context: pendingContext(snapshot), index } }
  }

  private transactionAt(num: bigint, index: number): LocatedTransaction | null {
    const view = this.chain.block(num)
    const tx = view?.transactions[index]
    const context = this.chain.context(num)
    if (tx === undefined || context === undefined) return null
    return { tx, placement: { context, index } }
  }

  async getTransactionReceipt(hash: Uint8Array): Promise<LocatedReceipt | null> {
    const loc = this.chain.store.txLocation(hash)
    if (loc === undefined) {
      const pending = this.pendingLocation(hash)
      if (pending === undefined) return null
      return { receipt: pendingRpcReceipts(this.rules, pending.snapshot)[pending.index]!, context: pendingContext(pending.snapshot) }
    }
    const receipt = this.chain.rpcReceipts(loc.number)?.[loc.index]
    const context = this.chain.context(loc.number)
    if (receipt === undefined || context === undefined) return null
    return { receipt, context }
  }

  async getLogs(filter: LogFilter): Promise<LocatedLog[]> {
    return findLogs(this.chain, this.resolver, filter, this.settings.logs)
  }

  // --- fees -----------------------------------------------------------------------------------------

  async gasPrice(): Promise<bigint> {
    return this.fees.gasPrice()
  }

  async maxPriorityFeePerGas(): Promise<bigint> {
    return this.fees.suggestedTip()
  }

  async blobBaseFee(): Promise<bigint> {
    return this.fees.nextBlobBaseFee()
  }

  async feeHistory(blockCount: number, newest: BlockId, percentiles?: readonly number[]): Promise<FeeHistory> {
    // The open block has no gas used or next base fee yet: history ends at the newest sealed block.
    const last = this.resolver.resolve(newest)
    const head = this.chain.head()
    return this.fees.history(blockCount, last.number > head ? head : last.number, percentiles)
  }

  // --- write path -------------------------------------------------------------------------------------

  private writeSide(): WriteSide {
    if (this.write === undefined) throw new FlashnodeError('methodNotFound', 'this node does not accept transactions')
    return this.write
  }

  /** Not async (an async function returning a promise costs it extra turns); a node without a write side rejects. */
  sendRawTransaction(raw: Uint8Array): Promise<Uint8Array> {
    try {
      return this.writeSide().admission.submit(raw)
    } catch (err) {
      return Promise.reject(err)
    }
  }

  /** Waits up to the pre-confirmation; without pre-confirmations up to the seal, allowed one block time more. */
  async sendRawTransactionSync(raw: Uint8Array, timeoutMs?: number, signal?: AbortSignal): Promise<LocatedReceipt> {
    const w = this.writeSide()
    const limit = this.pending === undefined ? w.syncTimeoutMs + w.blockTimeMs : w.syncTimeoutMs
    const wait = timeoutMs === undefined || timeoutMs <= 0 || timeoutMs > limit ? limit : timeoutMs
    const remote = w.admission.remote
    // A follower: the sequencer answers (its errors, code 4 and 5 included, unchanged); the receipt is then
    // this node's own, once the stream brought it (the same receipt, and the client may read it here next).
    const hash = remote !== undefined ? await remote.submitSync(raw, timeoutMs) : await w.admission.submit(raw)
    const hex = bytesToHex(hash)
    if (remote === undefined && w.admission.status(hash) === 'queued') {
      throw new FlashnodeError(
        'executionFailed',
        "The transaction was added to the mempool but wasn't processed due to a missing nonce or insufficient funds. Please double-check your account and try again.",
        { code: 5, data: hex },
      )
    }
    const receipt = await waitForReceipt(this.receiptWatch(hex), wait, () => this.getTransactionReceipt(hash), signal)
    if (receipt === null) {
      throw new FlashnodeError('requestTimeout', `The transaction was added to the mempool but wasn't processed in ${wait}ms.`, {
        code: 4,
        data: hex,
      })
    }
    return receipt
  }

  /**
   * Where a sync send learns of its receipt: the feed's flashblocks (found by position, no lookup), or
   * without pre-confirmations a lookup at every seal.
   */
  private receiptWatch(hex: string): ReceiptWatch {
    const feed = this.pending
    if (feed === undefined) return (_found, look) => this.writeSide().events.onSealed(look)
    return (found) => {
      const onFlashblock = (s: PreconfirmedSnapshot): void => {
        const i = s.positions.get(hex)
        if (i !== undefined) found({ receipt: pendingRpcReceipts(this.rules, s)[i]!, context: pendingContext(s) })
      }
      feed.on('flashblock', onFlashblock)
      return () => void feed.off('flashblock', onFlashblock)
    }
  }

  async transactionStatus(hash: Uint8Array): Promise<TransactionStatus> {
    const remote = this.write?.admission.remote
    if (remote !== undefined) return remote.transactionStatus(hash)
    const sealed = this.chain.store.txLocation(hash) !== undefined
    if (this.write === undefined) return sealed ? 'Known' : 'Unknown'
    return this.write.admission.isKnown(hash, sealed) ? 'Known' : 'Unknown'
  }

  async mine(): Promise<void> {
    await this.writeSide().producer.seal()
  }

  async flashblock(): Promise<void> {
    await this.writeSide().producer.flashblock()
  }

  async sendDeposit(request: DepositRequest): Promise<Uint8Array> {
    if (this.rules.op === undefined) throw new FlashnodeError('methodNotFound', 'flashnode_sendDeposit needs an OP Stack chain (start with --op-stack)')
    try {
      return await this.writeSide().producer.queueDeposit(request)
    } catch (err) {
      // A group leader whose brokers did not keep the deposit: an error, never a hash it cannot keep.
      if (err instanceof DepositNotKept) throw new FlashnodeError('internal', err.message, { data: bytesToHex(err.hash), cause: err })
      throw err
    }
  }

  /** Without pre-confirmations, flashblocks are not announced (their subscription kinds are refused in rpc/). */
  subscribe(listener: NodeListener): () => void {
    if (this.pending !== undefined) return this.writeSide().events.subscribe(listener)
    const { flashblock: _flashblock, ...sealedOnly } = listener
    return this.writeSide().events.subscribe(sealedOnly)
  }
}
