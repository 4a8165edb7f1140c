/**
 * One simulated block on our EVM, built as geth's simulator builds it: the block's state (overrides under a
 * WorldState, sim-state.ts), its opening system calls (EIP-4788 beacon root, EIP-2935 parent hash), each call
 * resolved and checked (call-args.ts, call-checks.ts: geth's errors and codes) and run by
 * `executeTransaction`, then the finish: PoW reward when the block has difficulty (geth decides by
 * difficulty, not fork) else withdrawals, EIP-7685 requests (system-calls.ts), and the header with its
 * transactions / receipts / withdrawals roots, bloom, gas used and (only when asked) the state root.
 *
 * The checks run here, so the transaction layer is told to skip what geth's simulator skips or has already
 * checked: the nonce (validation or not: call-checks.ts checks it under validation), the sender's code
 * (EIP-3607), the fee caps against the base fees and EIP-7825's gas cap. A call that gives no fee has fee
 * caps 0, so it pays nothing while BASEFEE reads the block's. A blob call with a zero blob fee cap (no
 * validation) pays no blob fee: when it pays no gas fee either, no fee is charged at all; otherwise it runs
 * in an environment whose blob base fee is 0 (BLOBBASEFEE reads 0 there).
 *
 * On an OP Stack chain a call runs as op-geth's simulator runs its message (internal/ethapi/simulate.go: a
 * message built from the call's arguments carries no rollup cost data, so no L1 data fee is charged or paid
 * to its vault; with validation it is not a skipped-checks message, so from Isthmus the operator fee for its
 * gas limit is bought upfront): a call that names a fee settles the base fee vault, and from Isthmus the
 * operator fee vault and the sender's refund (execution/op-fees.ts forCall); one that names none settles
 * nothing, as an eth_call.
 *
 * The header's blobGasUsed: the calls' blob gas on Ethereum; on an OP Stack chain 0 before Jovian and from
 * Jovian the block's DA footprint, each call's transaction (the bytes the transactions root holds) times the
 * scalar L1Block holds in the block's state, as Base's block executor and assembler make it for any block
 * they build (base/base: the OP block executor's DA footprint, BaseBlockAssembler's blob_gas_used). A call
 * whose footprint would take the block's over its gas limit is refused (-38015), as that executor refuses it.
 *
 * Every frame, log and value move of a call is seen by the block's TransferTracer (our EVM's observer), so
 * a call's logs come out in execution order with the transfer logs interleaved when traced.
 */

import type { Common } from '@ethereumjs/common'
import { KECCAK256_RLP } from '@ethereumjs/util'
import { blockEnvFrom, rulesOf } from '../execution/evm-env.ts'
import { OpFees } from '../execution/op-fees.ts'
import { DA_FOOTPRINT_LIMIT_REACHED } from '../execution/block-execution.ts'
import type { EvmMeter } from '../execution/evm-meter.ts'
import { orderedTrieRoot } from '../execution/ordered-trie.ts'
import { encodeReceiptFast } from '../execution/receipt-records.ts'
import type { Rules } from '../evm/fork.ts'
import type { SystemCallMemo } from '../evm/system-call-memo.ts'
import { executeTransaction, intrinsicGas } from '../evm/transaction.ts'
import { ExecutionTimeout, InvalidTransaction, Status, type BlockEnv, type Log, type TxInput, type TxResult } from '../evm/types.ts'
import { FlashnodeError } from '../errors/errors.ts'
import { revertReason } from '../execution/vm-errors.ts'
import { logsBloom, orBloom, BLOOM_BYTES } from '../primitives/bloom.ts'
import { bigIntToFixedBytes, bigIntToMinimalBytes, bytesToBigInt, ZERO_ADDRESS } from '../primitives/hex.ts'
import { encodeRlp } from '../primitives/rlp-encode.ts'
import type { AccountOverride } from '../state/account-overrides.ts'
import type { StateDiff } from '../state/state-diff.ts'
import type { StateReader } from '../state/state-reader.ts'
import { opForkActive, type OpForkName } from '../opstack/forks.ts'
import { buildTransaction, resolveCall, type ResolvedCall } from './call-args.ts'
import { blobGasOf, checkBeforeExecution, checkGas, paysNoBlobFee, type CheckContext } from './call-checks.ts'
import { SIM_CODES, simError } from './errors.ts'
import type { HeaderTemplate, SimHeaderData } from './headers.ts'
import { finishHeader, type FinishedHeader } from './sim-header.ts'
import { SimState } from './sim-state.ts'
import { blockRequests, openBlock, requestsHash } from './system-calls.ts'
import { TransferTracer } from './transfer-tracer.ts'
import type { SimCall, SimCallResult } from './types.ts'

