import { test } from 'node:test'
import assert from 'node:assert/strict'
import { bytesToBigInt } from '../primitives/hex.ts'
import { keccak256 } from '../primitives/keccak.ts'
import { analyse } from './code-analysis.ts'
import { sharedCode } from './code-cache.ts'

const hashOf = (code: Uint8Array): bigint => bytesToBigInt(keccak256(code))

test('one array per code hash across readers, so the analysis is made once; each read after the first skips the reader', () => {
  const code = new Uint8Array([0x60, 0x2a, 0x5b, 0x00, Math.floor(Math.random() * 256)])
  let reads = 0
  const read = (): Uint8Array => {
    reads++
    return code.slice() // every read a fresh array, as the database's are
  }
  const first = sharedCode(hashOf(code), read)
  const second = sharedCode(hashOf(code), read)
  assert.equal(second, first)
  assert.equal(reads, 1)
  assert.equal(analyse(second), analyse(first))
})

test('a read that is not the hash\'s code (empty, or another code) is answered but never kept', () => {
  const code = new Uint8Array([0x60, 0x01, 0x00, Math.floor(Math.random() * 256), 7])
  const hash = hashOf(code)
  assert.equal(sharedCode(hash, () => new Uint8Array(0)).length, 0)
  const other = new Uint8Array([0xfe])
  assert.equal(sharedCode(hash, () => other), other)
  const real = sharedCode(hash, () => code)
  assert.deepEqual(real, code)
  assert.equal(sharedCode(hash, () => assert.fail('cached by now')), real)
})
