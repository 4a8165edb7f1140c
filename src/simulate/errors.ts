/**
 * eth_simulateV1's error codes (execution-apis `src/eth/execute.yaml`) and the typed errors that carry them.
 *
 * Every request-level failure of a simulation is a FlashnodeError whose explicit `code` overrides the kind's
 * mapping. Messages follow geth's wording: a transaction that cannot be included reads
 * `err: <reason> (supplied gas N)`, as geth wraps it. Where geth and the spec disagree, the rpc-compat
 * fixtures (recorded from geth) decide: e.g. a validation failure geth has no code for is -32603, and the
 * override errors of a precompile move are plain -32000.
 */

import { FlashnodeError, type ErrorKind } from '../errors/errors.ts'

export const SIM_CODES = Object.freeze({
  nonceTooLow: -38010,
  nonceTooHigh: -38011,
  baseFeeTooLow: -38012,
  intrinsicGas: -38013,
  insufficientFunds: -38014,
  blockGasLimitReached: -38015,
  blockNumberInvalid: -38020,
  blockTimestampInvalid: -38021,
  movePrecompileSelfReference: -38022,
  movePrecompileDuplicate: -38023,
  senderNotEoa: -38024,
  maxInitCodeSizeExceeded: -38025,
  clientLimitExceeded: -38026,
  vmError: -32015,
  invalidParams: -32602,
  internal: -32603,
  generic: -32000,
})

export type SimCode = (typeof SIM_CODES)[keyof typeof SIM_CODES]

const KIND: Partial<Record<SimCode, ErrorKind>> = {
  [SIM_CODES.clientLimitExceeded]: 'limitExceeded',
  [SIM_CODES.invalidParams]: 'invalidParams',
  [SIM_CODES.blockNumberInvalid]: 'invalidParams',
  [SIM_CODES.blockTimestampInvalid]: 'invalidParams',
}

export function simError(code: SimCode, message: string): FlashnodeError {
  return new FlashnodeError(KIND[code] ?? 'executionFailed', message, { code })
}

/** A call that cannot be included in its block, worded as geth wraps it. */
export function txError(code: SimCode, reason: string, suppliedGas: bigint): FlashnodeError {
  return simError(code, `err: ${reason} (supplied gas ${suppliedGas})`)
}

export const tooManyBlocks = (): FlashnodeError => simError(SIM_CODES.clientLimitExceeded, 'too many blocks')
