import { test } from 'node:test'
import assert from 'node:assert/strict'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { keccak256 } from './keccak.ts'

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex')

test('keccak256 of the empty input is the well-known constant', () => {
  assert.equal(hex(keccak256(new Uint8Array(0))), 'c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470')
})

test('keccak256 equals @noble/hashes for every length from 0 to 600 bytes, aligned or not', () => {
  let seed = 7
  const next = (): number => (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24
  const backing = new Uint8Array(700)
  for (let i = 0; i < backing.length; i++) backing[i] = next()
  for (let length = 0; length <= 600; length++) {
    for (const offset of [0, 1, 3, 4]) {
      const data = backing.subarray(offset, offset + length)
      assert.equal(hex(keccak256(data)), hex(keccak_256(data)), `length ${length} offset ${offset}`)
    }
  }
})

test('keccak256 results are independent copies', () => {
  const a = keccak256(Uint8Array.of(1))
  const b = keccak256(Uint8Array.of(2))
  assert.notEqual(hex(a), hex(b))
  assert.equal(hex(a), hex(keccak_256(Uint8Array.of(1))))
})
