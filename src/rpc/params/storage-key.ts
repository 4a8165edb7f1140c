/**
 * eth_getStorageAt's slot, with geth's lenient rules: optional `0x`, odd length allowed (a zero nibble is
 * prepended), at most 32 bytes, left-padded to 32. geth reads the key as a plain string while decoding
 * arguments and only decodes it in the handler, so its two errors carry no `invalid argument N:` prefix:
 * `storage key too long (want at most 32 bytes): "0x…"` and `invalid hex in storage key: "0x…"`.
 */

import { invalidParams } from '../../errors/errors.ts'
import { hexNibble } from '../../primitives/hex.ts'
import { goQuote, jsonKind, typeError } from './json.ts'

/** The argument-decoding half: a JSON string (`null` reads as `""`, as in Go). */
export function parseStorageKeyText(raw: unknown): string {
  if (raw === null || raw === undefined) return ''
  if (typeof raw !== 'string') throw typeError(jsonKind(raw), 'string')
  return raw
}

/** The handler half: the 32-byte slot, or a FlashnodeError worded as geth's. */
export function decodeStorageKey(text: string): Uint8Array {
  const from = text.startsWith('0x') || text.startsWith('0X') ? 2 : 0
  const digits = text.length - from
  const bytes = (digits + 1) >> 1 // an odd count of digits has a zero nibble prepended
  if (bytes > 32) throw invalidParams(`storage key too long (want at most 32 bytes): ${goQuote(text)}`)
  // read by char code into the slot's low bytes (slicing each pair and parseInt cost ~2 µs a key)
  const out = new Uint8Array(32)
  let at = 32 - bytes
  let i = from
  if (digits % 2 === 1) {
    const low = hexNibble(text.charCodeAt(i++))
    if (low < 0) throw invalidHex(text)
    out[at++] = low
  }
  for (; i < text.length; i += 2) {
    const high = hexNibble(text.charCodeAt(i))
    const low = hexNibble(text.charCodeAt(i + 1))
    if (high < 0 || low < 0) throw invalidHex(text)
    out[at++] = (high << 4) | low
  }
  return out
}

function invalidHex(text: string): Error {
  return invalidParams(`invalid hex in storage key: ${goQuote(text)}`)
}
