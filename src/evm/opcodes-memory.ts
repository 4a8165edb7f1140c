/**
 * The opcodes that move byte ranges: KECCAK256, CALLDATACOPY, CODECOPY, EXTCODECOPY, RETURNDATACOPY and MCOPY.
 * Each pays 3 per copied word (KECCAK256: 6 per hashed word) plus memory expansion; a copy reads zeros past
 * its source's end, except RETURNDATACOPY, which halts ('return data out of bounds') when the range leaves
 * the return data buffer. EXTCODECOPY's account access is priced warm/cold from Berlin.
 */

import { type Frame, chargeWithMemory, GAS_OVERFLOW, OUT_OF_GAS, wordCount } from './frame-state.ts'
import { copyIntoMemory, forgetWords, memoryEnd } from './memory.ts'
import { DIGEST_OFFSET, digestView, keccak256View } from '../primitives/keccak.ts'
import { addressOf, big, readWord, smallWordToNumber, type Word } from './words.ts'

export function keccakOp(f: Frame): string | undefined {
  const s = f.stack
  const sp = f.sp
  const offset = s[sp - 1]!
  const size = s[sp - 2]!
  const end = memoryEnd(offset, size)
  if (end < 0) return GAS_OVERFLOW
  const length = end === 0 ? 0 : smallWordToNumber(size)
  if (!chargeWithMemory(f, end, 6 * wordCount(length))) return OUT_OF_GAS
  const start = length === 0 ? 0 : smallWordToNumber(offset)
  keccak256View(f.memory.view, start, length)
  s[sp - 2] = readWord(digestView, DIGEST_OFFSET)
  f.sp = sp - 1
  return undefined
}

/** CALLDATACOPY and CODECOPY: (memoryOffset, sourceOffset, size) from `source`. */
export function copyOp(f: Frame, source: Uint8Array): string | undefined {
  const s = f.stack
  const sp = f.sp
  const memoryOffset = s[sp - 1]!
  const sourceOffset = s[sp - 2]!
  const size = s[sp - 3]!
  f.sp = sp - 3
  return copyRange(f, source, memoryOffset, sourceOffset, size, 0)
}

function copyRange(f: Frame, source: Uint8Array, memoryOffset: Word, sourceOffset: Word, size: Word, extra: number): string | undefined {
  const end = memoryEnd(memoryOffset, size)
  if (end < 0) return GAS_OVERFLOW
  const length = end === 0 ? 0 : smallWordToNumber(size)
  if (!chargeWithMemory(f, end, extra + 3 * wordCount(length))) return OUT_OF_GAS
  if (length > 0) copyIntoMemory(f.memory, smallWordToNumber(memoryOffset), source, sourceOffset, length)
  return undefined
}

export function extCodeCopyOp(f: Frame): string | undefined {
  const s = f.stack
  const sp = f.sp
  const address = addressOf(s[sp - 1]!)
  const memoryOffset = s[sp - 2]!
  const codeOffset = s[sp - 3]!
  const size = s[sp - 4]!
  f.sp = sp - 4
  const host = f.host
  const extra = f.rules.berlin && host.accessAccount(address) ? f.forkGas.coldAccountExtra : 0
  // price before reading the code: an unaffordable copy of a cold account must not load it
  const end = memoryEnd(memoryOffset, size)
  if (end < 0) return GAS_OVERFLOW
  const length = end === 0 ? 0 : smallWordToNumber(size)
  if (!chargeWithMemory(f, end, extra + 3 * wordCount(length))) return OUT_OF_GAS
  if (length > 0) copyIntoMemory(f.memory, smallWordToNumber(memoryOffset), host.code(address), codeOffset, length)
  return undefined
}

export function returnDataCopyOp(f: Frame): string | undefined {
  const s = f.stack
  const sp = f.sp
  const memoryOffset = s[sp - 1]!
  const dataOffset = s[sp - 2]!
  const size = s[sp - 3]!
  f.sp = sp - 3
  const data = f.returnData
  const outOfBounds =
    typeof dataOffset === 'number' && typeof size === 'number' ? dataOffset + size > data.length : big(dataOffset) + big(size) > BigInt(data.length)
  if (outOfBounds) return 'return data out of bounds'
  return copyRange(f, data, memoryOffset, dataOffset, size, 0)
}

export function mcopyOp(f: Frame): string | undefined {
  const s = f.stack
  const sp = f.sp
  const destination = s[sp - 1]!
  const source = s[sp - 2]!
  const size = s[sp - 3]!
  f.sp = sp - 3
  if (size === 0) return undefined
  const destinationEnd = memoryEnd(destination, size)
  const sourceEnd = memoryEnd(source, size)
  if (destinationEnd < 0 || sourceEnd < 0) return GAS_OVERFLOW
  const length = smallWordToNumber(size)
  if (!chargeWithMemory(f, Math.max(destinationEnd, sourceEnd), 3 * wordCount(length))) return OUT_OF_GAS
  const buffer = f.memory.buffer
  const from = smallWordToNumber(source)
  const to = smallWordToNumber(destination)
  forgetWords(f.memory, to, to + length)
  buffer.copyWithin(to, from, from + length)
  return undefined
}
