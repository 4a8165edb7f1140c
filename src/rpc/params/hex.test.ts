import { test } from 'node:test'
import assert from 'node:assert/strict'
import { bytesToHex } from '../../primitives/hex.ts'
import { reason } from './test-kit.ts'
import { Rng } from '../../../test/support/rng.ts'
import { decodeHex, decodeUint64, parseAddress, parseBytes, parseHash, parseQuantity, parseUint, parseUint64 } from './hex.ts'

test('address: 20 bytes, geth wording for every failure', () => {
  assert.equal(bytesToHex(parseAddress('0x7DCD17433742f4c0ca53122ab541d0ba67fc27df')), '0x7dcd17433742f4c0ca53122ab541d0ba67fc27df')
  assert.equal(bytesToHex(parseAddress('0X7dcd17433742f4c0ca53122ab541d0ba67fc27df')).length, 42)
  assert.equal(reason(() => parseAddress('7dcd17433742f4c0ca53122ab541d0ba67fc27df')), 'hex string without 0x prefix')
  assert.equal(reason(() => parseAddress('0x123')), 'hex string of odd length')
  assert.equal(reason(() => parseAddress('0x1234')), 'hex string has length 4, want 40 for common.Address')
  assert.equal(reason(() => parseAddress('')), 'hex string has length 0, want 40 for common.Address')
  assert.equal(reason(() => parseAddress('0x7dcd17433742f4c0ca53122ab541d0ba67fc27zz')), 'invalid hex string')
  assert.equal(reason(() => parseAddress(12)), 'json: cannot unmarshal non-string into Go value of type common.Address')
  assert.equal(reason(() => parseAddress(null)), 'json: cannot unmarshal non-string into Go value of type common.Address')
})

test('hash: 32 bytes', () => {
  const h = `0x${'ab'.repeat(32)}`
  assert.equal(bytesToHex(parseHash(h)), h)
  assert.equal(reason(() => parseHash(`0x${'ab'.repeat(20)}`)), 'hex string has length 40, want 64 for common.Hash')
})

test('bytes: even-length 0x data; "" and "0x" are empty', () => {
  assert.deepEqual([...parseBytes('0xff01')], [0xff, 0x01])
  assert.equal(parseBytes('0x').length, 0)
  assert.equal(parseBytes('').length, 0)
  assert.equal(reason(() => parseBytes('ff')), 'hex string without 0x prefix')
  assert.equal(reason(() => parseBytes('0xf')), 'hex string of odd length')
  assert.equal(reason(() => parseBytes('0xgg')), 'invalid hex string')
  assert.equal(reason(() => parseBytes(1)), 'json: cannot unmarshal non-string into Go value of type hexutil.Bytes')
})

test('bytes of every length up to 300: mixed-case digits decode, and one foreign character anywhere is refused', () => {
  const rng = new Rng(0x6865)
  const foreign = ['g', 'G', 'x', ' ', '-', '"', '\u00e9', '\u0660', '\u{1F600}'.slice(0, 1)]
  for (let n = 0; n <= 300; n++) {
    const bytes = rng.bytes(n)
    const digits = [...bytesToHex(bytes).slice(2)].map((c) => (rng.chance(0.5) ? c.toUpperCase() : c)).join('')
    assert.deepEqual(parseBytes(`0x${digits}`), bytes, `${n} bytes`)
    if (n === 0) continue
    const at = rng.int(digits.length)
    const bad = digits.slice(0, at) + rng.pick(foreign) + digits.slice(at + 1)
    assert.equal(reason(() => parseBytes(`0x${bad}`)), 'invalid hex string', `${n} bytes, a foreign character at ${at}`)
  }
})

test('quantity: geth hexutil.Big rules up to 256 bits', () => {
  assert.equal(parseQuantity('0x0'), 0n)
  assert.equal(parseQuantity('0x1A'), 26n)
  assert.equal(parseQuantity(''), 0n)
  assert.equal(parseQuantity(`0x${'f'.repeat(64)}`), (1n << 256n) - 1n)
  assert.equal(reason(() => parseQuantity('10')), 'hex string without 0x prefix')
  assert.equal(reason(() => parseQuantity('0x')), 'hex string "0x"')
  assert.equal(reason(() => parseQuantity('0x01')), 'hex number with leading zero digits')
  assert.equal(reason(() => parseQuantity(`0x1${'0'.repeat(64)}`)), 'hex number > 256 bits')
  // geth checks the length before the digits
  assert.equal(reason(() => parseQuantity(`0x${'z'.repeat(65)}`)), 'hex number > 256 bits')
  assert.equal(reason(() => parseQuantity('0xzz')), 'invalid hex string')
  assert.equal(reason(() => parseQuantity(5)), 'json: cannot unmarshal non-string into Go value of type *hexutil.Big')
})

test('uint64 and uint: 64-bit limits', () => {
  assert.equal(parseUint64('0xffffffffffffffff'), 0xffffffffffffffffn)
  assert.equal(reason(() => parseUint64('0x10000000000000000')), 'hex number > 64 bits')
  assert.equal(reason(() => parseUint64(7)), 'json: cannot unmarshal non-string into Go value of type hexutil.Uint64')
  assert.equal(parseUint('0x2'), 2)
  assert.equal(parseUint('0xffffffffffffffff'), Number.MAX_SAFE_INTEGER)
  assert.equal(reason(() => parseUint('0x10000000000000000')), 'hex number > 64 bits')
})

test('decodeUint64 (block numbers): empty string is an error, range checked per digit', () => {
  assert.equal(decodeUint64('0x36'), 54n)
  assert.equal(reason(() => decodeUint64('')), 'empty hex string')
  assert.equal(reason(() => decodeUint64('54')), 'hex string without 0x prefix')
  assert.equal(reason(() => decodeUint64('0x-4994')), 'invalid hex string')
  assert.equal(reason(() => decodeUint64('0x10000000000000000')), 'hex number > 64 bits')
})

test('decodeHex (filters): invalid digits are reported before odd length', () => {
  assert.deepEqual([...decodeHex('0x0a')], [10])
  assert.equal(reason(() => decodeHex('')), 'empty hex string')
  assert.equal(reason(() => decodeHex('0xabc')), 'hex string of odd length')
  assert.equal(reason(() => decodeHex('0xabz')), 'invalid hex string')
})
