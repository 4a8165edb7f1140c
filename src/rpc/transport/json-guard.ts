/**
 * Nesting-depth guard for untrusted JSON, run before `JSON.parse` (which has no depth limit: a body of a
 * few MiB of `[` would otherwise cost a deep recursion in the parser and in everything that walks the
 * result).
 *
 * One linear pass, no allocation. Brackets inside strings do not count: a string ends at the first `"` after
 * its opening that an even run of backslashes precedes (none, or escaped backslashes), so `"\""` and `"\\"`
 * are both read correctly (`\uXXXX` needs no special case: hex digits are never quotes or brackets). A
 * string's end is found by the engine's own search (`indexOf`): calldata strings of kilobytes are most of a
 * large body, and a loop over their characters cost ~85 µs for a 13 KB multicall. The scan does not
 * validate JSON; malformed input that passes is left to `JSON.parse` to reject.
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
  const length = text.length
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i)
    if (c === QUOTE) {
      i = stringEnd(text, i)
      if (i < 0) return false
    } else if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      if (++depth > maxDepth) return true
    } else if (c === CLOSE_BRACKET || c === CLOSE_BRACE) depth--
  }
  return false
}

/** The index of the quote that closes the string opened at `open`, or -1 when none does. */
export function stringEnd(text: string, open: number): number {
  let at = open
  for (;;) {
    at = text.indexOf('"', at + 1)
    if (at < 0) return -1
    let backslashes = 0
    while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++
    if (backslashes % 2 === 0) return at
  }
}
