/**
 * The one mapping from `FlashnodeError` kinds to JSON-RPC error codes, and the one function that turns any
 * thrown value into a JSON-RPC error object.
 *
 * Invariants:
 * - `CODES` is a `Record<ErrorKind, number>`: adding a kind without a code is a compile error.
 * - An error's own `code` overrides the table (eth_simulateV1's -380xx, geth-style revert code 3, …).
 * - `executionReverted` uses the configured revert code (`revertCode`): the service contract says -32000,
 *   geth says 3. The message goes with the code: with geth's 3 it is geth's (`execution reverted: <reason>`
 *   when the data decodes as Error(string) or Panic(uint256)); with any other code it is exactly the
 *   contract's `execution reverted`, the reason staying in `data`. Clients read a revert by code and text:
 *   viem decodes a -32000 error's data only when its message is exactly `execution reverted`.
 * - A value that is not a `FlashnodeError` is a bug: the client sees -32603 `internal error` and nothing
 *   else (no message, no stack) unless `debug` is on; the error itself goes to the log.
 *
 * Code choices: -32002 timeout and -32003 response too large are geth's (rpc/errors.go); -32005 for
 * `limitExceeded` is EIP-1474's "limit exceeded", the code reth and the large providers answer for a
 * configured limit (geth has no dedicated code and answers -32000); -32004 for `forbidden` is EIP-1474's
 * "method not supported": the node has the method but this endpoint's profile refuses it (the transport
 * answers it with HTTP 403). Protocol limits that the request
 * envelope itself breaks (batch too large, method name too long) are `invalidRequest` (-32600), as in geth.
 */

import { FlashnodeError, type ErrorKind } from '../errors/errors.ts'

/** Codes of the JSON-RPC protocol itself and the server-error range conventions used here. */
export const RPC_CODES = Object.freeze({
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internal: -32603,
  serverError: -32000,
  requestTimeout: -32002,
  responseTooLarge: -32003,
  methodNotSupported: -32004,
  limitExceeded: -32005,
})

/** The revert code of the service contract. geth uses 3; pass that as `revertCode` to match geth. */
export const DEFAULT_REVERT_CODE = -32000

/** geth's revert code; with it, reverts keep geth's message. */
export const GETH_REVERT_CODE = 3

/** The contract's revert message (its errors table), without a reason. */
const CONTRACT_REVERT_MESSAGE = 'execution reverted'

const CODES: Record<ErrorKind, number> = {
  invalidParams: RPC_CODES.invalidParams,
  invalidRequest: RPC_CODES.invalidRequest,
  methodNotFound: RPC_CODES.methodNotFound,
  forbidden: RPC_CODES.methodNotSupported,
  executionReverted: DEFAULT_REVERT_CODE,
  executionFailed: RPC_CODES.serverError,
  transactionRejected: RPC_CODES.serverError,
  executionTimeout: RPC_CODES.serverError,
  requestTimeout: RPC_CODES.requestTimeout,
  notFound: RPC_CODES.serverError,
  limitExceeded: RPC_CODES.limitExceeded,
  responseTooLarge: RPC_CODES.responseTooLarge,
  internal: RPC_CODES.internal,
}

export interface JsonRpcErrorObject {
  readonly code: number
  readonly message: string
  readonly data?: unknown
}

export interface ErrorMappingOptions {
  /** Code for `executionReverted` errors that carry no code of their own. */
  readonly revertCode: number
  /** Show internal messages and stacks to the client. Never on in production. */
  readonly debug: boolean
  /** Where unexpected errors are reported; `console.error` when absent. */
  readonly log?: (message: string, err: unknown) => void
}

/** The JSON-RPC code for a kind, with the revert code setting applied. */
export function codeForKind(kind: ErrorKind, revertCode: number = DEFAULT_REVERT_CODE): number {
  return kind === 'executionReverted' ? revertCode : CODES[kind]
}

/** Any thrown value to the `error` member of a JSON-RPC response. Never throws. */
export function toJsonRpcError(err: unknown, opts: ErrorMappingOptions): JsonRpcErrorObject {
  const log = opts.log ?? defaultLog
  if (err instanceof FlashnodeError) {
    if (err.kind === 'internal') safeLog(log, `internal error: ${err.message}`, err)
    const code = err.code ?? codeForKind(err.kind, opts.revertCode)
    const message = err.kind === 'executionReverted' && err.code === undefined ? revertMessage(err.message, code) : err.message
    return err.data === undefined ? { code, message } : { code, message, data: err.data }
  }
  safeLog(log, 'unexpected error in a method handler', err)
  if (!opts.debug) return { code: RPC_CODES.internal, message: 'internal error' }
  const detail = err instanceof Error ? err.message : describe(err)
  const stack = err instanceof Error ? err.stack : undefined
  return stack === undefined
    ? { code: RPC_CODES.internal, message: `internal error: ${detail}` }
    : { code: RPC_CODES.internal, message: `internal error: ${detail}`, data: stack }
}

/** geth's wording under geth's code; the contract's exact `execution reverted` under any other. */
function revertMessage(gethMessage: string, code: number): string {
  return code === GETH_REVERT_CODE ? gethMessage : CONTRACT_REVERT_MESSAGE
}

function describe(value: unknown): string {
  try {
    return String(value)
  } catch {
    return typeof value
  }
}

function safeLog(log: (message: string, err: unknown) => void, message: string, err: unknown): void {
  try {
    log(message, err)
  } catch {
    // A broken logger must not turn an error response into a crash.
  }
}

function defaultLog(message: string, err: unknown): void {
  console.error(`[rpc] ${message}:`, err)
}
