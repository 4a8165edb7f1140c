import { test } from 'node:test'
import assert from 'node:assert/strict'
import { analyse, decodePush } from './code-analysis.ts'

test('JUMPDEST bytes inside PUSH data are not destinations', () => {
  // PUSH2 0x5b5b JUMPDEST PUSH1 0x5b JUMPDEST
  const code = Uint8Array.of(0x61, 0x5b, 0x5b, 0x5b, 0x60, 0x5b, 0x5b)
  const a = analyse(code)
  assert.deepEqual([...a.jumpdests], [0, 0, 0, 1, 0, 0, 1])
  assert.equal(analyse(code), a) // cached per code array
})

test('PUSH values decode big-endian, zero-padded on the right past the end of code', () => {
  const code = Uint8Array.of(0x61, 0x12, 0x34, 0x62, 0xab)
  const a = analyse(code)
  assert.equal(decodePush(a, 0, 2), 0x1234n)
  assert.equal(decodePush(a, 3, 3), 0xab0000n)
  assert.equal(a.pushValues[3], 0xab0000n)
  const push32 = Uint8Array.of(0x7f, ...new Array(32).fill(0xff))
  assert.equal(decodePush(analyse(push32), 0, 32), (1n << 256n) - 1n)
  // the padded copy reads STOP past the end
  assert.equal(a.padded[code.length + 32], 0)
})
