/**
 * RLP decoding into views: every byte string of the result is a subarray of the input, never a copy.
 *
 * For reading this node's own stored records (receipt-codec.ts), where the library decoder's copy of every
 * field and its per-item bookkeeping cost more than the rest of the load. The views keep the input alive and
 * see any later change to it, so the input must be a buffer nobody reuses (a KvStore read is a fresh copy).
 *
 * Strict like the library: lengths must fit the input, the input must be exactly one item, and only
 * canonical encodings are accepted (single bytes below 0x80 unprefixed, long forms only past 55 bytes,
 * lengths without leading zeros). Errors are plain `Error`s naming what is wrong.
 */

export type RlpItem = Uint8Array | RlpItem[]

export function decodeRlpView(input: Uint8Array): RlpItem {
  // Views of a plain Uint8Array, even when the input is a Buffer: Buffer's subarray costs several times more.
  const bytes = new Uint8Array(input.buffer, input.byteOffset, input.length)
  const [item, end] = readItem(bytes, 0, bytes.length)
  if (end !== bytes.length) throw new Error('invalid RLP: trailing bytes after the item')
  return item
}

/** The item at `pos` (which must end by `limit`) and the position after it. */
function readItem(input: Uint8Array, pos: number, limit: number): [RlpItem, number] {
  if (pos >= limit) throw new Error('invalid RLP: input ends inside an item')
  const first = input[pos]!
  if (first < 0x80) return [input.subarray(pos, pos + 1), pos + 1]
  if (first < 0xc0) {
    const { start, end } = payload(input, pos, limit, first - 0x80)
    if (end - start === 1 && input[start]! < 0x80) throw new Error('invalid RLP: a single byte below 0x80 is not prefixed')
    return [input.subarray(start, end), end]
  }
  const { start, end } = payload(input, pos, limit, first - 0xc0)
  const list: RlpItem[] = []
  let at = start
  while (at < end) {
    const [child, next] = readItem(input, at, end)
    list.push(child)
    at = next
  }
  return [list, end]
}

/** Where the payload of the item at `pos` lies; `short` is the first byte less the string or list offset. */
function payload(input: Uint8Array, pos: number, limit: number, short: number): { start: number; end: number } {
  if (short <= 55) return bounded(pos + 1, pos + 1 + short, limit)
  const lengthBytes = short - 55
  if (pos + 1 + lengthBytes > limit) throw new Error('invalid RLP: input ends inside a length')
  if (input[pos + 1] === 0) throw new Error('invalid RLP: a length with leading zeros')
  let length = 0
  for (let i = 0; i < lengthBytes; i++) length = length * 256 + input[pos + 1 + i]!
  if (length <= 55) throw new Error('invalid RLP: a long form for a length of at most 55')
  const start = pos + 1 + lengthBytes
  return bounded(start, start + length, limit)
}

function bounded(start: number, end: number, limit: number): { start: number; end: number } {
  if (end > limit) throw new Error('invalid RLP: an item runs past its input')
  return { start, end }
}
