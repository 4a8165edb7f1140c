/**
 * Serialization of JSON-RPC response messages.
 *
 * Owns the exact wire shape: `{"jsonrpc":"2.0","id":…,"result":…}` or `{"jsonrpc":"2.0","id":…,"error":…}`
 * with the members in that order. Handlers return JSON-ready values (hex strings, never bigint);
 * `resultMessage` throws when a value is not serializable (a bigint, a cycle, a function), so the caller can
 * answer -32603 for that one item instead of sending a broken or partial response. `errorMessage` never
 * throws: when an error's `data` does not serialize, the error goes out without it.
 *
 * A handler may instead return its whole result already serialized, as a `RawJson` (a large answer kept
 * serialized in a cache, or written straight to text): it is spliced in verbatim, never parsed or checked,
 * so its producer owns its validity. Only a whole result may be raw: a RawJson nested inside another value
 * makes that result unserializable (-32603) rather than silently wrong.
 */

import type { JsonRpcErrorObject } from '../error-codes.ts'
import { RPC_CODES } from '../error-codes.ts'

/** A request id as the client may send it (a JSON number is kept as its raw text, so it is echoed exactly). */
export type RequestId = string | number | null | RawId

/** A numeric request id as written by the client (`12345678901234567890`, `1e400`, `0.5`), echoed verbatim. */
export class RawId {
  constructor(readonly json: string) {}
}

/** The id's JSON text in a response. */
export function idJson(id: RequestId): string {
  return id instanceof RawId ? id.json : JSON.stringify(id)
}

/** A handler's whole result as JSON text it has already serialized. */
export class RawJson {
  constructor(readonly json: string) {}

  /** Reached only when nested inside another result, where raw text cannot be spliced. */
  toJSON(): never {
    throw new TypeError('a RawJson result cannot be nested inside another value')
  }
}

/** Hex data (code, storage words, call output): nothing in it to escape. */
const HEX_DATA = /^0x[0-9a-f]*$/
/** Below this length JSON.stringify costs no more than the check. */
const LONG_STRING = 64

/** Throws (TypeError from JSON.stringify, or Error) when `result` is not JSON-serializable. */
export function resultMessage(id: RequestId, result: unknown): string {
  if (result instanceof RawJson) return `{"jsonrpc":"2.0","id":${idJson(id)},"result":${result.json}}`
  // JSON.stringify scans a string for escapes at ~2.5 ns a character (25 µs for the 10 KB of a contract's
  // code); the expression proves there is nothing to escape in about a quarter of that.
  const body =
    typeof result === 'string' && result.length > LONG_STRING && HEX_DATA.test(result)
      ? `"${result}"`
      : (JSON.stringify(result === undefined ? null : result) as string | undefined)
  if (body === undefined) throw new TypeError(`a result of type ${typeof result} is not JSON`)
  return `{"jsonrpc":"2.0","id":${idJson(id)},"result":${body}}`
}

export function errorMessage(id: RequestId, error: JsonRpcErrorObject): string {
  const head = `{"jsonrpc":"2.0","id":${idJson(id)},"error":`
  try {
    return head + JSON.stringify(error) + '}'
  } catch {
    return head + JSON.stringify({ code: error.code, message: error.message }) + '}'
  }
}

export const PARSE_ERROR_MESSAGE: string = errorMessage(null, { code: RPC_CODES.parseError, message: 'parse error' })
