import { test } from 'node:test'
import assert from 'node:assert/strict'
import { RLP } from '@ethereumjs/rlp'
import { encodeRlp, type RlpItem } from './rlp-encode.ts'

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex')

test('encodeRlp equals RLP.encode: single bytes, every length boundary, nested and long lists', () => {
  let seed = 11
  const next = (n: number): number => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 8) % n
  const bytes = (length: number): Uint8Array => Uint8Array.from({ length }, () => next(256))
  const strings = [new Uint8Array(0), Uint8Array.of(0), Uint8Array.of(0x7f), Uint8Array.of(0x80), Uint8Array.of(0xff), ...[2, 55, 56, 57, 255, 256, 1024, 70_000].map(bytes)]
  for (const s of strings) assert.equal(hex(encodeRlp(s)), hex(RLP.encode(s)), `string of ${s.length}`)
  const item = (depth: number): RlpItem => (depth === 0 || next(3) === 0 ? strings[next(strings.length - 1)]! : Array.from({ length: next(20) }, () => item(depth - 1)))
  for (let i = 0; i < 300; i++) {
    const x = item(4)
    assert.equal(hex(encodeRlp(x)), hex(RLP.encode(x as never)))
  }
  assert.equal(hex(encodeRlp([])), 'c0')
})
