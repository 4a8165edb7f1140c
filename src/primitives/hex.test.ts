import { test } from 'node:test'
import assert from 'node:assert/strict'
import { bigIntToUnpaddedBytes } from '@ethereumjs/util'
import { bigIntToFixedBytes, bigIntToMinimalBytes, bytesToBigInt, bytesToHex, hexToBytes } from './hex.ts'

test('bigIntToMinimalBytes gives the shortest big-endian bytes, as the library does, on both sides of 2^53', () => {
  const values = [0n, 1n, 0x7fn, 0x80n, 0xffn, 0x100n, 0xffffn, 0x10000n, 2n ** 32n - 1n, 2n ** 32n, 2n ** 48n + 3n]
  for (let p = 50n; p <= 56n; p++) values.push(2n ** p - 1n, 2n ** p, 2n ** p + 1n)
  values.push(BigInt(Number.MAX_SAFE_INTEGER), 2n ** 64n - 1n, 2n ** 255n, 2n ** 256n - 1n)
  for (const v of values) assert.deepEqual(bigIntToMinimalBytes(v), bigIntToUnpaddedBytes(v), `value ${v}`)
})

test('bytesToBigInt and bigIntToFixedBytes agree with a byte-by-byte reference for every length from 0 to 70', () => {
  const reference = (bytes: Uint8Array): bigint => bytes.reduce((acc, b) => (acc << 8n) | BigInt(b), 0n)
  for (let length = 0; length <= 70; length++) {
    for (const fill of ['random', 'zeros', 'ones', 'leading-zeros'] as const) {
      const bytes = new Uint8Array(length)
      for (let i = 0; i < length; i++) {
        bytes[i] = fill === 'zeros' ? 0 : fill === 'ones' ? 0xff : fill === 'leading-zeros' && i < length / 2 ? 0 : Math.floor(Math.random() * 256)
      }
      const value = reference(bytes)
      assert.equal(bytesToBigInt(bytes), value, `bytesToBigInt of ${length} ${fill} bytes`)
      assert.deepEqual(bigIntToFixedBytes(value, length), bytes, `bigIntToFixedBytes to ${length} bytes (${fill})`)
      // Wider target: left-padded with zeros; narrower: the low bytes.
      assert.deepEqual(bigIntToFixedBytes(value, length + 3), new Uint8Array([0, 0, 0, ...bytes]))
      if (length > 0) assert.deepEqual(bigIntToFixedBytes(value, length - 1), bytes.subarray(1))
    }
  }
  assert.deepEqual(bigIntToFixedBytes(-5n, 4), new Uint8Array(4), 'a negative value is all zeros')
})

test('bytesToHex matches Buffer\'s hex for every length on both sides of its scratch buffer, views at odd offsets included', () => {
  const pool = new Uint8Array(700)
  for (let i = 0; i < pool.length; i++) pool[i] = (i * 167 + 13) & 0xff
  for (let length = 0; length <= 600; length++) {
    for (const offset of [0, 1, 7]) {
      const bytes = pool.subarray(offset, offset + length)
      const hex = bytesToHex(bytes)
      assert.equal(hex, `0x${Buffer.from(bytes).toString('hex')}`, `${length} bytes at offset ${offset}`)
      assert.deepEqual(hexToBytes(hex), bytes)
    }
  }
  const every = Uint8Array.from({ length: 256 }, (_, i) => i)
  assert.equal(bytesToHex(every), `0x${Buffer.from(every).toString('hex')}`, 'every byte value')
  // Each call's string is its own: a later call does not change an earlier result.
  const first = bytesToHex(new Uint8Array([0xab, 0xcd]))
  bytesToHex(new Uint8Array([0x01, 0x02, 0x03]))
  assert.equal(first, '0xabcd')
})
