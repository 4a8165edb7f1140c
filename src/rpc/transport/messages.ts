/**
 * Serialization of JSON-RPC response messages.
 *
 * Owns the exact wire shape: `{"jsonrpc":"2.0","id":…,"result":…}` or `{"jsonrpc":"2.0","id":…,"error":…}`
 * with the members in that order. Handlers return JSON-ready values (hex strings, never bigint);
 * `resultMessage` throws when a value is not serializable (a bigint, a cycle, a function), so the caller can
 * answer -32603 for that one item instead of sending a broken or partial response. `errorMessage` never
 * throws: when an error's `data` does not serialize, the error goes out without it.
 */

import type { JsonRpcErrorObject } from '../error-codes.ts'
import { RPC_CODES } from '../error-codes.ts'

/** A request id as the client may send it. */
export type RequestId = string | number | null

/** Throws (TypeError from JSON.stringify, or Error) when `result` is not JSON-serializable. */
export function resultMessage(id: RequestId, result: unknown): string {
  const body = JSON.stringify(result === undefined ? null : result) as string | undefined
  if (body === undefined) throw new TypeError(`a result of type ${typeof result} is not JSON`)
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${body}}`
}

export function errorMessage(id: RequestId, error: JsonRpcErrorObject): string {
  const head = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"error":`
  try {
    return head + JSON.stringify(error) + '}'
  } catch {
    return head + JSON.stringify({ code: error.code, message: error.message }) + '}'
  }
}

export const PARSE_ERROR_MESSAGE: string = errorMessage(null, { code: RPC_CODES.parseError, message: 'parse error' })
