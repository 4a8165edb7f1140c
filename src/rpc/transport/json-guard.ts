/**
 * Nesting-depth guard for untrusted JSON, run before `JSON.parse` (which has no depth limit: a body of a
 * few MiB of `[` would otherwise cost a deep recursion in the parser and in everything that walks the
 * result).
 *
 * One linear pass, no allocation. Brackets inside strings do not count: a `"` toggles string mode and a
 * backslash inside a string skips the next character, so `"\""` and `"\\"` are both read correctly
 * (`\uXXXX` needs no special case: hex digits are never quotes or brackets). The scan does not validate
 * JSON; malformed input that passes is left to `JSON.parse` to reject.
 */

const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_BRACKET = 0x5b
const CLOSE_BRACKET = 0x5d
const OPEN_BRACE = 0x7b
const CLOSE_BRACE = 0x7d

/** True when `text` opens more than `maxDepth` arrays/objects inside each other. */
export function exceedsJsonDepth(text: string, maxDepth: number): boolean {
  let depth = 0
  let inString = false
  const length = text.length
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === BACKSLASH) i++
      else if (c === QUOTE) inString = false
      continue
    }
    if (c === QUOTE) inString = true
    else if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      if (++depth > maxDepth) return true
    } else if (c === CLOSE_BRACKET || c === CLOSE_BRACE) depth--
  }
  return false
}
