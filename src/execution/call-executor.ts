/**
 * Runs a transaction call object as geth applies a message for eth_call / eth_estimateGas /
 * eth_createAccessList: nothing is signed or committed, the nonce is not checked, the sender may be a
 * contract, the EIP-7825 per-transaction gas cap does not apply, and when no fee field is given the block's
 * base fee reads as 0 (so a call never fails on fees it did not ask to pay). eth_call's blobBaseFee override
 * is what BLOBBASEFEE and the blob fee check see.
 *
 * It runs our EVM (src/evm/ executeTransaction) on a fresh WorldState over the caller's StateReader (the
 * target's state, with any state overrides already laid over it), with the environment evm-env.ts derives
 * from the header (built once per header and base-fee rule: headers are immutable). Failures come back in
 * vm-errors.ts's typed form with geth's wording: an InvalidTransaction as a FlashnodeError thrown, a halt or
 * revert as `failure`. A deadline (Date.now() ms) stops execution with the EVM's ExecutionTimeout, which the
 * caller maps (node/deadline.ts). A meter (evm-meter.ts), when given, adds the run's gas and EVM time.
 *
 * On an OP Stack chain a call is op-geth's message with its checks skipped: no L1 data fee and no operator
 * fee are charged or counted in the balance check; a call that names a fee settles the rest as op-geth does
 * (op-fees.ts).
 */

import type { BlockHeader } from '@ethereumjs/block'
import type { CallRequest } from './requests.ts'
import { bigIntToFixedBytes, bytesToBigInt, ZERO_ADDRESS } from '../primitives/hex.ts'
import type { StateReader } from '../state/state-reader.ts'
import type { ChainRules } from './chain-config.ts'
import { blockEnvOf, evmRulesAt } from './evm-env.ts'
import { executeTransaction } from '../evm/transaction.ts'
import { InvalidTransaction, type AccessListEntry, type Authorization, type BlockEnv, type TxInput, type TxOptions } from '../evm/types.ts'
import { WorldState } from '../evm/world-state.ts'
import { parseDelegation } from '../evm/frames.ts'
import { invalidTransactionError, txFailure, type CallFailure } from './vm-errors.ts'
import { AccessRecordingWorld, type AccessListTracer } from './access-list-tracer.ts'
import type { EvmMeter } from './evm-meter.ts'
import type { Tracer } from '../evm/tracers/index.ts'
import { OpFees } from './op-fees.ts'
import { opChainAccounts } from './tracing.ts'

export interface CallSettings {
  /** Default and maximum gas of a call. */
  readonly gasCap: bigint
}

export interface CallOutcome {
  readonly returnData: Uint8Array
  /** Gas charged (after refunds and the calldata floor), as a receipt would show. */
  readonly gasUsed: bigint
  /**
   * The most gas the execution held at once: used before refunds (intrinsic + execution), at least the
   * EIP-7623 calldata floor. geth's ExecutionResult.MaxUsedGas, which its gas estimator starts from.
   */
  readonly maxUsedGas: bigint
  /** Set when execution failed; a revert carries its data in returnData. */
  readonly failure?: CallFailure
  readonly logs: readonly [Uint8Array, Uint8Array[], Uint8Array][]
  readonly createdAddress?: Uint8Array
}

export interface CallContext {
  readonly rules: ChainRules
  /** The header whose environment the call sees (number, timestamp, coinbase, base fee, …). */
  readonly header: BlockHeader
  /**
   * eth_call's blobBaseFee block override: what BLOBBASEFEE and the blob fee check see instead of the price
   * the header's excess blob gas gives (a header field cannot express an arbitrary price).
   */
  readonly blobBaseFee?: bigint
  /** BLOCKHASH (evm-env.ts chainBlockHash). */
  readonly blockHash: (number: bigint) => bigint
  readonly settings: CallSettings
}

// geth's calls run in a gas pool of the gas cap, not the block's gas limit.
const CALL_OPTIONS = { skipNonceCheck: true, skipSenderCodeCheck: true, skipTxGasCap: true, skipBlockGasLimit: true } as const

const hasFee = (r: CallRequest): boolean =>
  (r.gasPrice ?? 0n) > 0n || (r.maxFeePerGas ?? 0n) > 0n || (r.maxPriorityFeePerGas ?? 0n) > 0n

/** The environment a call sees, per header and base-fee rule (headers are immutable, so built once). */
const envs = new WeakMap<BlockHeader, { zero?: BlockEnv; real?: BlockEnv }>()

function blockEnv(ctx: CallContext, zeroBaseFee: boolean): BlockEnv {
  const options = { blockHash: ctx.blockHash, zeroBaseFee, ...(ctx.blobBaseFee !== undefined ? { blobBaseFee: ctx.blobBaseFee } : {}) }
  if (ctx.blobBaseFee !== undefined) return blockEnvOf(ctx.header, options)
  let cached = envs.get(ctx.header)
  if (cached === undefined) envs.set(ctx.header, (cached = {}))
  // The block-hash source is the context's; a cached env made with another one is not reused.
  const hit = zeroBaseFee ? cached.zero : cached.real
  if (hit !== undefined && hit.blockHash === ctx.blockHash) return hit
  const env = blockEnvOf(ctx.header, options)
  if (zeroBaseFee) cached.zero = env
  else cached.real = env
  return env
}

