import { test } from 'node:test'
import assert from 'node:assert/strict'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { bytesToHex } from './hex.ts'
import { DIGEST_OFFSET, digestView, keccak256, keccak256Range, keccak256View } from './keccak.ts'
import { Rng } from '../../test/support/rng.ts'

/** The digest keccak256Range / keccak256View left in the module's memory. */
const lastDigest = (): Uint8Array => new Uint8Array(digestView.buffer, digestView.byteOffset + DIGEST_OFFSET, 32).slice()

test('keccak256 of the empty input is the well-known constant', () => {
  assert.equal(bytesToHex(keccak256(new Uint8Array(0))), '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470')
})

test('keccak256 equals @noble/hashes on every length across the sponge block (136) and the WebAssembly chunk boundaries', () => {
  const rng = new Rng(7)
  const lengths: number[] = []
  for (let n = 0; n <= 600; n++) lengths.push(n)
  for (const edge of [16 * 1024, 64 * 1024, 100_000]) lengths.push(edge - 1, edge, edge + 1)
  for (const n of lengths) {
    const data = rng.bytes(n)
    assert.equal(bytesToHex(keccak256(data)), bytesToHex(keccak_256(data)), `length ${n}`)
  }
})

test('keccak256 hashes the view it is given (a subarray of a larger buffer), and returns a fresh array each time', () => {
  const backing = new Rng(9).bytes(300)
  const view = backing.subarray(17, 250)
  const first = keccak256(view)
  assert.equal(bytesToHex(first), bytesToHex(keccak_256(view)))
  const second = keccak256(backing)
  assert.notEqual(first.buffer, second.buffer)
  assert.equal(bytesToHex(first), bytesToHex(keccak_256(view)), 'an earlier answer is not overwritten by the next hash')
  assert.equal(bytesToHex(keccak256(Buffer.from(view))), bytesToHex(first), 'a Buffer hashes like its bytes')
})

test('keccak256Range hashes a range of a larger array in place and leaves the digest at DIGEST_OFFSET', () => {
  const rng = new Rng(11)
  const backing = rng.bytes(40_000)
  for (const [start, length] of [[0, 0], [5, 1], [3, 64], [1, 65], [100, 136], [7, 137], [13, 16 * 1024], [2, 16 * 1024 + 1], [9, 39_000]] as const) {
    keccak256Range(backing, start, length)
    assert.equal(bytesToHex(lastDigest()), bytesToHex(keccak_256(backing.subarray(start, start + length))), `range ${start}+${length}`)
  }
})

test('keccak256View hashes a range read through a DataView, at every alignment and tail length, past the chunk too', () => {
  const rng = new Rng(12)
  const backing = rng.bytes(40_000)
  const view = new DataView(backing.buffer, backing.byteOffset, backing.byteLength)
  const cases: [number, number][] = [[0, 0], [39_999, 1], [9, 39_000], [0, 16 * 1024], [6, 16 * 1024 + 1]]
  for (let start = 0; start < 4; start++) for (let length = 0; length <= 140; length++) cases.push([start + 32 * length, length])
  for (const [start, length] of cases) {
    keccak256View(view, start, length)
    assert.equal(bytesToHex(lastDigest()), bytesToHex(keccak_256(backing.subarray(start, start + length))), `range ${start}+${length}`)
  }
})

test('keccak256View reads the view\'s own bytes when it starts inside a larger buffer', () => {
  const rng = new Rng(13)
  const backing = rng.bytes(1_000)
  const view = new DataView(backing.buffer, 37, 500)
  for (const [start, length] of [[0, 64], [3, 33], [100, 400]] as const) {
    keccak256View(view, start, length)
    assert.equal(bytesToHex(lastDigest()), bytesToHex(keccak_256(backing.subarray(37 + start, 37 + start + length))), `range ${start}+${length}`)
  }
})
