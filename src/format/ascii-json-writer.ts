/**
 * An append-only writer of ASCII JSON text into one growing byte buffer, for answers too large to build as
 * objects and hand to JSON.stringify (a block's receipts: tens of thousands of small strings and objects).
 *
 * It writes only what needs no escaping: pre-encoded fragments (keys, punctuation, `null`), `"0x…"` data
 * (even-length lower-case hex, as bytesToHex) and `"0x…"` quantities (as quantity(), which it calls, so the
 * same values are refused). The text is ASCII, so its length in characters is its length in bytes.
 */

import { quantity } from '../primitives/hex.ts'

const HEX_DIGITS = ascii('0123456789abcdef')
const QUOTE = 0x22
const ZERO = 0x30
const X = 0x78
const COMMA_BYTES = Uint8Array.of(0x2c)

/** The bytes of a constant ASCII fragment, encoded once (module constants), for `fragment()`. */
export function ascii(text: string): Uint8Array {
  const out = new Uint8Array(text.length)
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code > 0x7f) throw new RangeError(`not ASCII: ${text}`)
    out[i] = code
  }
  return out
}

export class AsciiJsonWriter {
  private buf: Uint8Array
  private pos = 0

  constructor(initialCapacity: number) {
    this.buf = new Uint8Array(Math.max(64, initialCapacity))
  }

  fragment(bytes: Uint8Array): void {
    this.reserve(bytes.length)
    const buf = this.buf
    let p = this.pos
    for (let i = 0; i < bytes.length; i++) buf[p++] = bytes[i]!
    this.pos = p
  }

  /** `"0x…"`: two hex digits per byte (`"0x"` when empty). */
  data(bytes: Uint8Array): void {
    this.reserve(bytes.length * 2 + 4)
    const buf = this.buf
    let p = this.pos
    buf[p++] = QUOTE
    buf[p++] = ZERO
    buf[p++] = X
    for (let i = 0; i < bytes.length; i++) {
      const b = bytes[i]!
      buf[p++] = HEX_DIGITS[b >> 4]!
      buf[p++] = HEX_DIGITS[b & 15]!
    }
    buf[p++] = QUOTE
    this.pos = p
  }

  /** `"0x…"`: a minimal hex quantity; throws RangeError as quantity() does. */
  quantity(value: bigint | number): void {
    const text = quantity(value)
    this.reserve(text.length + 2)
    const buf = this.buf
    let p = this.pos
    buf[p++] = QUOTE
    for (let i = 0; i < text.length; i++) buf[p++] = text.charCodeAt(i)
    buf[p++] = QUOTE
    this.pos = p
  }

  /** A pre-encoded key fragment, then `"0x…"` data. */
  dataField(key: Uint8Array, bytes: Uint8Array): void {
    this.fragment(key)
    this.data(bytes)
  }

  /** A pre-encoded key fragment, then a `"0x…"` quantity. */
  quantityField(key: Uint8Array, value: bigint | number): void {
    this.fragment(key)
    this.quantity(value)
  }

  /** `"0x…"` data items separated by commas (the inside of a list). */
  dataItems(items: readonly Uint8Array[]): void {
    for (let i = 0; i < items.length; i++) {
      if (i > 0) this.fragment(COMMA_BYTES)
      this.data(items[i]!)
    }
  }

  /** Starts over, keeping the buffer (a writer reused for many small answers allocates once). */
  clear(): void {
    this.pos = 0
  }

  /** The buffer's size in bytes (what a kept writer holds on to). */
  get capacity(): number {
    return this.buf.length
  }

  /** The text written so far. */
  text(): string {
    return Buffer.from(this.buf.buffer, this.buf.byteOffset, this.pos).toString('latin1')
  }

  private reserve(extra: number): void {
    const need = this.pos + extra
    if (need <= this.buf.length) return
    const grown = new Uint8Array(Math.max(need, this.buf.length * 2))
    grown.set(this.buf.subarray(0, this.pos))
    this.buf = grown
  }
}
