import { test } from 'node:test'
import assert from 'node:assert/strict'
import { RLP, type Input } from '@ethereumjs/rlp'
import { decodeRlpView, type RlpItem } from './rlp-view.ts'

const bytes = (...xs: number[]): Uint8Array => Uint8Array.from(xs)
const fill = (n: number, v: number): Uint8Array => new Uint8Array(n).fill(v)

const samples: Input[] = [
  new Uint8Array(0),
  bytes(0),
  bytes(0x7f),
  bytes(0x80),
  fill(55, 1),
  fill(56, 2),
  fill(300, 3),
  fill(70_000, 4),
  [],
  [[], [[]], bytes(1)],
  [fill(32, 5), [fill(20, 6), [fill(32, 7), fill(32, 8)], fill(100, 9)], new Uint8Array(0), bytes(0x81)],
  Array.from({ length: 40 }, (_, i) => fill(i, i)),
]

const plain = (item: RlpItem): unknown => (item instanceof Uint8Array ? [...item] : item.map(plain))

test('decodes what the library encodes, to the same values', () => {
  for (const sample of samples) {
    const encoded = RLP.encode(sample)
    assert.deepEqual(plain(decodeRlpView(encoded)), plain(RLP.decode(encoded) as RlpItem))
  }
})

test('byte strings are views of the input, not copies', () => {
  const encoded = RLP.encode([fill(32, 5), [fill(20, 6)]])
  const [hash, [address]] = decodeRlpView(encoded) as [Uint8Array, [Uint8Array]]
  assert.equal(hash.buffer, encoded.buffer)
  assert.equal(address.buffer, encoded.buffer)
  assert.deepEqual([...encoded.subarray(address.byteOffset - encoded.byteOffset, address.byteOffset - encoded.byteOffset + 20)], [...address])
})

test('refuses truncated, trailing and non-canonical input', () => {
  const cases: [Uint8Array, RegExp][] = [
    [new Uint8Array(0), /ends inside an item/],
    [bytes(0x83, 1, 2), /runs past its input/],
    [bytes(0xc3, 0x01, 0x02), /runs past its input/],
    [bytes(0xc2, 0x83, 1, 2, 3), /runs past its input/],
    [bytes(0x01, 0x02), /trailing bytes/],
    [bytes(0x81, 0x05), /single byte below 0x80/],
    [bytes(0xb8, 0x05, 1, 2, 3, 4, 5), /long form/],
    [bytes(0xb9, 0x00, 0x40), /leading zeros/],
    [bytes(0xb9, 0x01), /ends inside a length/],
  ]
  for (const [input, error] of cases) assert.throws(() => decodeRlpView(input), error, `input ${[...input]}`)
})
