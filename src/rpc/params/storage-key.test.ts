import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { FlashnodeError } from '../../errors/errors.ts'
import { bytesToHex } from '../../primitives/hex.ts'
import { ParamError } from './param-error.ts'
import { decodeStorageKey, parseStorageKeyText } from './storage-key.ts'

const fixture = (name: string): { params: unknown[]; message: string } => {
  const lines = readFileSync(new URL(`../../../../shared/rpc-compat/tests/eth_getStorageAt/${name}`, import.meta.url), 'utf8').split('\n')
  const request = JSON.parse(lines.find((l) => l.startsWith('>>'))!.slice(3)) as { params: unknown[] }
  const response = JSON.parse(lines.find((l) => l.startsWith('<<'))!.slice(3)) as { error: { message: string } }
  return { params: request.params, message: response.error.message }
}

test('decodes short, odd and prefix-less keys into a left-padded 32-byte slot', () => {
  assert.equal(bytesToHex(decodeStorageKey('0x1')), `0x${'0'.repeat(63)}1`)
  assert.equal(bytesToHex(decodeStorageKey('abc')), `0x${'0'.repeat(61)}abc`)
  assert.equal(bytesToHex(decodeStorageKey('0x')), `0x${'0'.repeat(64)}`)
  assert.equal(bytesToHex(decodeStorageKey(`0x${'ff'.repeat(32)}`)), `0x${'ff'.repeat(32)}`)
  assert.equal(bytesToHex(decodeStorageKey(`0X${'Ab'.repeat(16)}`)), `0x${'00'.repeat(16)}${'ab'.repeat(16)}`)
  assert.equal(bytesToHex(decodeStorageKey(`f${'0'.repeat(62)}`)), `0x0f${'0'.repeat(62)}`) // 63 digits: still 32 bytes
})

test('every non-hex digit, wherever it stands, is the invalid-hex error; length is checked first', () => {
  const invalid = (text: string): void =>
    assert.throws(() => decodeStorageKey(text), (e: unknown) => e instanceof FlashnodeError && e.message === `invalid hex in storage key: "${text}"`)
  for (const text of ['0xg', '0x0g', '0xg0', 'x1', '0x12 ', '0x1-2', '0xx12', `0x${'0'.repeat(63)}z`]) invalid(text)
  const tooLong = `0x1${'0'.repeat(64)}` // 65 digits: 33 bytes
  assert.throws(() => decodeStorageKey(tooLong), (e: unknown) => e instanceof FlashnodeError && e.message.startsWith('storage key too long'))
  assert.throws(() => decodeStorageKey(`0x${'z'.repeat(66)}`), (e: unknown) => e instanceof FlashnodeError && e.message.startsWith('storage key too long'))
})

for (const name of ['get-storage-invalid-key-too-large.io', 'get-storage-invalid-key.io']) {
  test(`error wording matches rpc-compat ${name} exactly (no argument prefix)`, () => {
    const { params, message } = fixture(name)
    const text = parseStorageKeyText(params[1])
    assert.throws(
      () => decodeStorageKey(text),
      (e: unknown) => e instanceof FlashnodeError && e.kind === 'invalidParams' && e.message === message,
    )
  })
}

test('the key must be a JSON string; null reads as empty', () => {
  assert.equal(parseStorageKeyText(null), '')
  assert.throws(() => parseStorageKeyText(5), (e: unknown) => e instanceof ParamError && e.message === 'json: cannot unmarshal number into Go value of type string')
})
