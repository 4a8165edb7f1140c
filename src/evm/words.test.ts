import { test } from 'node:test'
import assert from 'node:assert/strict'
import { big, bitLength, byteLength, bytesToWord, canon, countLeadingZeros, expWord, MAX_SMALL, MAX_WORD, readWord, signExtend, wordToBytes, writeWord, type Word } from './words.ts'

test('EXP wraps modulo 2^256 and handles the edge exponents', () => {
  assert.equal(expWord(2n, 255n), 1n << 255n)
  assert.equal(expWord(2n, 256n), 0n)
  assert.equal(expWord(3n, 0n), 1n)
  assert.equal(expWord(0n, 0n), 1n)
  assert.equal(expWord(0n, 5n), 0n)
  assert.equal(expWord(7n, 13n), 7n ** 13n)
  assert.equal(expWord(MAX_WORD, 2n), 1n) // (-1)^2
  assert.equal(expWord(MAX_WORD, 3n), MAX_WORD) // (-1)^3
  assert.equal(expWord(3n, 1000n), 3n ** 1000n % (1n << 256n))
})

test('SIGNEXTEND extends the sign bit of the chosen byte', () => {
  assert.equal(signExtend(0n, 0xffn), MAX_WORD)
  assert.equal(signExtend(0n, 0x7fn), 0x7fn)
  assert.equal(signExtend(0n, 0x1280n), MAX_WORD - 0x7fn) // only the low byte 0x80 counts
  assert.equal(signExtend(1n, 0x8000n), MAX_WORD - 0x7fffn)
  assert.equal(signExtend(31n, 0x8000n), 0x8000n)
  assert.equal(signExtend(MAX_WORD, 0xffn), 0xffn)
})

test('bit and byte lengths and CLZ (EIP-7939)', () => {
  assert.equal(bitLength(0n), 0)
  assert.equal(bitLength(1n), 1)
  assert.equal(bitLength(0xffffffffn), 32)
  assert.equal(bitLength(0x100000000n), 33)
  assert.equal(bitLength(1n << 52n), 53)
  assert.equal(bitLength(1n << 200n), 201)
  assert.equal(byteLength(0n), 0)
  assert.equal(byteLength(0xffn), 1)
  assert.equal(byteLength(0x100n), 2)
  assert.equal(byteLength(MAX_WORD), 32)
  assert.equal(countLeadingZeros(0n), 256)
  assert.equal(countLeadingZeros(1n), 255)
  assert.equal(countLeadingZeros(1n << 255n), 0)
  assert.equal(countLeadingZeros(MAX_WORD), 0)
  assert.equal(countLeadingZeros(0x40n << 248n), 1)
})

/** The one form a value has as a stack word: a number up to MAX_SMALL, else a bigint. */
function wordOf(value: bigint): Word {
  return value <= BigInt(MAX_SMALL) ? Number(value) : value
}

test('a word is a number up to 2^31 - 1 and a bigint above, whichever way it is made', () => {
  for (const value of [0n, 1n, 0xffn, BigInt(MAX_SMALL) - 1n, BigInt(MAX_SMALL), BigInt(MAX_SMALL) + 1n, 0xffffffffn, 1n << 53n, MAX_WORD]) {
    assert.equal(canon(value), wordOf(value), `canon(${value})`)
    assert.equal(big(wordOf(value)), value)
    assert.equal(typeof canon(value), value <= BigInt(MAX_SMALL) ? 'number' : 'bigint')
  }
})

test('words round-trip through big-endian bytes, read back in their one form', () => {
  const view = new DataView(new ArrayBuffer(64))
  const values = [0n, 1n, 0x7fffffffn, 0x80000000n, 0xffffffffn, 0x100000000n, 0x1fffffffffffffn, 0x20000000000000n, 1n << 64n, MAX_WORD, 0x0102030405060708090a0b0c0d0e0f10111213141516171819n]
  for (const value of values) {
    for (const written of [value, wordOf(value)]) {
      view.setUint32(48, 0xdeadbeef) // bytes after the word stay
      writeWord(view, 16, written)
      assert.equal(readWord(view, 16), wordOf(value), `${value} written as a ${typeof written}`)
      assert.equal(view.getUint32(48), 0xdeadbeef)
    }
    const bytes = wordToBytes(wordOf(value))
    assert.equal(BigInt('0x' + Buffer.from(bytes).toString('hex')), value)
  }
  // left-aligned (PUSH past the end, CALLDATALOAD) and right-aligned reads
  assert.equal(bytesToWord(Uint8Array.of(0x12), 0, 2, false), 0x12 << 8)
  assert.equal(bytesToWord(Uint8Array.of(0x12, 0x34), 0, 2, false), 0x1234)
  assert.equal(bytesToWord(Uint8Array.of(0xab), 0, 32, true), 0xabn << 248n)
  assert.equal(bytesToWord(Uint8Array.of(0xab), 5, 32, true), 0)
})
