import { test } from 'node:test'
import assert from 'node:assert/strict'
import { analyse, decodePush, PUSH_JUMP, PUSH_JUMPI } from './code-analysis.ts'

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
  // stack words (words.ts): numbers up to 2^31 - 1
  assert.equal(decodePush(a, 0, 2), 0x1234)
  assert.equal(decodePush(a, 3, 3), 0xab0000)
  assert.equal(a.pushValues[3], 0xab0000)
  const push32 = Uint8Array.of(0x7f, ...new Array(32).fill(0xff))
  assert.equal(decodePush(analyse(push32), 0, 32), (1n << 256n) - 1n)
  // the padded copy reads STOP past the end
  assert.equal(a.padded[code.length + 32], 0)
})

test('a PUSH of a valid destination right before a JUMP or JUMPI dispatches as one fused opcode', () => {
  // 0 PUSH1 6, 2 JUMP, 3 PUSH1 6, 5 JUMPI, 6 JUMPDEST, 7 PUSH1 7 (not a JUMPDEST), 9 JUMP, 10 PUSH2 0x0006, 13 JUMP,
  // 14 PUSH1 0x56 (a JUMP byte as data), 16 STOP, 17 PUSH1 6 at the end: its JUMP would be past the code
  const code = Uint8Array.of(0x60, 6, 0x56, 0x60, 6, 0x57, 0x5b, 0x60, 7, 0x56, 0x61, 0, 6, 0x56, 0x60, 0x56, 0x00, 0x60, 6)
  const a = analyse(code)
  assert.equal(a.dispatch[0], PUSH_JUMP)
  assert.equal(a.fusedTargets[0], 6)
  assert.equal(a.dispatch[3], PUSH_JUMPI)
  assert.equal(a.dispatch[7], 0x60, 'a destination that is no JUMPDEST is left to the JUMP to reject')
  assert.equal(a.dispatch[10], PUSH_JUMP, 'any PUSH size')
  assert.equal(a.fusedTargets[10], 6)
  assert.equal(a.dispatch[14], 0x60)
  assert.equal(a.dispatch[17], 0x60)
  // every other position reads as the code
  for (const pc of [1, 2, 4, 5, 6, 8, 9, 11, 12, 13, 15, 16, 18]) assert.equal(a.dispatch[pc], code[pc], `pc ${pc}`)
})