const MAX_UINT64 = (1n << 64n) - 1n
const GWEI = 1_000_000_000n
const EMPTY = new Uint8Array(0)
const ZERO_ROOT = new Uint8Array(32)

export interface SimBlockOptions {
  readonly common: Common
  /** The block's OP fork on an OP Stack chain (ChainRules.opFork): the EVM's OP rules; absent on Ethereum. */
  readonly opFork?: OpForkName
  /** The simulation's state before this block. */
  readonly state: StateReader
  /** BLOCKHASH: canonical blocks, the base, the blocks simulated so far. */
  readonly blockHash: (n: bigint) => bigint
  readonly header: SimHeaderData
  readonly template: HeaderTemplate
  readonly stateOverrides: ReadonlyMap<string, AccountOverride> | undefined
  readonly traceTransfers: boolean
  readonly validation: boolean
  readonly revertCode: number
  /** Date.now() after which execution stops (ExecutionTimeout). */
  readonly deadline: number
  /** Computes the state root of the block's changes; without it the root is 32 zero bytes. */
  readonly stateRoot?: (diff: StateDiff) => Promise<Uint8Array>
  /** Adds each call's gas and EVM time (the node's gas-per-second metrics). */
  readonly meter?: EvmMeter
  /**
   * The remembered system calls of `state`, given only when the block's WorldState reads `state` itself (no
   * state overrides): evm/system-call-memo.ts.
   */
  readonly systemCalls?: SystemCallMemo
}

/** A call as it went into the block. */
export interface IncludedCall {
  /** The call with every field decided: the transaction it is (call-args.ts). */
  readonly call: ResolvedCall
  readonly serialized: Uint8Array
  readonly hash: Uint8Array
  readonly sender: Uint8Array
  readonly result: SimCallResult
}

/** The finished block: its header and the state it changed. */
export interface FinishedBlock {
  readonly header: FinishedHeader
  /** What the block changed (overrides included); taken only when asked. */
  diff(): StateDiff
  /** The withdrawals' RLP encodings, when the block has a list. */
  readonly withdrawals: readonly Uint8Array[] | undefined
}

export class SimBlock {
  readonly included: IncludedCall[] = []
  private gasUsedSoFar = 0n
  private blobGasUsed = 0n
  private readonly receipts: Uint8Array[] = []
  private readonly bloom = new Uint8Array(BLOOM_BYTES)
  private readonly logs: Log[] = []
  /** The environment of a call that pays no blob fee but a gas fee (blob base fee 0). */
  private noBlobFeeEnv: BlockEnv | undefined

  private constructor(
    private readonly opts: SimBlockOptions,
    private readonly rules: Rules,
    private readonly state: SimState,
    private readonly env: BlockEnv,
    private readonly tracer: TransferTracer,
    /** The block's blob base fee (the override, else from its excess blob gas); undefined before Cancun. */
    private readonly blobBaseFee: bigint | undefined,
    /** The remembered system calls this block's world may use (opts.systemCalls unless overrides stand between). */
    private readonly systemCalls: SystemCallMemo | undefined,
  ) {}

  /** Applies the block's state overrides, then opens it (system calls). */
  static async open(opts: SimBlockOptions): Promise<SimBlock> {
    const { common } = opts
    const rules = rulesOf(common, opts.opFork)
    const state = await SimState.open(opts.state, opts.stateOverrides, rules)
    // the environment from the header's fields: the library's header is built once, at the end (finish)
    const env = blockEnvFrom(opts.header, common, { blockHash: opts.blockHash, blobBaseFee: opts.template.blobBaseFeeOverride })
    // overrides put an overlay between the block's world and `opts.state`: the memo is not that world's
    const systemCalls = state.overridden ? undefined : opts.systemCalls
    openBlock(state.world, env, rules, opts.template.parentBeaconBlockRoot, opts.header.parentHash, systemCalls)
    const blobBaseFee = common.isActivatedEIP(4844) ? env.blobBaseFee : undefined
    return new SimBlock(opts, rules, state, env, new TransferTracer(opts.traceTransfers), blobBaseFee, systemCalls)
  }

  get gasUsed(): bigint {
    return this.gasUsedSoFar
  }

  get gasLeft(): bigint {
    return this.opts.template.gasLimit - this.gasUsedSoFar
  }

