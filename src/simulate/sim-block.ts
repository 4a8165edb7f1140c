/**
 * One simulated block, built the way the sequencer builds a real one: the library's BlockBuilder opens it
 * (EIP-4788 / EIP-2935 system writes) and finishes it (PoW reward, withdrawals, EIP-7685 requests, state
 * root, transaction / receipt / withdrawal roots, bloom, header), over the simulation's JournaledState.
 *
 * Between the two, each call runs here, not through the builder's addTransaction (which re-creates the
 * whole block per transaction and knows none of geth's simulation rules): the call is resolved and checked
 * (call-args.ts, call-checks.ts), then run by runTx against an environment block, and its result appended
 * to the builder's (fields the library declares private, pinned to @ethereumjs/vm 10.1.3 as in
 * execution/block-builder.ts). The transactions themselves stay out of the builder's list, which the
 * library would re-create one by one (and cannot, above the EIP-7825 gas cap): the builder's roots are
 * taken from them here, and the block's body is ours. A call that gives no fee runs against an environment
 * block with base fee 0, while BASEFEE still reads the block's (evm-hooks.ts). The PoW reward follows
 * geth: paid when the block's difficulty is not zero. The VM is lent by the simulation's pool.
 */

import type { Block, HeaderData } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import type { TransactionType, TypedTransaction } from '@ethereumjs/tx'
import { BlockBuilder, encodeReceipt, runTx, type RunTxResult, type VM } from '@ethereumjs/vm'
import { orderedTrieRoot } from '../execution/ordered-trie.ts'
import { countResult, internalsOf, openCheckpointOnce } from '../execution/builder-internals.ts'
import { Address } from '@ethereumjs/util'
import type { BlockHashSource } from '../execution/block-hashes.ts'
import { preExecutionError, vmFailure } from '../execution/vm-errors.ts'
import { ExecutionDeadlineExceeded } from '../state/journaled-state.ts'
import type { SimState } from './sim-state.ts'
import { FlashnodeError } from '../errors/errors.ts'
import { ZERO_ADDRESS } from '../primitives/hex.ts'
import { buildTransaction, resolveCall } from './call-args.ts'
import { blobGasOf, checkBeforeExecution, checkGas, floorDataGas, paysNoBaseFee, paysNoBlobFee, type CheckContext } from './call-checks.ts'
import { SIM_CODES, simError } from './errors.ts'
import type { SimVm, SimVmPool } from './sim-vms.ts'
import type { HeaderTemplate } from './headers.ts'
import { applySimOverrides, SimPrecompiles, standardPrecompileKeys, standardPrecompiles } from './overrides.ts'
import { TransferTracer } from './transfer-tracer.ts'
import { environmentBlock } from './env-blocks.ts'
import type { AccountOverride } from '../state/account-overrides.ts'
import type { SimCall, SimCallResult } from './types.ts'

const MAX_UINT64 = (1n << 64n) - 1n


/**
 * geth finishes a block by its difficulty, not by its fork: a block with difficulty pays the PoW reward
 * (SimBlock.finish does) and processes no withdrawals, one without does the reverse. The builder's own
 * reward is disabled. Transaction and receipt roots come from the transactions kept here.
 */
class SimBlockBuilder extends BlockBuilder {
  /** The block's transactions, serialized, and their types. */
  readonly real: { readonly type: TransactionType; readonly serialized: Uint8Array }[] = []

  constructor(proofOfWork: boolean, ...args: ConstructorParameters<typeof BlockBuilder>) {
    super(...args)
    const skip = async (): Promise<void> => {}
    Object.assign(this, proofOfWork ? { rewardMiner: skip, processWithdrawals: skip } : { rewardMiner: skip })
  }

  override async transactionsTrie(): Promise<Uint8Array> {
    return orderedTrieRoot(this.real.map((tx) => tx.serialized))
  }

  override async receiptTrie(): Promise<Uint8Array> {
    return orderedTrieRoot(internalsOf(this).transactionResults.map((r, i) => encodeReceipt(r.receipt, this.real[i]!.type)))
  }
}

export interface SimBlockOptions {
  readonly common: Common
  readonly vms: SimVmPool
  readonly state: SimState
  readonly hashes: BlockHashSource
  readonly header: HeaderData
  readonly template: HeaderTemplate
  readonly stateOverrides: ReadonlyMap<string, AccountOverride> | undefined
  readonly traceTransfers: boolean
  readonly validation: boolean
  readonly revertCode: number
}

