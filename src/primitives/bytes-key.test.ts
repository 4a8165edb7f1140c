import { test } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { bytesKey } from './bytes-key.ts'

test('a key is one code unit per two bytes, high byte first, an odd last byte alone', () => {
  assert.equal(bytesKey(new Uint8Array([0x12, 0x34, 0xab, 0xcd])), '\u1234\uabcd')
  assert.equal(bytesKey(new Uint8Array([0xff, 0x00, 0x07])), '\uff00\u0007')
  assert.equal(bytesKey(new Uint8Array(0)), '')
  assert.equal(bytesKey(new Uint8Array(20)).length, 10)
  assert.equal(bytesKey(new Uint8Array(32)).length, 16)
})

test('keys of one length are equal exactly when the bytes are, for addresses, slots, odd and long inputs', () => {
  for (const length of [1, 20, 31, 32, 33, 200]) {
    const seen = new Map<string, string>()
    for (let i = 0; i < 2_000; i++) {
      const bytes = randomBytes(length)
      // half the inputs differ from an earlier one in a single byte, the case a weak packing would merge
      if (i % 2 === 1) bytes[i % length] = bytes[i % length]! ^ 1
      const hex = bytes.toString('hex')
      const key = bytesKey(bytes)
      const earlier = seen.get(key)
      if (earlier !== undefined) assert.equal(earlier, hex, `length ${length}: two inputs share a key`)
      seen.set(key, hex)
      assert.equal(bytesKey(Uint8Array.from(bytes)), key, 'the same bytes in another array give the same key')
    }
  }
})

test('a key does not depend on what an earlier, longer or shorter, input left in the reused arrays', () => {
  const a = bytesKey(new Uint8Array([1, 2, 3, 4, 5]))
  bytesKey(new Uint8Array([9, 9, 9, 9, 9, 9]))
  bytesKey(new Uint8Array([8, 8, 8, 8, 8]))
  assert.equal(bytesKey(new Uint8Array([1, 2, 3, 4, 5])), a)
})

test('a view into a larger buffer keys only its own bytes', () => {
  const buffer = new Uint8Array([0xaa, 1, 2, 3, 4, 0xbb])
  assert.equal(bytesKey(buffer.subarray(1, 5)), bytesKey(new Uint8Array([1, 2, 3, 4])))
})