  /** Runs one call into the block. Throws (with its simulate code) when the call cannot be included. */
  run(call: SimCall, budgetLeft: bigint): IncludedCall {
    const { common, validation } = this.opts
    const world = this.state.world
    const from = call.from ?? ZERO_ADDRESS
    const sender = bytesToBigInt(from)
    const nonce = world.getNonce(sender)
    const baseFee = this.opts.header.baseFeePerGas
    const resolved = resolveCall(call, nonce, { blockGasLeft: this.gasLeft, budgetLeft, baseFee, chainId: common.chainId() })
    const ctx: CheckContext = { common, validation, baseFee, blobBaseFee: this.blobBaseFee, senderNonce: nonce, senderBalance: world.getBalance(sender) }
    checkBeforeExecution(resolved, ctx)
    const built = buildTransaction(resolved)
    const input = txInputOf(resolved, sender)
    const blobGas = blobGasOf(resolved, common)
    const zeroBlob = blobGas > 0n && paysNoBlobFee(resolved, validation)
    const blobFeePaid = zeroBlob ? 0n : blobGas * (this.blobBaseFee ?? 0n)
    const intrinsic = intrinsicGas(input.data, input.to === undefined, input.accessList, input.authorizationList?.length ?? 0, this.rules)
    checkGas(resolved, ctx, intrinsic, blobFeePaid)
    const opFork = this.opts.opFork
    const opFees = opFork === undefined ? undefined : new OpFees(opFork, world, this.env.baseFee)
    const headerBlobGas = this.headerBlobGas(blobGas, built.serialized, opFees)
    if (opFees !== undefined) this.checkDAFootprint(headerBlobGas)

    // A call that gives no fee (geth's NoBaseFee) or a zero gas price pays no gas fee.
    const noGasFee = resolved.msgGasPrice === 0n
    let env = this.env
    if (zeroBlob && !noGasFee) env = this.noBlobFeeEnv ??= { ...this.env, blobBaseFee: 0n }
    this.tracer.reset()
    let result: TxResult
    const meter = this.opts.meter
    try {
      const started = meter === undefined ? 0 : performance.now()
      const opHooks = opFees === undefined || noGasFee ? undefined : opFees.forCall(sender, input.gasLimit, validation)
      result = executeTransaction(world, env, this.rules, input, {
        ...opHooks,
        skipNonceCheck: true,
        skipSenderCodeCheck: true,
        skipBaseFeeCheck: true,
        skipTxGasCap: true,
        skipFeeCharge: zeroBlob && noGasFee,
        blockGasUsed: this.gasUsedSoFar,
        deadline: this.opts.deadline,
        observer: this.tracer,
        precompiles: this.state.precompiles,
      })
      meter?.ran(result.gasUsed, started)
    } catch (e) {
      throw unexpected(e)
    }
    // geth's nonce is a uint64 that wraps when a call runs without nonce checks.
    const after = world.getNonce(sender)
    if (after > MAX_UINT64) world.setNonce(sender, after & MAX_UINT64)
    this.append(resolved.type, result, headerBlobGas)
    const included = { call: resolved, serialized: built.serialized, hash: built.hash, sender: from, result: this.callResult(resolved.gasCapped, result) }
    this.included.push(included)
    return included
  }

  /** What a call adds to the header's blobGasUsed (see the module's comment); `opFees` on an OP Stack chain. */
  private headerBlobGas(blobGas: bigint, serialized: Uint8Array, opFees: OpFees | undefined): bigint {
    if (opFees === undefined) return blobGas
    return opForkActive(opFees.fork, 'jovian') ? opFees.daFootprint(serialized) : 0n
  }

  /**
   * Jovian: a call whose DA footprint does not fit what the block's gas limit leaves of it is refused before it
   * runs, validation or not, as Base's block executor refuses the transaction (its simulation runs the calls
   * through it); with the block gas limit's simulate code, the limit being the block's gas limit.
   */
  private checkDAFootprint(footprint: bigint): void {
    const available = this.opts.template.gasLimit - this.blobGasUsed
    if (footprint > available) throw simError(SIM_CODES.blockGasLimitReached, `${DA_FOOTPRINT_LIMIT_REACHED}: have ${available}, want ${footprint}`)
  }

  private append(type: number, result: TxResult, blobGas: bigint): void {
    this.gasUsedSoFar += result.gasUsed
    this.blobGasUsed += blobGas
    const logs = result.logs.map(logBytes)
    for (const log of result.logs) this.logs.push(log)
    const bitvector = logsBloom(logs.map(([address, topics]) => ({ address, topics })))
    orBloom(this.bloom, bitvector)
    const status = result.status === Status.Success ? (1 as const) : (0 as const)
    // Before Byzantium a receipt holds the state root after the transaction: 32 zero bytes, as the block's own.
    const receipt = this.rules.byzantium ? { cumulativeBlockGasUsed: this.gasUsedSoFar, status, bitvector, logs } : { cumulativeBlockGasUsed: this.gasUsedSoFar, stateRoot: ZERO_ROOT, bitvector, logs }
    this.receipts.push(encodeReceiptFast(receipt, type))
  }

