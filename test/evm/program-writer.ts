/**
 * The state of one program being generated (test/evm/program-generator.ts holds the snippets): its assembler,
 * the context it is written for (fork, accounts it may name, storage slots, calm or wild), and the value
 * choosers every snippet shares: edge-case words, memory offsets and sizes (rarely huge), addresses, call gas
 * and value, the sink that puts a result where the comparison sees it (returned memory, storage), and the
 * call sequence. Deterministic in the context's Rng.
 */

import { Assembler } from './assembler.ts'
import { definedOn, opcode } from './opcode-table.ts'
import { PRECOMPILE_ADDRESSES } from './precompile-inputs.ts'
import { FORK_NAMES, type ForkName } from '../../src/evm/fork.ts'
import type { Rng } from '../support/rng.ts'

export interface ProgramContext {
  readonly rng: Rng
  readonly fork: ForkName
  /** Accounts with generated code (call targets). */
  readonly contracts: readonly bigint[]
  /** Other addresses worth naming: EOAs, an empty account, absent accounts, the coinbase. */
  readonly others: readonly bigint[]
  /** Storage slots worth touching; `originals` holds the pre-state value of those that are set. */
  readonly slots: readonly bigint[]
  readonly originals: ReadonlyMap<bigint, bigint>
  /** How many more levels of CREATE inside initcode may be generated. */
  readonly createDepth: number
  /**
   * A calm program halts less by its own doing (no deliberate oddities or self-destructs in its body, never all
   * its gas to a callee, mostly a normal ending), so that more transactions reach their end and their state
   * changes are compared. Its callees are as wild as ever.
   */
  readonly calm?: boolean
}

export const TWO_256 = 1n << 256n

/** Words that sit on the edges of the arithmetic. */
export const EDGE_WORDS: readonly bigint[] = [
  0n, 1n, 2n, 3n, 7n, 8n, 31n, 32n, 33n, 63n, 64n, 127n, 128n, 255n, 256n, 257n,
  1n << 64n, (1n << 64n) - 1n, 1n << 128n, 1n << 160n, (1n << 160n) - 1n,
  1n << 254n, (1n << 255n) - 1n, 1n << 255n, (1n << 255n) + 1n, TWO_256 - 2n, TWO_256 - 1n,
]

/** Memory layout: results at 0x000-0x3ff (returned or logged at the end), scratch (inputs, initcode) from 0x400. */
export const RESULTS_END = 0x400
export const SCRATCH = 0x400n

export type Snippet = (w: ProgramWriter) => void

export class ProgramWriter {
  readonly asm: Assembler
  readonly rng: Rng
  private resultCursor = 0
  private resultSlot = 0
  /** Stack words below this height belong to an enclosing construct (a loop counter): snippets leave them be. */
  floor = 0

  constructor(readonly ctx: ProgramContext) {
    this.asm = new Assembler(ctx.fork)
    this.rng = ctx.rng
  }

  /** Whether the opcode exists on this fork. */
  has(name: string): boolean {
    return definedOn(opcode(name), this.ctx.fork)
  }

  /** Whether to use an opcode: always when the fork has it, rarely otherwise (an undefined-opcode halt). */
  allow(name: string): boolean {
    return this.has(name) || this.rng.chance(0.02)
  }

  // ---- values ----

  word(): bigint {
    const r = this.rng.int(100)
    if (r < 45) return this.rng.pick(EDGE_WORDS)
    if (r < 75) return BigInt(this.rng.int(70))
    if (r < 88) return bytesWord(this.rng.bytes(this.rng.range(1, 32)))
    if (r < 94) return TWO_256 - BigInt(this.rng.range(1, 300))
    return bytesWord(this.rng.bytes(32))
  }

  memOffset(): bigint {
    const r = this.rng.int(1000)
    if (r < 880) return BigInt(this.rng.int(0x440))
    if (r < 995) return BigInt(this.rng.range(0x440, 0x4000))
    return this.rng.pick([1n << 32n, 1n << 64n, TWO_256 - 1n, 0xffffffffn])
  }

  memSize(): bigint {
    const r = this.rng.int(1000)
    if (r < 200) return 0n
    if (r < 880) return BigInt(this.rng.range(1, 96))
    if (r < 995) return BigInt(this.rng.range(97, 0x2000))
    return this.rng.pick([1n << 32n, 1n << 64n, TWO_256 - 1n])
  }

  /** An address to name: mostly a generated contract, else another account or a precompile. */
  targetAddress(): bigint {
    const r = this.rng.int(100)
    if (r < 55 && this.ctx.contracts.length > 0) return this.rng.pick(this.ctx.contracts)
    if (r < 80 && this.ctx.others.length > 0) return this.rng.pick(this.ctx.others)
    if (r < 90) return this.rng.pick(PRECOMPILE_ADDRESSES)
    if (r < 95) return BigInt(this.rng.range(0, 0x120))
    return bytesWord(this.rng.bytes(20))
  }

