/**
 * A frame's memory: one growable byte buffer, its active size (a multiple of 32, the high-water mark that gas
 * was paid for), and the expansion price (3·words + words²/512 on the new high-water mark).
 *
 * Invariants: bytes at and past `size` are zero; `buffer.length` ≥ `size`. Buffers are pooled across frames
 * (as many as the call depth limit needs) and allocated at a frame's first expansion, not before:
 * `releaseMemory` zeroes what was used before putting a buffer back, so a taken memory is all zero.
 * Offsets and sizes come off the stack as words (words.ts): `memoryEnd` turns (offset, size) into a number
 * only when it is below MAX_MEMORY_END (beyond it no gas can pay the expansion), and reports -1 otherwise.
 *
 * `words` remembers 32-byte-aligned words as stack words, as an aligned MSTORE wrote them or an aligned MLOAD read
 * them, so reading a word back costs no conversion (a full 256-bit word from bytes is ~0.3 µs, a sixth of a
 * random contract's CPU here). Invariant: a remembered word equals the bytes under it. MSTORE writes both;
 * every other write to the bytes (MSTORE8, the copies, a call's output, MCOPY) forgets the words it touches
 * (`forgetWords`); a released memory forgets all.
 */

import { smallWordToNumber, type Word } from './words.ts'

/** The largest memory end a frame may ask for before it is out of gas whatever its gas (as geth's bound). */
export const MAX_MEMORY_END = 0x1fffffffe0
const MAX_MEMORY_END_BIG = BigInt(MAX_MEMORY_END)

const NO_BYTES = new Uint8Array(0)
const NO_VIEW = new DataView(NO_BYTES.buffer)
const INITIAL_CAPACITY = 4096

export class Memory {
  buffer: Uint8Array
  view: DataView
  /** Active size in bytes (a multiple of 32). */
  size = 0
  /** Aligned words by offset / 32; undefined: not remembered (see the top comment). */
  words: (Word | undefined)[] = []

  /** A memory with no buffer yet: most frames never touch memory, so the buffer comes at the first grow. */
  constructor() {
    this.buffer = NO_BYTES
    this.view = NO_VIEW
  }

  /** Makes the active size `newSize` (a multiple of 32 above the current one); gas is the caller's. */
  grow(newSize: number): void {
    if (newSize > this.buffer.length) {
      let capacity = Math.max(this.buffer.length * 2, INITIAL_CAPACITY)
      while (capacity < newSize) capacity *= 2
      const next = new Uint8Array(capacity)
      next.set(this.buffer.subarray(0, this.size))
      this.buffer = next
      this.view = new DataView(next.buffer)
    }
    this.size = newSize
  }
}

/** Gas of a memory of `words` words. */
export function memoryCost(words: number): number {
  // words² is exact as a number below 2^53; above, the quadratic term in bigint (a cost beyond 2^53 is rounded)
  if (words <= EXACT_SQUARE_WORDS) return 3 * words + Math.floor((words * words) / 512)
  const big = BigInt(words)
  return Number(3n * big + (big * big) / 512n)
}
const EXACT_SQUARE_WORDS = 94906265

/**
 * The end (offset + size) of a memory range as a number, 0 for an empty range (no expansion whatever the
 * offset), or -1 when it lies beyond MAX_MEMORY_END (out of gas).
 */
export function memoryEnd(offset: Word, size: Word): number {
  if (size === 0) return 0
  // two numbers: each at most 2^31 - 1, so their sum is below MAX_MEMORY_END
  if (typeof offset === 'number' && typeof size === 'number') return offset + size
  if (offset > MAX_MEMORY_END_BIG || size > MAX_MEMORY_END_BIG) return -1
  const end = smallWordToNumber(offset) + smallWordToNumber(size)
  return end > MAX_MEMORY_END ? -1 : end
}

/** Gas to expand memory of active size `size` to cover `end` bytes (0 when it already does). */
export function expansionCost(size: number, end: number): number {
  if (end <= size) return 0
  return memoryCost(Math.ceil(end / 32)) - memoryCost(size / 32)
}

const pool: Memory[] = []
/** Enough for every frame of a call chain at the depth limit. */
const POOL_LIMIT = 1100

export function takeMemory(): Memory {
  return pool.pop() ?? new Memory()
}

export function releaseMemory(memory: Memory): void {
  if (memory.buffer.length > 1 << 22) return // do not keep huge buffers
  memory.buffer.fill(0, 0, memory.size)
  memory.size = 0
  if (memory.words.length > 0) memory.words = []
  if (pool.length < POOL_LIMIT) pool.push(memory)
}

/** Forgets the remembered words that bytes [start, end) overlap (their bytes are about to change). */
export function forgetWords(memory: Memory, start: number, end: number): void {
  const words = memory.words
  if (words.length === 0 || end <= start) return
  const last = Math.min(words.length, Math.floor((end - 1) / 32) + 1)
  for (let i = Math.floor(start / 32); i < last; i++) words[i] = undefined
}

/** Copies `length` bytes of `source` from `sourceOffset` into memory at `memoryOffset`, zero past source's end. */
export function copyIntoMemory(memory: Memory, memoryOffset: number, source: Uint8Array, sourceOffset: Word, length: number): void {
  if (length === 0) return
  forgetWords(memory, memoryOffset, memoryOffset + length)
  const buffer = memory.buffer
  const sourceLength = source.length
  let available = 0
  if (sourceOffset < sourceLength) {
    const from = smallWordToNumber(sourceOffset)
    available = Math.min(length, sourceLength - from)
    buffer.set(source.subarray(from, from + available), memoryOffset)
  }
  if (available < length) buffer.fill(0, memoryOffset + available, memoryOffset + length)
}
