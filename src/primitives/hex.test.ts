import { test } from 'node:test'
import assert from 'node:assert/strict'
import { bigIntToUnpaddedBytes } from '@ethereumjs/util'
import { bigIntToMinimalBytes } from './hex.ts'

test('bigIntToMinimalBytes gives the shortest big-endian bytes, as the library does, on both sides of 2^53', () => {
  const values = [0n, 1n, 0x7fn, 0x80n, 0xffn, 0x100n, 0xffffn, 0x10000n, 2n ** 32n - 1n, 2n ** 32n, 2n ** 48n + 3n]
  for (let p = 50n; p <= 56n; p++) values.push(2n ** p - 1n, 2n ** p, 2n ** p + 1n)
  values.push(BigInt(Number.MAX_SAFE_INTEGER), 2n ** 64n - 1n, 2n ** 255n, 2n ** 256n - 1n)
  for (const v of values) assert.deepEqual(bigIntToMinimalBytes(v), bigIntToUnpaddedBytes(v), `value ${v}`)
})
