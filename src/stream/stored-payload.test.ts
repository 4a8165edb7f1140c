import { test } from 'node:test'
import assert from 'node:assert/strict'
import { brotliCompressSync } from 'node:zlib'
import { BROTLI_ENCODING, compressForStream, storedJson, UnknownStreamEncoding } from './stored-payload.ts'

// A flashblock-shaped message: hex strings in JSON, as the stream's messages are (docs/stream.md).
const hex = (n: number, seed: number): string => `0x${Array.from({ length: n }, (_, i) => ((i * 7 + seed * 13) % 256).toString(16).padStart(2, '0')).join('')}`
const message = {
  payload_id: hex(8, 1),
  index: 3,
  diff: { transactions: Array.from({ length: 50 }, (_, i) => hex(110, i)), state_root: hex(32, 0) },
  metadata: { receipts: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [hex(32, i), { status: '0x1', logs: [{ topics: [hex(32, 99), hex(32, i)] }] }])) },
}
const json = Buffer.from(JSON.stringify(message), 'utf8')

test('a compressed message reads back as the same JSON bytes, smaller than the JSON', () => {
  const stored = compressForStream(json)
  assert.ok(stored.length < json.length / 2, `${stored.length} bytes stored for ${json.length} of JSON`)
  assert.deepEqual(Buffer.from(storedJson(stored, BROTLI_ENCODING)), json)
  // Any Brotli encoder's output reads the same way (the header names the format, not this encoder's settings).
  assert.deepEqual(Buffer.from(storedJson(brotliCompressSync(json), BROTLI_ENCODING)), json)
})

test('a message without the encoding header (or an empty one) is its JSON as it is', () => {
  assert.equal(storedJson(json, undefined), json)
  assert.equal(storedJson(json, ''), json)
})

test('an encoding this node does not read is refused by name, not parsed as JSON', () => {
  assert.throws(() => storedJson(json, 'zstd'), (e: unknown) => e instanceof UnknownStreamEncoding && e.encoding === 'zstd')
  assert.throws(() => storedJson(json.subarray(0, 40), BROTLI_ENCODING))
})
