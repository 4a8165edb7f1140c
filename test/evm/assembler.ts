/**
 * A small EVM assembler for generated programs: appends opcodes and pushes, keeps an estimate of the stack
 * height (exact along straight-line code; the generator re-syncs it at join points), and patches forward
 * labels (PUSH2 placeholders). Knows the fork only to choose PUSH0 for zero where it exists.
 */

import { definedOn, opcode } from './opcode-table.ts'
import type { ForkName } from '../../src/evm/fork.ts'

export class Assembler {
  readonly bytes: number[] = []
  /** The stack height the code leaves when run straight through (never below 0 in the estimate). */
  height = 0
  private readonly hasPush0: boolean

  constructor(readonly fork: ForkName) {
    this.hasPush0 = definedOn(opcode('PUSH0'), fork)
  }

  get length(): number {
    return this.bytes.length
  }

  op(name: string): this {
    const info = opcode(name)
    this.bytes.push(info.code)
    this.height = Math.max(0, this.height - info.pops) + info.pushes
    return this
  }

  /** Append a raw byte (an undefined opcode, say) with a chosen stack effect. */
  byte(value: number, pops = 0, pushes = 0): this {
    this.bytes.push(value & 0xff)
    this.height = Math.max(0, this.height - pops) + pushes
    return this
  }

  /** Push a word with the shortest PUSH (PUSH0 for zero where defined), or a wider one when `width` says so. */
  push(value: bigint, width?: number): this {
    const v = BigInt.asUintN(256, value)
    if (v === 0n && width === undefined && this.hasPush0) return this.op('PUSH0')
    let n = 1
    while (n < 32 && v >> BigInt(8 * n) !== 0n) n++
    if (width !== undefined) n = Math.max(n, Math.min(32, width))
    this.bytes.push(0x5f + n)
    for (let i = n - 1; i >= 0; i--) this.bytes.push(Number((v >> BigInt(8 * i)) & 0xffn))
    this.height += 1
    return this
  }

  /** PUSH2 of a label not yet placed; returns where to patch. */
  pushLabel(): number {
    this.bytes.push(0x61, 0, 0)
    this.height += 1
    return this.bytes.length - 2
  }

  /** Place a JUMPDEST here and point the given label pushes at it. */
  placeLabel(...patches: number[]): number {
    const at = this.bytes.length
    this.bytes.push(0x5b)
    for (const p of patches) {
      this.bytes[p] = (at >> 8) & 0xff
      this.bytes[p + 1] = at & 0xff
    }
    return at
  }

  /** Write bytes to memory at `offset` with PUSH32/MSTORE pairs (the last word zero-padded). */
  storeBytes(offset: bigint, data: Uint8Array): this {
    for (let i = 0; i < data.length; i += 32) {
      let w = 0n
      for (let j = 0; j < 32; j++) w = (w << 8n) | BigInt(data[i + j] ?? 0)
      this.push(w).push(offset + BigInt(i)).op('MSTORE')
    }
    return this
  }

  code(): Uint8Array {
    return Uint8Array.from(this.bytes)
  }
}
