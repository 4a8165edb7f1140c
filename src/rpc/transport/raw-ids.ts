/**
 * The request ids of a payload as the client wrote them, read from its text.
 *
 * Why: a JSON-RPC id is echoed, and geth echoes its raw bytes. `JSON.parse` turns `12345678901234567890`
 * into a double (and `1e400` into Infinity, `1.0` into 1), so re-serializing the parsed value would answer
 * a different id than the client sent and its response could never be matched. Node 20 has no
 * `JSON.rawJSON`/parse-with-source, so the tokens are read from the text.
 *
 * One linear pass over text that `JSON.parse` already accepted (so it is valid JSON): strings are skipped
 * with the engine's `indexOf`, brackets counted; a string at the depth of a request object that is followed
 * by `:` is a member name, and when that name is `id` (also when written with escapes) and its value is a
 * number, the number's characters are kept. For a batch, the item's index is the number of commas seen at
 * the array's own depth. A repeated `id` keeps the last, as `JSON.parse` does. Only called when a parsed
 * id is a number, so payloads with string ids pay nothing.
 *
 * `unparsedRequestId` serves a payload refused before it is parsed (a client over its rate limit): the
 * same pass finds the id the refusal echoes, and checks that token alone, since the text is unchecked.
 */

import { stringEnd } from './json-guard.ts'
import { RawId, type RequestId } from './messages.ts'

/** A JSON number, whole (the grammar of RFC 8259). */
const JSON_NUMBER = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/

/**
 * The id a refusal of the unparsed `text` echoes: a single request's, or a batch's first non-null one; null
 * when there is none or its token is not a valid JSON string or number.
 */
export function unparsedRequestId(text: string): RequestId {
  let at = 0
  while (at < text.length && text.charCodeAt(at) <= 0x20) at++
  const batch = text.charCodeAt(at) === 0x5b
  const tokens = idTokens(text, batch)
  const indexes = [...tokens.keys()].sort((a, b) => a - b)
  for (const index of indexes) {
    const id = idFromToken(tokens.get(index)!)
    if (id !== null) return id
    if (!batch) break
  }
  return null
}

function idFromToken(token: string): RequestId {
  if (JSON_NUMBER.test(token)) return new RawId(token)
  if (token.charCodeAt(0) !== QUOTE) return null
  try {
    return JSON.parse(token) as string
  } catch {
    return null
  }
}

/** Item index (0 for a single request) to the raw text of its numeric `id` member. */
export function numericIdTokens(text: string, batch: boolean): Map<number, string> {
  const found = new Map<number, string>()
  for (const [index, token] of idTokens(text, batch)) if (token.charCodeAt(0) !== QUOTE) found.set(index, token)
  return found
}

const QUOTE = 0x22
const COLON = 0x3a
const COMMA = 0x2c

/** Item index (0 for a single request) to the raw text of its `id` member when a number or a string. */
function idTokens(text: string, batch: boolean): Map<number, string> {
  const found = new Map<number, string>()
  const itemDepth = batch ? 2 : 1
  let depth = 0
  let item = 0
  const length = text.length
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i)
    if (c === QUOTE) {
      const end = stringEnd(text, i)
      if (end < 0) break
      if (depth === itemDepth && isIdName(text, i, end)) {
        const valueAt = afterColon(text, end + 1)
        if (valueAt >= 0) {
          const stop = text.charCodeAt(valueAt) === QUOTE ? stringEnd(text, valueAt) + 1 : numberEnd(text, valueAt)
          if (stop > valueAt) found.set(item, text.slice(valueAt, stop))
          else found.delete(item) // a later non-number id replaces an earlier one
        }
      }
      i = end
    } else if (c === 0x5b || c === 0x7b) depth++
    else if (c === 0x5d || c === 0x7d) depth--
    else if (c === COMMA && batch && depth === 1) item++
  }
  return found
}

/** Whether the string between the quotes at `open` and `close` reads `id`. */
function isIdName(text: string, open: number, close: number): boolean {
  if (close - open === 3) return text.charCodeAt(open + 1) === 0x69 && text.charCodeAt(open + 2) === 0x64
  // Escapes (`"\u0069d"`) are rare: let the parser read the name.
  const escape = text.indexOf('\\', open)
  if (escape < 0 || escape >= close || close - open >= 32) return false
  // Unchecked text (unparsedRequestId) may hold a malformed escape: then it is no name at all.
  try {
    return JSON.parse(text.slice(open, close + 1)) === 'id'
  } catch {
    return false
  }
}

/** Where the value after a member name's `:` begins; -1 when the string was not a member name. */
function afterColon(text: string, from: number): number {
  let i = skipSpace(text, from)
  if (text.charCodeAt(i) !== COLON) return -1
  return skipSpace(text, i + 1)
}

function skipSpace(text: string, from: number): number {
  let i = from
  for (;;) {
    const c = text.charCodeAt(i)
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return i
    i++
  }
}

/** The end of the JSON number at `at` (digits, sign, point, exponent); `at` itself when none starts there. */
function numberEnd(text: string, at: number): number {
  let i = at
  for (;;) {
    const c = text.charCodeAt(i)
    const numeric = (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x65 || c === 0x45
    if (!numeric) return i
    i++
  }
}