/** The call object as the EVM's transaction input (the type follows from the fields given, as geth's). */
export function callTxInput(req: CallRequest, gas: bigint, nonce: bigint): TxInput {
  const accessList: AccessListEntry[] = (req.accessList ?? []).map((e) => ({ address: bytesToBigInt(e.address), storageKeys: e.storageKeys.map(bytesToBigInt) }))
  // Each type's object is written out whole: on this runtime `{ ...base, more }` costs microseconds.
  const from = bytesToBigInt(req.from ?? ZERO_ADDRESS)
  const to = req.to === undefined || req.to === null ? undefined : bytesToBigInt(req.to)
  const value = req.value ?? 0n
  const data = req.data ?? new Uint8Array(0)
  const feeCap = req.maxFeePerGas ?? req.gasPrice ?? 0n
  const tipCap = req.maxPriorityFeePerGas ?? req.gasPrice ?? 0n
  if (req.authorizationList !== undefined) {
    const authorizationList: Authorization[] = req.authorizationList.map((a) => ({
      chainId: a.chainId,
      address: bytesToBigInt(a.address),
      nonce: a.nonce,
      yParity: a.yParity,
      r: a.r,
      s: a.s,
    }))
    return { type: 4, from, nonce, gasLimit: gas, to, value, data, maxFeePerGas: feeCap, maxPriorityFeePerGas: tipCap, accessList, authorizationList }
  }
  if (req.blobVersionedHashes !== undefined && req.blobVersionedHashes.length > 0) {
    return {
      type: 3,
      from,
      nonce,
      gasLimit: gas,
      to,
      value,
      data,
      maxFeePerGas: feeCap,
      maxPriorityFeePerGas: tipCap,
      maxFeePerBlobGas: req.maxFeePerBlobGas ?? 0n,
      blobVersionedHashes: req.blobVersionedHashes.map(bytesToBigInt),
      accessList,
    }
  }
  if (req.maxFeePerGas !== undefined || req.maxPriorityFeePerGas !== undefined) {
    return { type: 2, from, nonce, gasLimit: gas, to, value, data, maxFeePerGas: feeCap, maxPriorityFeePerGas: tipCap, accessList }
  }
  if (req.accessList !== undefined) return { type: 1, from, nonce, gasLimit: gas, to, value, data, gasPrice: req.gasPrice ?? 0n, accessList }
  return { type: 0, from, nonce, gasLimit: gas, to, value, data, gasPrice: req.gasPrice ?? 0n }
}

export async function executeCall(
  ctx: CallContext,
  state: StateReader,
  req: CallRequest,
  opts: { gas?: bigint; tracer?: AccessListTracer; deadline?: number; meter?: EvmMeter; trace?: Tracer } = {},
): Promise<CallOutcome> {
  const requested = opts.gas ?? req.gas ?? ctx.settings.gasCap
  const gas = requested > ctx.settings.gasCap ? ctx.settings.gasCap : requested
  const rules = evmRulesAt(ctx.rules, ctx.header.number, ctx.header.timestamp)
  const env = blockEnv(ctx, !hasFee(req))
  const world = opts.tracer === undefined ? new WorldState(state) : new AccessRecordingWorld(state, opts.tracer, rules.shanghai ? env.coinbase : undefined)
  const from = bytesToBigInt(req.from ?? ZERO_ADDRESS)
  const nonce = req.nonce ?? world.getNonce(from)
  const input = callTxInput(req, gas, nonce)
  if (world instanceof AccessRecordingWorld && rules.prague && input.to !== undefined) {
    const delegate = parseDelegation(world.getCode(input.to))
    if (delegate !== undefined) world.skipFirstWarming(delegate)
  }
  let options: TxOptions = opts.deadline === undefined ? CALL_OPTIONS : { skipNonceCheck: true, skipSenderCodeCheck: true, skipTxGasCap: true, skipBlockGasLimit: true, deadline: opts.deadline }
  // OP Stack: a call pays no L1 fee (it is never part of gas) and buys no operator fee; a call that names a fee
  // still settles the vaults as op-geth's does (op-fees.ts). Ethereum chains have no OP fork: nothing to do.
  const opFork = ctx.rules.op === undefined ? undefined : ctx.rules.opFork(ctx.header.number, ctx.header.timestamp)
  if (opFork !== undefined && hasFee(req)) options = { ...options, ...new OpFees(opFork, world, env.baseFee).forCall(from, gas, false) }
  // debug_traceCall: geth's tracer hooks around the same run (its txStart reads the state before gas is bought).
  const trace = opts.trace
  if (trace !== undefined) {
    options = { ...options, observer: trace.observer, ...(trace.steps === undefined ? {} : { steps: trace.steps }) }
    const chainAccounts = opChainAccounts(opFork)
    trace.txStart({ world, block: env, rules, tx: input, ...(chainAccounts === undefined ? {} : { chainAccounts }) })
  }
  let result
  const meter = opts.meter
  try {
    const started = meter === undefined ? 0 : performance.now()
    result = executeTransaction(world, env, rules, input, options)
    meter?.ran(result.gasUsed, started)
    trace?.txEnd(result)
  } catch (e) {
    if (e instanceof InvalidTransaction) throw invalidTransactionError(e)
    throw e
  }
  const failure = txFailure(result.status, result.haltReason, result.output)
  return {
    returnData: result.output,
    gasUsed: result.gasUsed,
    maxUsedGas: result.gasUsedBeforeRefund,
    ...(failure !== undefined ? { failure } : {}),
    logs: result.logs.map((l) => [bigIntToFixedBytes(l.address, 20), l.topics.map((t) => bigIntToFixedBytes(t, 32)), l.data]),
    ...(result.createdAddress !== undefined ? { createdAddress: bigIntToFixedBytes(result.createdAddress, 20) } : {}),
  }
}
