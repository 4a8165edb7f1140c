/**
 * eth_estimateGas, after geth's algorithm.
 *
 * Estimate (geth's eth/gasestimator, step for step):
 * - the upper bound: the call's gas when it is at least 21000 (capped by the gas cap first, as geth's call
 *   defaults do), else the block's gas limit; EIP-7825's per-transaction cap where that fork rule is on;
 *   then what the sender's balance can pay at the given fee cap (value and blob fees taken off first: a
 *   value not below the balance is `insufficient funds for transfer`); then the gas cap;
 * - a plain transfer (no data, to an account without code) is tried at 21000 first, and that is the answer
 *   when it succeeds;
 * - one run at the upper bound: a revert or another execution error is the answer; running out of gas there
 *   is `gas required exceeds allowance (<bound>)`;
 * - the optimistic limit (peak gas + call stipend) * 64 / 63, tried once; then a binary search between the
 *   gas used - 1 (fails) and the bound (succeeds), bisecting low (never above twice the low end), until the
 *   two are within 1.5% of the high end (geth's error ratio). The answer is the high end.
 * A run that fails before execution for too little gas (intrinsic gas) counts as failing; any other error
 * there is the answer. Each run starts from a fresh WorldState over the same state; a meter, when given, adds
 * every run's gas and EVM time (so an estimate's figure is the sum of its runs).
 */

import { FlashnodeError } from '../errors/errors.ts'
import { ZERO_ADDRESS } from '../primitives/hex.ts'
import type { StateReader } from '../state/state-reader.ts'
import { executeCall, type CallContext, type CallOutcome } from '../execution/call-executor.ts'
import { callFailureError } from '../execution/vm-errors.ts'
import type { CallRequest } from './api.ts'
import { withDeadline } from './deadline.ts'
import type { EvmMeter } from '../execution/evm-meter.ts'

const TX_GAS = 21_000n
const CALL_STIPEND = 2300n
/** EIP-7825's per-transaction gas cap (params.MaxTxGas). */
const MAX_TX_GAS = 1n << 24n
const BLOB_GAS_PER_BLOB = 131_072n
const MAX_UINT64 = (1n << 64n) - 1n
/** geth's estimateGasErrorRatio: stop once the bounds are this close (relative to the high one). */
const ERROR_RATIO = 0.015

export interface RunOptions {
  readonly timeoutMs: number
  /** Adds every run's gas and EVM time (the node's gas-per-second metrics). */
  readonly meter?: EvmMeter
}

function run(ctx: CallContext, state: StateReader, req: CallRequest, opts: RunOptions, gas: bigint): Promise<CallOutcome> {
  const meter = opts.meter
  return withDeadline(opts.timeoutMs, (deadline) => executeCall(ctx, state, req, meter === undefined ? { gas, deadline } : { gas, deadline, meter }))
}

async function upperBound(ctx: CallContext, state: StateReader, req: CallRequest): Promise<bigint> {
  const gasCap = ctx.settings.gasCap
  const requested = req.gas !== undefined && gasCap > 0n && req.gas > gasCap ? gasCap : req.gas
  let hi = requested !== undefined && requested >= TX_GAS ? requested : ctx.header.gasLimit
  const common = ctx.rules.at(ctx.header.number, ctx.header.timestamp)
  if (hi > MAX_TX_GAS && common.isActivatedEIP(7825)) hi = MAX_TX_GAS
  const feeCap = req.maxFeePerGas ?? req.gasPrice ?? 0n
  if (feeCap > 0n) {
    let available = state.getAccount(req.from ?? ZERO_ADDRESS)?.balance ?? 0n
    const value = req.value ?? 0n
    // geth compares even a zero value (its call defaults set one): no balance at all is no allowance.
    if (value >= available) throw new FlashnodeError('executionFailed', 'insufficient funds for transfer')
    available -= value
    const blobs = BigInt(req.blobVersionedHashes?.length ?? 0)
    if (blobs > 0n && common.isActivatedEIP(4844)) {
      const blobCost = blobs * BLOB_GAS_PER_BLOB * (req.maxFeePerBlobGas ?? 0n)
      if (blobCost >= available) throw new FlashnodeError('executionFailed', 'insufficient funds for gas * price + value')
      available -= blobCost
    }
    const allowance = available / feeCap
    if (allowance <= MAX_UINT64 && hi > allowance) hi = allowance
  }
  return gasCap > 0n && hi > gasCap ? gasCap : hi
}

/** Whether the call succeeds with `gas`; geth's `execute`: too little gas to start counts as failing. */
async function succeedsWith(
  ctx: CallContext,
  state: StateReader,
  req: CallRequest,
  gas: bigint,
  opts: RunOptions,
): Promise<{ readonly ok: boolean; readonly outcome?: CallOutcome }> {
  try {
    const outcome = await run(ctx, state, req, opts, gas)
    return { ok: outcome.failure === undefined, outcome }
  } catch (e) {
    if (e instanceof FlashnodeError && /^intrinsic gas too low/.test(e.message)) return { ok: false }
    throw e
  }
}

export async function estimateGas(
  ctx: CallContext,
  state: StateReader,
  req: CallRequest,
  opts: RunOptions,
): Promise<bigint> {
  let hi = await upperBound(ctx, state, req)
  if ((req.data === undefined || req.data.length === 0) && req.to !== undefined && req.to !== null) {
    const codeHash = state.getAccount(req.to)?.codeHash
    if (codeHash === undefined || state.getCode(codeHash).length === 0) {
      // geth tries a plain transfer at 21000 and keeps any error for the run at the bound.
      const transfer = await succeedsWith(ctx, state, req, TX_GAS, opts).catch(() => ({ ok: false }))
      if (transfer.ok) return TX_GAS
    }
  }
  const first = await succeedsWith(ctx, state, req, hi, opts)
  if (!first.ok) {
    const failure = first.outcome?.failure
    if (failure !== undefined && !(failure.kind === 'vm' && failure.message === 'out of gas')) {
      throw callFailureError(failure, first.outcome!.returnData)
    }
    throw new FlashnodeError('executionFailed', `gas required exceeds allowance (${hi})`)
  }
  const used = first.outcome!
  let lo = used.gasUsed - 1n
  const optimistic = ((used.maxUsedGas + CALL_STIPEND) * 64n) / 63n
  if (optimistic < hi) {
    if ((await succeedsWith(ctx, state, req, optimistic, opts)).ok) hi = optimistic
    else lo = optimistic
  }
  while (lo + 1n < hi) {
    if (Number(hi - lo) / Number(hi) < ERROR_RATIO) break
    let mid = lo + (hi - lo) / 2n
    if (mid > lo * 2n) mid = lo * 2n
    if ((await succeedsWith(ctx, state, req, mid, opts)).ok) hi = mid
    else lo = mid
  }
  return hi
}
