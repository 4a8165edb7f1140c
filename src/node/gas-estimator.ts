/**
 * eth_estimateGas and eth_createAccessList, after geth's algorithms.
 *
 * Estimate: run once at the upper bound (the call's gas, else the block gas limit, capped by the gas cap
 * and by what the sender's balance can pay at the given fee cap); a failure there is the answer. Then try
 * the optimistic limit (used + refund + call stipend) * 64/63, and binary-search between the used gas and
 * the bound until within 1.5%. Each run starts from a fresh state view.
 *
 * Access list: run with access-list reporting, feed the list back in, until it stops changing; the sender,
 * the recipient and precompiles are left out, as geth does.
 */

import { Address } from '@ethereumjs/util'
import { FlashnodeError } from '../errors/errors.ts'
import { bytesToHex, hexToBytes, leftPad, ZERO_ADDRESS } from '../primitives/hex.ts'
import type { JournaledState } from '../state/journaled-state.ts'
import { executeCall, type CallContext, type CallOutcome } from '../execution/call-executor.ts'
import { callFailureError } from '../execution/vm-errors.ts'
import type { AccessListEntry } from '../chain/types.ts'
import type { AccessListResult, CallRequest } from './api.ts'
import { withDeadline } from './deadline.ts'

const CALL_STIPEND = 2300n
const MAX_ACCESS_LIST_ROUNDS = 10

interface RunOptions {
  readonly timeoutMs: number
}

async function run(
  ctx: CallContext,
  freshState: () => Promise<JournaledState>,
  req: CallRequest,
  opts: RunOptions & { gas?: bigint; reportAccessList?: boolean },
): Promise<CallOutcome> {
  const state = await freshState()
  return withDeadline(state, opts.timeoutMs, () => executeCall(ctx, state, req, opts))
}

async function upperBound(ctx: CallContext, freshState: () => Promise<JournaledState>, req: CallRequest): Promise<bigint> {
  let hi = req.gas !== undefined && req.gas >= 21_000n ? req.gas : ctx.header.gasLimit
  const feeCap = req.maxFeePerGas ?? req.gasPrice ?? 0n
  if (feeCap > 0n) {
    const state = await freshState()
    const balance = (await state.getAccount(new Address(req.from ?? ZERO_ADDRESS)))?.balance ?? 0n
    const value = req.value ?? 0n
    if (value > balance) throw new FlashnodeError('executionFailed', 'insufficient funds for transfer')
    const allowance = (balance - value) / feeCap
    if (allowance < hi) hi = allowance
  }
  return hi > ctx.settings.gasCap ? ctx.settings.gasCap : hi
}

export async function estimateGas(
  ctx: CallContext,
  freshState: () => Promise<JournaledState>,
  req: CallRequest,
  opts: RunOptions,
): Promise<bigint> {
  let hi = await upperBound(ctx, freshState, req)
  const first = await run(ctx, freshState, req, { ...opts, gas: hi })
  if (first.failure !== undefined) {
    if (first.failure.kind === 'vm' && first.failure.message === 'out of gas') {
      throw new FlashnodeError('executionFailed', `gas required exceeds allowance (${hi})`)
    }
    throw callFailureError(first.failure, first.returnData)
  }
  let lo = first.gasUsed - 1n
  const fits = async (gas: bigint): Promise<boolean> => {
    try {
      return (await run(ctx, freshState, req, { ...opts, gas })).failure === undefined
    } catch (e) {
      if (e instanceof FlashnodeError && /intrinsic gas too low/.test(e.message)) return false
      throw e
    }
  }
  const optimistic = ((first.gasUsed + CALL_STIPEND) * 64n) / 63n
  if (optimistic < hi && (await fits(optimistic))) hi = optimistic
  while (lo + 1n < hi) {
    if (Number(hi - lo) / Number(hi) < 0.015) break
    let mid = (hi + lo) / 2n
    if (mid > lo * 2n) mid = lo * 2n
    if (await fits(mid)) hi = mid
    else lo = mid
  }
  return hi
}

function precompileCount(ctx: CallContext): number {
  const common = ctx.rules.at(ctx.header.number, ctx.header.timestamp)
  if (common.isActivatedEIP(7951)) return 0x100
  if (common.isActivatedEIP(2537)) return 0x11
  if (common.isActivatedEIP(4844)) return 0x0a
  return 0x09
}

function isPrecompile(address: Uint8Array, count: number): boolean {
  for (let i = 0; i < 18; i++) if (address[i] !== 0) return false
  const n = (address[18]! << 8) | address[19]!
  return n >= 1 && n <= count
}

function normalize(
  raw: readonly { address: string; storageKeys: string[] }[],
  exclude: readonly Uint8Array[],
  precompiles: number,
): AccessListEntry[] {
  const excluded = new Set(exclude.map((a) => bytesToHex(a)))
  return raw
    .map((e) => ({ address: hexToBytes(e.address), storageKeys: e.storageKeys.map((k) => leftPad(hexToBytes(k), 32)) }))
    .filter((e) => !excluded.has(bytesToHex(e.address)) && !isPrecompile(e.address, precompiles))
}

const listKey = (list: readonly AccessListEntry[]): string =>
  list.map((e) => bytesToHex(e.address) + e.storageKeys.map((k) => bytesToHex(k)).sort().join(',')).sort().join(';')

export async function createAccessList(
  ctx: CallContext,
  freshState: () => Promise<JournaledState>,
  req: CallRequest,
  opts: RunOptions,
): Promise<AccessListResult> {
  const exclude = [req.from ?? ZERO_ADDRESS, ...(req.to ? [req.to] : [])]
  const precompiles = precompileCount(ctx)
  let list: AccessListEntry[] = [...(req.accessList ?? [])]
  for (let round = 0; round < MAX_ACCESS_LIST_ROUNDS; round++) {
    const outcome = await run(ctx, freshState, { ...req, accessList: list }, { ...opts, reportAccessList: true })
    const next = normalize(outcome.accessList ?? [], exclude, precompiles)
    if (listKey(next) === listKey(list) || round === MAX_ACCESS_LIST_ROUNDS - 1) {
      return {
        accessList: next,
        gasUsed: outcome.gasUsed,
        ...(outcome.failure !== undefined ? { error: outcome.failure.message } : {}),
      }
    }
    list = next
  }
  return { accessList: list, gasUsed: 0n }
}
