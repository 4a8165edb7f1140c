/**
 * RLP encoding of byte strings and nested lists of them, written straight into one buffer of the exact size.
 * The library's RLP.encode encodes every item into its own array and concatenates copies at each level;
 * for trie nodes (a 17-item branch, a 2-item leaf) that copying was most of the cost of encoding.
 */

export type RlpItem = Uint8Array | readonly RlpItem[]

/** Bytes of an RLP length prefix for a payload of `length` bytes. */
export function prefixLength(length: number): number {
  if (length < 56) return 1
  let bytes = 1
  for (let n = length; n > 255; n = Math.floor(n / 256)) bytes++
  return 1 + bytes
}

/** RLP length of a node (a byte string, or a list of nodes). */
function encodedLength(node: RlpItem): number {
  if (node instanceof Uint8Array) return node.length === 1 && node[0]! < 0x80 ? 1 : prefixLength(node.length) + node.length
  let payload = 0
  for (const item of node) payload += encodedLength(item)
  return prefixLength(payload) + payload
}

/** Writes the prefix of a payload of `length` bytes at `at` (`offset` 0x80 for strings, 0xc0 for lists); returns the next position. */
export function writePrefix(out: Uint8Array, at: number, length: number, offset: number): number {
  if (length < 56) {
    out[at] = offset + length
    return at + 1
  }
  const size = prefixLength(length) - 1
  out[at] = offset + 55 + size
  for (let i = size, n = length; i > 0; i--, n = Math.floor(n / 256)) out[at + i] = n % 256
  return at + 1 + size
}

function write(node: RlpItem, out: Uint8Array, at: number): number {
  if (node instanceof Uint8Array) {
    if (!(node.length === 1 && node[0]! < 0x80)) at = writePrefix(out, at, node.length, 0x80)
    out.set(node, at)
    return at + node.length
  }
  let payload = 0
  for (const item of node) payload += encodedLength(item)
  at = writePrefix(out, at, payload, 0xc0)
  for (const item of node) at = write(item, out, at)
  return at
}

/** RLP of `item`, written into one buffer. */
export function encodeRlp(item: RlpItem): Uint8Array {
  const out = new Uint8Array(encodedLength(item))
  write(item, out, 0)
  return out
}
