/**
 * eth_getStorageAt's slot, with geth's lenient rules: optional `0x`, odd length allowed (a zero nibble is
 * prepended), at most 32 bytes, left-padded to 32. geth reads the key as a plain string while decoding
 * arguments and only decodes it in the handler, so its two errors carry no `invalid argument N:` prefix:
 * `storage key too long (want at most 32 bytes): "0x…"` and `invalid hex in storage key: "0x…"`.
 */

import { invalidParams } from '../../errors/errors.ts'
import { goQuote, jsonKind, typeError } from './json.ts'

/** The argument-decoding half: a JSON string (`null` reads as `""`, as in Go). */
export function parseStorageKeyText(raw: unknown): string {
  if (raw === null || raw === undefined) return ''
  if (typeof raw !== 'string') throw typeError(jsonKind(raw), 'string')
  return raw
}

/** The handler half: the 32-byte slot, or a FlashnodeError worded as geth's. */
export function decodeStorageKey(text: string): Uint8Array {
  let digits = text.startsWith('0x') || text.startsWith('0X') ? text.slice(2) : text
  if (digits.length % 2 === 1) digits = `0${digits}`
  if (digits.length > 64) throw invalidParams(`storage key too long (want at most 32 bytes): ${goQuote(text)}`)
  if (!/^[0-9a-fA-F]*$/.test(digits)) throw invalidParams(`invalid hex in storage key: ${goQuote(text)}`)
  const out = new Uint8Array(32)
  const offset = 32 - digits.length / 2
  for (let i = 0; i < digits.length / 2; i++) out[offset + i] = parseInt(digits.slice(2 * i, 2 * i + 2), 16)
  return out
}