/** A call as it went into the block. */
export interface IncludedCall {
  readonly tx: TypedTransaction
  readonly serialized: Uint8Array
  readonly hash: Uint8Array
  readonly sender: Uint8Array
  readonly result: SimCallResult
}

export class SimBlock {
  readonly included: IncludedCall[] = []

  private constructor(
    private readonly opts: SimBlockOptions,
    private readonly lease: SimVm,
    private readonly vm: VM,
    private readonly builder: SimBlockBuilder,
    private readonly hooks: SimVm['hooks'],
    private readonly tracer: TransferTracer,
    /** The block's blob base fee (the override, else from its excess blob gas). */
    private readonly blobBaseFee: bigint | undefined,
    /** Environment blocks by envKey. */
    private readonly envBlocks: Map<string, Block>,
  ) {}

  /** Applies the block's state overrides, then opens it (system calls). */
  static async open(opts: SimBlockOptions): Promise<SimBlock> {
    const { common, state } = opts
    const table = await applySimOverrides(state, opts.stateOverrides, standardPrecompiles(common))
    const tracer = new TransferTracer(opts.traceTransfers)
    const lease = await opts.vms.acquire(common)
    lease.bind(state, opts.hashes, new SimPrecompiles(table, standardPrecompileKeys(common)), tracer)
    const { vm, hooks } = lease
    const t = opts.template
    const builder = new SimBlockBuilder(t.difficulty !== 0n, vm, {
      parentBlock: { header: {} } as unknown as Block,
      headerData: opts.header,
      // No list for none: the library then takes the empty list's root without building a trie for it.
      ...(t.withdrawals !== undefined && t.withdrawals.length > 0
        ? { withdrawals: t.withdrawals.map((w) => ({ index: w.index, validatorIndex: w.validatorIndex, address: w.address, amount: w.amount })) }
        : {}),
      blockOpts: { putBlockIntoBlockchain: false, setHardfork: false, skipConsensusFormatValidation: true },
    })
    await builder.initState()
    await openCheckpointOnce(builder)
    let blobBaseFee: bigint | undefined
    const envBlocks = new Map<string, Block>()
    if (common.isActivatedEIP(4844)) {
      blobBaseFee = t.blobBaseFeeOverride
      if (blobBaseFee === undefined) {
        // The plain environment block already answers this fee: it is the one a fee-paying call runs against.
        const plain = environmentBlock(common, opts.header, { baseFeeZero: false, blobFee: undefined })
        blobBaseFee = plain.header.getBlobGasPrice()
        envBlocks.set(envKey(false, blobBaseFee), plain)
      }
    }
    return new SimBlock(opts, lease, vm, builder, hooks, tracer, blobBaseFee, envBlocks)
  }

  get gasUsed(): bigint {
    return internalsOf(this.builder).gasUsed
  }

  get gasLeft(): bigint {
    return this.opts.template.gasLimit - this.gasUsed
  }

  private environment(baseFeeZero: boolean, blobFee: bigint | undefined): Block {
    const key = envKey(baseFeeZero, blobFee)
    let block = this.envBlocks.get(key)
    if (block === undefined) {
      block = environmentBlock(this.opts.common, this.opts.header, { baseFeeZero, blobFee })
      this.envBlocks.set(key, block)
    }
    return block
  }

