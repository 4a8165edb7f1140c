/**
 * A JSON text writer into one growing byte buffer, for the stream's messages (message-text.ts): the
 * message's UTF-8 bytes are written as they are produced, with no object tree, no intermediate string and no
 * separate encoding pass.
 *
 * It owns only the lexical forms: 0x-hex of byte strings, minimal 0x-quantities, JSON integers, `null`, and
 * ASCII fragments the caller gives (keys, punctuation). It never escapes: every string it is handed (keys and
 * values alike) must be ASCII that JSON needs no escape for (hex, fixed field names); what it writes then
 * equals JSON.stringify's output for the same value, byte for byte. Field order and commas are the caller's.
 */

const HEX = '0123456789abcdef'
/** A byte's two hex digits (ASCII codes). */
const HIGH = new Uint8Array(256)
const LOW = new Uint8Array(256)
for (let i = 0; i < 256; i++) {
  HIGH[i] = HEX.charCodeAt(i >> 4)
  LOW[i] = HEX.charCodeAt(i & 15)
}
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER)

export class JsonWriter {
  private buf: Buffer
  private pos = 0

  constructor(initialBytes = 64 * 1024) {
    this.buf = Buffer.allocUnsafe(initialBytes)
  }

  /** Starts a new text, reusing the buffer. */
  reset(): this {
    this.pos = 0
    return this
  }

  /** The text so far, copied into a buffer of its own (the writer's is reused). */
  bytes(): Buffer {
    const out = Buffer.allocUnsafe(this.pos)
    this.buf.copy(out, 0, 0, this.pos)
    return out
  }

  /** ASCII written as it is (keys with their quotes and colon, punctuation). */
  ascii(s: string): this {
    const n = s.length
    this.room(n)
    const buf = this.buf
    let p = this.pos
    for (let i = 0; i < n; i++) buf[p++] = s.charCodeAt(i)
    this.pos = p
    return this
  }

  /** `"0x…"`: the bytes as even-length lower-case hex, quoted. */
  hex(bytes: Uint8Array): this {
    return this.paddedHex(bytes, 0)
  }

  /** `"0x…"`: the bytes left-padded with zeros to `length` bytes (as they are when longer). */
  paddedHex(bytes: Uint8Array, length: number): this {
    const n = bytes.length
    const zeros = length > n ? length - n : 0
    this.room(4 + 2 * (zeros + n))
    const buf = this.buf
    let p = this.pos
    buf[p++] = 0x22
    buf[p++] = 0x30
    buf[p++] = 0x78
    for (let i = 0; i < 2 * zeros; i++) buf[p++] = 0x30
    for (let i = 0; i < n; i++) {
      const b = bytes[i]!
      buf[p++] = HIGH[b]!
      buf[p++] = LOW[b]!
    }
    buf[p++] = 0x22
    this.pos = p
    return this
  }

  /** `"0x…"`: a string already in hex form (a map's key), quoted. */
  string(s: string): this {
    this.room(2 + s.length)
    this.buf[this.pos++] = 0x22
    this.ascii(s)
    this.buf[this.pos++] = 0x22
    return this
  }

  /** `"0x…"`: a non-negative integer as a minimal hex quantity (`0x0` for zero), quoted. */
  quantity(value: bigint | number): this {
    if (typeof value === 'bigint') {
      if (value < 0n) throw new RangeError(`not a quantity: ${value}`)
      if (value > MAX_SAFE) return this.ascii(`"0x${value.toString(16)}"`)
      value = Number(value)
    } else if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`not a quantity: ${value}`)
    let digits = 1
    for (let m = value; m >= 16; m = Math.floor(m / 16)) digits++
    this.room(4 + digits)
    const buf = this.buf
    const start = this.pos
    buf[start] = 0x22
    buf[start + 1] = 0x30
    buf[start + 2] = 0x78
    let m = value
    for (let i = start + 2 + digits; i > start + 2; i--) {
      buf[i] = HEX.charCodeAt(m % 16)
      m = Math.floor(m / 16)
    }
    buf[start + 3 + digits] = 0x22
    this.pos = start + 4 + digits
    return this
  }

  /** A JSON integer (a safe one, as JSON.stringify writes it). */
  integer(n: number): this {
    if (!Number.isSafeInteger(n)) throw new RangeError(`not an integer: ${n}`)
    return this.ascii(String(n))
  }

  /** A JSON integer or `null`. */
  integerOrNull(n: number | null): this {
    return n === null ? this.ascii('null') : this.integer(n)
  }

  private room(n: number): void {
    if (this.pos + n <= this.buf.length) return
    let size = this.buf.length * 2
    while (size < this.pos + n) size *= 2
    const grown = Buffer.allocUnsafe(size)
    this.buf.copy(grown, 0, 0, this.pos)
    this.buf = grown
  }
}
