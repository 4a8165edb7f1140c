/**
 * Execution without a transaction: eth_call (call object, block = latest, state overrides, block overrides),
 * eth_estimateGas (call object, block = pending, state overrides) and eth_createAccessList (call object,
 * block = pending). Reverts and VM failures are the node's errors; these handlers only parse and encode.
 *
 * The two methods that prepare a transaction estimate, when no block is named, against `pending` (geth:
 * `latest`): the transaction will run on the pre-confirmed state, and clients name no block here (ethers
 * never does, viem and cast by default), so against `latest` a call into a contract deployed a moment ago,
 * pre-confirmed but not sealed, was estimated as a call to an empty account and the transaction ran out of
 * gas. Where pre-confirmations are off, `pending` is `latest`. eth_call keeps geth's `latest`.
 *
 * eth_createAccessList accepts geth's third argument (state overrides) but NodeApi.createAccessList has no
 * place for it yet, so a non-empty one is refused rather than silently ignored.
 */

import type { NodeApi, StateOverrides } from '../../node/api.ts'
import { LATEST, PENDING } from '../../primitives/block-id.ts'
import { bytesToHex, quantity } from '../../primitives/hex.ts'
import type { MethodHandler } from '../registry.ts'
import { formatAccessListResult } from '../format/access-list-result.ts'
import { optional, parseArgs, required, withDefault } from '../params/args.ts'
import { parseBlockNumberOrHash } from '../params/block-id.ts'
import { parseCallRequest } from '../params/call.ts'
import { parseBlockOverrides, parseStateOverrides } from '../params/overrides.ts'
import { fail } from '../params/param-error.ts'

function noOverridesYet(raw: unknown): StateOverrides {
  const overrides = parseStateOverrides(raw)
  if (overrides.size > 0) fail('state overrides are not supported by eth_createAccessList')
  return overrides
}

// Made once: eth_call is a hot path and the specs never change.
const CALL_ARGS = [
  required(parseCallRequest),
  withDefault(parseBlockNumberOrHash, LATEST),
  optional(parseStateOverrides),
  optional(parseBlockOverrides),
] as const

export function callMethods(node: NodeApi): Record<string, MethodHandler> {
  return {
    eth_call: async (params) => {
      const [request, block, state, blockOverrides] = parseArgs(params, CALL_ARGS)
      return bytesToHex(await node.call(request, block, state, blockOverrides))
    },
    eth_estimateGas: async (params) => {
      const [request, block, state] = parseArgs(params, [
        required(parseCallRequest),
        withDefault(parseBlockNumberOrHash, PENDING),
        optional(parseStateOverrides),
      ])
      return quantity(await node.estimateGas(request, block, state))
    },
    eth_createAccessList: async (params) => {
      const [request, block] = parseArgs(params, [
        required(parseCallRequest),
        withDefault(parseBlockNumberOrHash, PENDING),
        optional(noOverridesYet),
      ])
      return formatAccessListResult(await node.createAccessList(request, block))
    },
  }
}
