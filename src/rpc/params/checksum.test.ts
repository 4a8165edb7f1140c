import { test } from 'node:test'
import assert from 'node:assert/strict'
import { hexToBytes } from '../../primitives/hex.ts'
import { checksumAddress } from './checksum.ts'

test('EIP-55 test vectors', () => {
  for (const a of [
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
    '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
  ]) {
    assert.equal(checksumAddress(hexToBytes(a.toLowerCase())), a)
  }
})