  /** Push an address: a literal (sometimes with junk above bit 160), or ADDRESS/CALLER/ORIGIN/COINBASE. */
  pushAddress(): void {
    const r = this.rng.int(100)
    if (r < 6) this.asm.op('ADDRESS')
    else if (r < 9) this.asm.op('CALLER')
    else if (r < 11) this.asm.op('ORIGIN')
    else if (r < 13) this.asm.op('COINBASE')
    else if (r < 16) this.asm.push((bytesWord(this.rng.bytes(12)) << 160n) | this.targetAddress())
    else this.asm.push(this.targetAddress())
  }

  /** Leave `count` operands on the stack: some left by earlier snippets, the rest pushed now. */
  operands(count: number, make: () => bigint = () => this.word()): void {
    let reuse = 0
    if (this.rng.chance(0.35)) reuse = Math.max(0, Math.min(count, this.asm.height - this.floor, this.rng.range(1, count)))
    for (let i = reuse; i < count; i++) this.asm.push(make())
  }

  /** Push the given values so that the first ends on top (the order opcodes list their arguments in). */
  args(...values: bigint[]): void {
    for (let i = values.length - 1; i >= 0; i--) this.asm.push(values[i]!)
  }

  /** Consume the top of the stack somewhere observable (memory returned at the end, storage) or drop it. */
  sink(): void {
    if (this.asm.height === 0) return
    const r = this.rng.int(100)
    if (this.asm.height <= this.floor) return
    if (r < 45) {
      this.asm.push(BigInt(this.resultCursor)).op('MSTORE')
      this.resultCursor = (this.resultCursor + 32) % RESULTS_END
    } else if (r < 53) {
      this.asm.push(0x100n + BigInt(this.resultSlot++ % 6)).op('SSTORE')
    } else if (r < 85 || this.asm.height > 10) {
      this.asm.op('POP')
    }
  }

  /** The gas argument of a call, pushed last (it is the top argument). */
  pushCallGas(): void {
    const r = this.rng.int(100)
    const early = !forkAtLeast(this.ctx.fork, 'tangerineWhistle')
    if (r < (early ? 3 : 10)) {
      if (this.ctx.calm === true) this.asm.push(2n).op('GAS').op('DIV')
      else this.asm.op('GAS')
    }
    else if (r < 20) this.asm.push(BigInt(this.rng.range(2, 8))).op('GAS').op('DIV')
    else if (r < 75) this.asm.push(BigInt(this.rng.range(0, 150_000)))
    else if (r < 92) this.asm.push(BigInt(this.rng.range(0, 5000)))
    else this.asm.push(this.rng.pick([TWO_256 - 1n, 1n << 64n, 1n << 63n, 0xffffffffn]))
  }

  pushCallValue(): void {
    const r = this.rng.int(100)
    if (r < 60) this.asm.push(0n)
    else if (r < 75) this.asm.push(1n)
    else if (r < 85) this.asm.push(BigInt(this.rng.range(2, 1_000_000)))
    else if (r < 92) this.asm.op('CALLVALUE')
    else if (r < 96 && this.has('SELFBALANCE')) this.asm.op('SELFBALANCE')
    else this.asm.push(1n << 255n)
  }

  /** A call of a random kind to `target` (pushed by pushTarget), arguments in memory at [inOff, inOff+inSize). */
  call(pushTarget: () => void, inOff: bigint, inSize: bigint): void {
    const kinds = ['CALL', 'CALL', 'CALL', 'CALLCODE', 'DELEGATECALL', 'STATICCALL', 'STATICCALL']
    let kind = this.rng.pick(kinds)
    if (!this.allow(kind)) kind = 'CALL'
    const outSize = this.rng.chance(0.8) ? BigInt(this.rng.pick([0, 32, 64, 96, this.rng.range(1, 100)])) : this.memSize()
    const outOff = this.rng.chance(0.85) ? BigInt(this.rng.int(RESULTS_END / 32) * 32) : this.memOffset()
    this.asm.push(outSize).push(outOff).push(inSize).push(inOff)
    if (kind === 'CALL' || kind === 'CALLCODE') this.pushCallValue()
    pushTarget()
    this.pushCallGas()
    this.asm.op(kind)
    this.sink()
    if (this.rng.chance(0.3) && this.has('RETURNDATASIZE')) {
      this.asm.op('RETURNDATASIZE')
      this.sink()
    }
  }

  pick(snippets: readonly (readonly [number, Snippet])[]): Snippet {
    let total = 0
    for (const [weight] of snippets) total += weight
    let r = this.rng.int(total)
    for (const [weight, snippet] of snippets) {
      if (r < weight) return snippet
      r -= weight
    }
    return snippets[0]![1]
  }

  get resultsUsed(): number {
    return this.resultCursor
  }
}

export function forkAtLeast(fork: ForkName, since: string): boolean {
  return FORK_NAMES.indexOf(fork) >= FORK_NAMES.indexOf(since as ForkName)
}

export function bytesWord(bytes: Uint8Array): bigint {
  let v = 0n
  for (const b of bytes) v = (v << 8n) | BigInt(b)
  return v
}