  /** Runs one call into the block. Throws (with its simulate code) when the call cannot be included. */
  async run(call: SimCall, budgetLeft: bigint): Promise<IncludedCall> {
    const { common, state, validation } = this.opts
    const from = call.from ?? ZERO_ADDRESS
    const sender = new Address(from)
    const account = state.readAccount(sender.toString(), from)
    const baseFee = this.opts.header.baseFeePerGas as bigint | undefined
    const resolved = resolveCall(call, account?.nonce ?? 0n, { blockGasLeft: this.gasLeft, budgetLeft, baseFee, chainId: common.chainId() })
    const ctx: CheckContext = {
      common,
      validation,
      baseFee,
      blobBaseFee: this.blobBaseFee,
      senderNonce: account?.nonce ?? 0n,
      senderBalance: account?.balance ?? 0n,
    }
    checkBeforeExecution(resolved, ctx)
    let built
    try {
      built = buildTransaction(resolved, common)
    } catch (e) {
      throw unexpected(e, sender)
    }
    const { tx, serialized, hash } = built
    const blobGas = blobGasOf(resolved, common)
    const zeroBlob = blobGas > 0n && paysNoBlobFee(resolved, validation)
    const blobFeePaid = zeroBlob ? 0n : blobGas * (this.blobBaseFee ?? 0n)
    const intrinsicGas = tx.getIntrinsicGas()
    // The runner asks again; the answer cannot change (it depends on the data, target and lists only).
    Object.assign(tx, { getIntrinsicGas: () => intrinsicGas })
    checkGas(resolved, ctx, intrinsicGas, blobFeePaid)

    const zeroBase = baseFee !== undefined && baseFee > 0n && paysNoBaseFee(resolved, validation)
    const env = this.environment(zeroBase, zeroBlob ? 0n : this.blobBaseFee)
    this.hooks.env.baseFee = zeroBase ? baseFee : undefined
    this.hooks.env.blobBaseFee = zeroBlob ? this.blobBaseFee : undefined
    this.tracer.reset()
    this.hooks.active = true
    state.armSender(sender)
    let result: RunTxResult
    try {
      result = await runTx(this.vm, {
        tx,
        block: env,
        blockGasUsed: this.gasUsed,
        skipNonce: true,
        skipBlockGasLimitValidation: true,
        skipHardForkValidation: true,
      })
    } catch (e) {
      throw unexpected(e, sender)
    } finally {
      this.hooks.active = false
      this.hooks.env.baseFee = this.hooks.env.blobBaseFee = undefined
      state.armSender(undefined)
    }
    await wrapNonce(state, sender)
    this.append(tx.type, serialized, result, blobGas)
    const included = { tx, serialized, hash, sender: from, result: this.callResult(tx, intrinsicGas, resolved.gasCapped, result) }
    this.included.push(included)
    return included
  }

  private append(type: TransactionType, serialized: Uint8Array, result: RunTxResult, blobGas: bigint): void {
    this.builder.real.push({ type, serialized })
    countResult(this.builder, result, blobGas)
  }

  private callResult(tx: TypedTransaction, intrinsicGas: bigint, gasCapped: boolean, r: RunTxResult): SimCallResult {
    const { common } = this.opts
    const exec = r.execResult
    let maxUsedGas = exec.executionGasUsed + intrinsicGas
    if (common.isActivatedEIP(7623)) {
      const floor = floorDataGas(tx.data, common)
      if (maxUsedGas < floor) maxUsedGas = floor
    }
    const base = { gasUsed: r.totalGasSpent, maxUsedGas }
    if (exec.exceptionError === undefined) return { ...base, status: 1, returnData: exec.returnValue, logs: this.tracer.logs() }
    const failure = vmFailure(exec.exceptionError.error, exec.returnValue)
    const error =
      failure.kind === 'revert'
        ? { code: this.opts.revertCode, message: failure.message, data: exec.returnValue }
        : {
            code: SIM_CODES.vmError,
            message: gasCapped ? `${failure.message} (gas limit was capped by the RPC server's global gas cap)` : failure.message,
          }
    // geth returns no data for a failed call: a revert's data is in its error.
    return { ...base, status: 0, returnData: new Uint8Array(0), logs: [], error }
  }

  /** Finishes the block: PoW reward, withdrawals, requests, roots. */
  async finish(): Promise<Block> {
    const t = this.opts.template
    if (t.difficulty !== 0n) {
      const coinbase = new Address(t.coinbase)
      const account = this.opts.state.readAccount(coinbase.toString(), t.coinbase)
      await this.opts.state.modifyAccountFields(coinbase, { balance: (account?.balance ?? 0n) + this.opts.common.param('minerReward') })
    }
    const { block } = await this.builder.build()
    this.opts.vms.release(this.lease)
    return block
  }
}

const envKey = (baseFeeZero: boolean, blobFee: bigint | undefined): string => `${baseFeeZero}:${blobFee}`

/** geth's nonce is a uint64 that wraps when a call runs without nonce checks. */
async function wrapNonce(state: SimState, sender: Address): Promise<void> {
  const account = state.readAccount(sender.toString(), sender.bytes)
  if (account !== undefined && account.nonce > MAX_UINT64) await state.modifyAccountFields(sender, { nonce: account.nonce & MAX_UINT64 })
}

/** A library failure our checks did not foresee: geth's default for transaction errors, -32603. */
function unexpected(e: unknown, sender: Address): Error {
  if (e instanceof ExecutionDeadlineExceeded || (e instanceof Error && e.cause instanceof ExecutionDeadlineExceeded)) return e
  if (e instanceof FlashnodeError) return e
  const translated = preExecutionError(e, sender)
  return simError(SIM_CODES.internal, translated.message)
}
