/**
 * The ONE translation of execution failures into typed errors with geth's wording.
 *
 * Two kinds: failures before execution (the call or transaction is not acceptable: funds, fees, intrinsic
 * gas) and failures during execution (revert, out of gas, invalid opcode, …). Clients classify errors by
 * these texts. Our EVM (src/evm/) already speaks geth's words (InvalidTransaction reasons, halt reasons):
 * invalidTransactionError and txFailure only type them.
 */

import { FlashnodeError } from '../errors/errors.ts'
import { bytesToHex } from '../primitives/hex.ts'
import { Status, type InvalidTransaction } from '../evm/types.ts'

export interface CallFailure {
  readonly kind: 'revert' | 'vm'
  readonly message: string
}

const PANIC_REASONS: Record<number, string> = {
  0x00: 'generic panic',
  0x01: 'assert(false)',
  0x11: 'arithmetic underflow or overflow',
  0x12: 'division or modulo by zero',
  0x21: 'enum overflow',
  0x22: 'storage byte array that is incorrectly encoded',
  0x31: 'out-of-bounds array access; popping on an empty array',
  0x32: 'out-of-bounds access of an array or bytesN',
  0x41: 'out of memory',
  0x51: 'uninitialized function',
}

const ERROR_SELECTOR = '0x08c379a0'
const PANIC_SELECTOR = '0x4e487b71'

/** geth's unpacking of revert data: Error(string) and Panic(uint256); undefined when neither decodes. */
export function revertReason(data: Uint8Array): string | undefined {
  if (data.length < 4) return undefined
  const selector = bytesToHex(data.subarray(0, 4))
  const body = data.subarray(4)
  const word = (i: number): bigint | undefined =>
    body.length >= (i + 1) * 32 ? BigInt(bytesToHex(body.subarray(i * 32, (i + 1) * 32))) : undefined
  if (selector === PANIC_SELECTOR) {
    const code = word(0)
    if (code === undefined || body.length !== 32) return undefined
    return PANIC_REASONS[Number(code)] ?? `unknown panic code: 0x${code.toString(16)}`
  }
  if (selector === ERROR_SELECTOR) {
    const offset = word(0)
    if (offset === undefined || offset + 32n > BigInt(body.length)) return undefined
    const lenWord = body.subarray(Number(offset), Number(offset) + 32)
    const length = BigInt(bytesToHex(lenWord))
    const start = Number(offset) + 32
    if (BigInt(start) + length > BigInt(body.length)) return undefined
    return new TextDecoder().decode(body.subarray(start, start + Number(length)))
  }
  return undefined
}

/** Our EVM's outcome of a transaction that ran: undefined on success, else the revert or halt. */
export function txFailure(status: Status, haltReason: string | undefined, output: Uint8Array): CallFailure | undefined {
  if (status === Status.Success) return undefined
  if (status === Status.Revert) {
    const reason = revertReason(output)
    return { kind: 'revert', message: reason === undefined ? 'execution reverted' : `execution reverted: ${reason}` }
  }
  return { kind: 'vm', message: haltReason ?? 'execution failed' }
}

/** A call our EVM refused before execution (its reason is geth's text); blob-shape errors are invalid params. */
export function invalidTransactionError(e: InvalidTransaction): FlashnodeError {
  return new FlashnodeError(/blob/i.test(e.reason) && !/insufficient funds/.test(e.reason) ? 'invalidParams' : 'executionFailed', e.reason)
}

/** The error eth_call answers for a failed execution (its JSON-RPC code is the rpc layer's setting). */
export function callFailureError(failure: CallFailure, returnData: Uint8Array): FlashnodeError {
  if (failure.kind === 'revert') {
    return new FlashnodeError('executionReverted', failure.message, { data: bytesToHex(returnData) })
  }
  return new FlashnodeError('executionFailed', failure.message)
}
