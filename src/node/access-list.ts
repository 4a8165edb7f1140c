/**
 * eth_createAccessList, after geth's AccessList (internal/ethapi): run the call recording what it accesses
 * (execution/access-list-tracer.ts), feed the list it recorded back in as the call's access list, and
 * repeat until a run records exactly the list it was given. The answer is that list, the gas that last run
 * used, and its failure if it failed (a revert is geth's plain `execution reverted`: the reason is not
 * given here).
 *
 * Left out as bare addresses (their touched slots stay): the sender, the recipient or, for a creation, the
 * address it creates (sender and nonce), the fork's precompiles, and the authorities of the call's
 * authorizations. geth loops until the list is stable; a call that keeps touching new addresses is cut off
 * here after MAX_ROUNDS runs with the last list run (each run has its own time limit).
 *
 * Each run is a fresh WorldState that reports what it warms (execution/access-list-tracer.ts); a meter, when
 * given, adds every round's gas and EVM time.
 */

import { bigIntToFixedBytes, bytesToBigInt, ZERO_ADDRESS } from '../primitives/hex.ts'
import type { StateReader } from '../state/state-reader.ts'
import { createAddress } from '../evm/frames.ts'
import { rulesOf } from '../execution/evm-env.ts'
import { executeCall, type CallContext } from '../execution/call-executor.ts'
import { AccessListTracer, excludedAddresses } from '../execution/access-list-tracer.ts'
import type { AccessListResult, CallRequest } from './api.ts'
import { withDeadline } from './deadline.ts'
import type { RunOptions } from './gas-estimator.ts'

const MAX_ROUNDS = 32

export async function createAccessList(
  ctx: CallContext,
  state: StateReader,
  req: CallRequest,
  opts: RunOptions,
): Promise<AccessListResult> {
  const from = req.from ?? ZERO_ADDRESS
  let to = req.to ?? undefined
  if (to === undefined || to === null) {
    const nonce = req.nonce ?? state.getAccount(from)?.nonce ?? 0n
    to = bigIntToFixedBytes(createAddress(bytesToBigInt(from), nonce), 20)
  }
  const common = ctx.rules.at(ctx.header.number, ctx.header.timestamp)
  const rules = rulesOf(common, ctx.rules.opFork(ctx.header.number, ctx.header.timestamp))
  const excluded = excludedAddresses({ rules, chainId: common.chainId(), from, to, ...(req.authorizationList ? { authorizations: req.authorizationList } : {}) })
  let previous = new AccessListTracer(req.accessList ?? [], excluded)
  for (let round = 1; ; round++) {
    const accessList = previous.entries()
    const tracer = new AccessListTracer(accessList, excluded)
    const meter = opts.meter
    const outcome = await withDeadline(opts.timeoutMs, (deadline) => executeCall(ctx, state, { ...req, accessList }, meter === undefined ? { tracer, deadline } : { tracer, deadline, meter }))
    if (tracer.equals(previous) || round === MAX_ROUNDS) {
      const failure = outcome.failure
      return {
        accessList,
        gasUsed: outcome.gasUsed,
        ...(failure !== undefined ? { error: failure.kind === 'revert' ? 'execution reverted' : failure.message } : {}),
      }
    }
    previous = tracer
  }
}