  private callResult(gasCapped: boolean, r: TxResult): SimCallResult {
    if (r.status === Status.Success) return { gasUsed: r.gasUsed, maxUsedGas: r.gasUsedBeforeRefund, status: 1, returnData: r.output, logs: this.tracer.logs() }
    let error
    if (r.status === Status.Revert) {
      const reason = revertReason(r.output)
      error = { code: this.opts.revertCode, message: reason === undefined ? 'execution reverted' : `execution reverted: ${reason}`, data: r.output }
    } else {
      const message = r.haltReason ?? 'execution failed'
      error = { code: SIM_CODES.vmError, message: gasCapped ? `${message} (gas limit was capped by the RPC server's global gas cap)` : message }
    }
    // geth returns no data for a failed call: a revert's data is in its error.
    return { gasUsed: r.gasUsed, maxUsedGas: r.gasUsedBeforeRefund, status: 0, returnData: EMPTY, logs: [], error }
  }

  /** Finishes the block: PoW reward or withdrawals, requests, roots, the header. */
  async finish(): Promise<FinishedBlock> {
    const { common, template: t } = this.opts
    const world = this.state.world
    if (t.difficulty !== 0n) {
      world.addBalance(bytesToBigInt(t.coinbase), common.param('minerReward'))
    } else if (t.withdrawals !== undefined) {
      for (const w of t.withdrawals) if (w.amount > 0n) world.addBalance(bytesToBigInt(w.address), w.amount * GWEI)
    }
    const requests = blockRequests(world, this.env, this.rules, common, this.logs, this.systemCalls)
    const state = this.state
    const stateRoot = this.opts.stateRoot === undefined ? new Uint8Array(32) : await this.opts.stateRoot(state.diff())
    const withdrawals = t.withdrawals?.map((w) =>
      encodeRlp([bigIntToMinimalBytes(w.index), bigIntToMinimalBytes(w.validatorIndex), w.address, bigIntToMinimalBytes(w.amount)]),
    )
    const header = finishHeader(
      this.opts.header,
      {
        stateRoot,
        transactionsTrie: orderedTrieRoot(this.included.map((c) => c.serialized)),
        receiptTrie: orderedTrieRoot(this.receipts),
        logsBloom: this.bloom,
        gasUsed: this.gasUsedSoFar,
        blobGasUsed: this.blobGasUsed,
        withdrawalsRoot: withdrawals === undefined ? undefined : withdrawals.length === 0 ? KECCAK256_RLP : orderedTrieRoot(withdrawals),
        requestsHash: requests === undefined ? undefined : requestsHash(requests),
      },
      common,
    )
    return { header, diff: () => state.diff(), withdrawals }
  }
}

/** A resolved call as our EVM's transaction input: the message's fees (a call that gives none pays none). */
function txInputOf(c: ResolvedCall, from: bigint): TxInput {
  const dynamic = c.type !== 0
  return {
    type: c.type,
    from,
    nonce: c.nonce,
    gasLimit: c.gas,
    to: c.to === undefined ? undefined : bytesToBigInt(c.to),
    value: c.value,
    data: c.data,
    ...(dynamic ? { maxFeePerGas: c.msgFeeCap, maxPriorityFeePerGas: c.msgTipCap } : { gasPrice: c.msgGasPrice }),
    ...(c.accessList !== undefined ? { accessList: c.accessList.map((e) => ({ address: bytesToBigInt(e.address), storageKeys: e.storageKeys.map(bytesToBigInt) })) } : {}),
    ...(c.type === 3 ? { maxFeePerBlobGas: c.maxFeePerBlobGas ?? 0n, blobVersionedHashes: (c.blobVersionedHashes ?? []).map(bytesToBigInt) } : {}),
    ...(c.authorizationList !== undefined
      ? { authorizationList: c.authorizationList.map((a) => ({ chainId: a.chainId, address: bytesToBigInt(a.address), nonce: a.nonce, yParity: a.yParity, r: a.r, s: a.s })) }
      : {}),
  }
}

/** A log as receipts hold it: [address, topics, data]. */
function logBytes(log: Log): [Uint8Array, Uint8Array[], Uint8Array] {
  return [bigIntToFixedBytes(log.address, 20), log.topics.map((t) => bigIntToFixedBytes(t, 32)), log.data]
}

/** A failure our checks did not foresee: geth's default for transaction errors, -32603. */
function unexpected(e: unknown): Error {
  if (e instanceof ExecutionTimeout || e instanceof FlashnodeError) return e
  if (e instanceof InvalidTransaction) return simError(SIM_CODES.internal, e.reason)
  return simError(SIM_CODES.internal, e instanceof Error ? e.message : String(e))
}
