/**
 * eth_createAccessList, after geth's AccessList (internal/ethapi): run the call with an opcode tracer
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
 * The tracer needs VMs of its own (`ctx.vms` should be a pool kept for access lists): it wraps their
 * opcode tables.
 */

import { Address, generateAddress, bigIntToUnpaddedBytes } from '@ethereumjs/util'
import { ZERO_ADDRESS } from '../primitives/hex.ts'
import type { JournaledState } from '../state/journaled-state.ts'
import { executeCall, type CallContext } from '../execution/call-executor.ts'
import { AccessListTracer, excludedAddresses } from '../execution/access-list-tracer.ts'
import type { AccessListResult, CallRequest } from './api.ts'
import { withDeadline } from './deadline.ts'
import type { RunOptions } from './gas-estimator.ts'

const MAX_ROUNDS = 32

export async function createAccessList(
  ctx: CallContext,
  freshState: () => Promise<JournaledState>,
  req: CallRequest,
  opts: RunOptions,
): Promise<AccessListResult> {
  const from = req.from ?? ZERO_ADDRESS
  let to = req.to ?? undefined
  if (to === undefined || to === null) {
    const state = await freshState()
    const nonce = req.nonce ?? (await state.getAccount(new Address(from)))?.nonce ?? 0n
    to = generateAddress(from, bigIntToUnpaddedBytes(nonce))
  }
  const common = ctx.rules.at(ctx.header.number, ctx.header.timestamp)
  const excluded = excludedAddresses({ common, from, to, ...(req.authorizationList ? { authorizations: req.authorizationList } : {}) })
  let previous = new AccessListTracer(req.accessList ?? [], excluded)
  for (let round = 1; ; round++) {
    const accessList = previous.entries()
    const tracer = new AccessListTracer(accessList, excluded)
    const state = await freshState()
    const outcome = await withDeadline(state, opts.timeoutMs, () => executeCall(ctx, state, { ...req, accessList }, { tracer }))
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
