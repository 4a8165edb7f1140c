/**
 * A web of random contracts calling each other, for the EVM benchmark's eth_simulateV1 row (issue 20's "random
 * programs calling each other"). Deterministic in its seed: the same seed gives the same codes and storage.
 *
 * Every contract is generated from the same skeleton with its own random parts. A frame reads four calldata
 * words: a state word x, a frame budget b, a depth d and flags (bit 0: a static context, so no SSTORE or LOG;
 * bit 1: this frame may revert). It then
 *   1. runs 2-3 random work snippets, each only when x's bits pick it (one time in 2 or 3), on x (invertible
 *      mixing, so x keeps its entropy) and on an accumulator: arithmetic, a data-dependent loop, memory writes
 *      and reads, KECCAK256, SLOAD; and, outside a static context and when x says so, SSTORE and LOG2;
 *   2. when b ≥ 2 and d > 0, calls k = 1 + (x >> s) mod F children one after the other (F is the contract's),
 *      each with x' = keccak(i, x), budget ⌊(b − 1)/k⌋, depth d − 1, and all its gas; x' picks the child
 *      (any contract of the web, itself included) and the call kind (CALL, STATICCALL or DELEGATECALL, in the
 *      contract's own proportions); the caller adds the child's frame count to its own and mixes its returned
 *      word and success flag into the accumulator, whether the child returned or reverted;
 *   3. may run one more snippet, then returns [frames in its subtree, accumulator], or, when it may revert and
 *      x says so (about one frame in R, R the contract's), reverts with the same two words, undoing its and its
 *      children's writes and logs (its caller goes on).
 * The budget bounds the frames of a call (at most b, close to b since each level spends it almost all), the
 * depth bounds the nesting, so every call ends well within its gas, and the path (fan-out, targets, kinds,
 * reverts, slots, loop lengths) follows the calldata. The frame count the top call returns is the contracts'
 * own count of the frames that ran (an exceptional halt would lose its subtree from it).
 *
 * Memory: 0x00-0x7f the outgoing calldata, 0x80 the child index, 0xa0-0x11f the frame's own calldata, 0x120-0x15f
 * the child's returned words, 0x160-0x1bf the count, accumulator and fan-out, then eight scratch words. Code is assembled with the differential test's assembler (test/evm/assembler.ts).
 */

import { Assembler } from '../test/evm/assembler.ts'
import { Rng } from '../test/support/rng.ts'
import { keccak256 } from '../src/primitives/keccak.ts'

/** First contract's address; contract i lives at WEB_BASE + i. */
export const WEB_BASE = 0xc0b0_0000n
const OUT = 0x00n
const I = 0x80n
const X = 0xa0n // right after I: keccak(I, 64 bytes) is keccak(i, x)
const B = 0xc0n
const D = 0xe0n
const F = 0x100n // X, B, D, F: the calldata, copied in one go
const RET = 0x120n
const COUNT = 0x160n
const ACC = 0x180n
const K = 0x1a0n
const SCRATCH = 0x1c0n
const SCRATCH_WORDS = 8

export interface WebContract {
  readonly address: bigint
  readonly code: Uint8Array
  /** Pre-set storage (slot → value), installed by the state override with the code. */
  readonly storage: ReadonlyMap<bigint, bigint>
}

export interface WebOptions {
  readonly seed: number
  readonly contracts: number
}

export interface WebCall {
  /** The state word: the call's seed. */
  readonly x: bigint
  /** At most this many frames. */
  readonly budget: number
  /** At most this deep below the call's own frame. */
  readonly depth: number
}

const word = (v: bigint): string => v.toString(16).padStart(64, '0')

/** A call's calldata: x, budget, depth, flags 0 (a top call neither is static nor may revert). */
export function webCalldata(c: WebCall): string {
  return `0x${word(c.x)}${word(BigInt(c.budget))}${word(BigInt(c.depth))}${word(0n)}`
}

/** A state word from a request number and a call index (distinct per pair, spread over 256 bits). */
export function webSeedWord(salt: number, request: number, call: number): bigint {
  const input = new Uint8Array(12)
  const view = new DataView(input.buffer)
  view.setUint32(0, salt >>> 0)
  view.setUint32(4, request >>> 0)
  view.setUint32(8, call >>> 0)
  let v = 0n
  for (const b of keccak256(input)) v = (v << 8n) | BigInt(b)
  return v
}

/** The web of `contracts` contracts generated from `seed`. */
export function generateWeb(opts: WebOptions): WebContract[] {
  const rng = new Rng(opts.seed)
  return Array.from({ length: opts.contracts }, (_, i) => generateContract(rng.fork(), WEB_BASE + BigInt(i), opts.contracts))
}

type Snippet = (w: Writer) => void

class Writer {
  readonly asm = new Assembler('prague')
  constructor(
    readonly rng: Rng,
    /** Storage slots 0 … slots − 1 are in use (all pre-set). */
    readonly slots: number,
    readonly address: bigint,
  ) {}

  load(offset: bigint): this {
    this.asm.push(offset).op('MLOAD')
    return this
  }

  store(offset: bigint): this {
    this.asm.push(offset).op('MSTORE')
    return this
  }

  /** Pushes (x >> shift) mod m. */
  xBits(shift: number, m: number): this {
    this.asm.push(BigInt(m))
    this.load(X)
    this.asm.push(BigInt(shift)).op('SHR').op('MOD')
    return this
  }

  odd(): bigint {
    return (BigInt(this.rng.u32()) << 32n) | BigInt(this.rng.u32()) | 1n
  }

  /** Jumps to the returned patches' label unless the frame may write (not static) and x's bits pick 1 in m. */
  writeGate(m: number): number[] {
    const a = this.asm
    this.load(F)
    a.push(1n).op('AND')
    const notStatic = a.pushLabel()
    a.op('JUMPI')
    this.xBits(this.rng.int(200), m)
    const notPicked = a.pushLabel()
    a.op('JUMPI')
    return [notStatic, notPicked]
  }
}

/** x ← an invertible mix of x; acc ^= a lossy function of x. */
const arithmetic: Snippet = (w) => {
  const a = w.asm
  for (let n = w.rng.range(2, 4); n > 0; n--) {
    const kind = w.rng.int(4)
    w.load(X)
    if (kind === 0) a.push(w.odd()).op('MUL')
    else if (kind === 1) a.push(w.odd() << 64n).op('ADD')
    else if (kind === 2) a.push(w.odd()).op('XOR')
    else a.op('DUP1').push(BigInt(w.rng.range(7, 61))).op('SHR').op('XOR')
    w.store(X)
  }
  const lossy = w.rng.pick(['DIV', 'MOD', 'SDIV', 'SMOD', 'AND', 'OR', 'SHL', 'SAR', 'BYTE', 'SIGNEXTEND', 'EXP', 'ADDMOD', 'MULMOD', 'LT', 'SLT'])
  if (lossy === 'EXP') {
    // x to a small power (a constant to the power x would cost 50 gas a byte of x)
    a.push(BigInt(w.rng.range(2, 255)))
    w.load(X)
  } else {
    if (lossy === 'ADDMOD' || lossy === 'MULMOD') a.push(w.odd())
    w.load(X)
    // the constant on top: the op's first operand (a shift, a byte index, a dividend)
    a.push(lossy === 'SHL' || lossy === 'SAR' || lossy === 'BYTE' || lossy === 'SIGNEXTEND' ? BigInt(w.rng.range(1, 31)) : w.odd())
  }
  a.op(lossy)
  w.load(ACC)
  a.op('XOR')
  w.store(ACC)
}

/** acc = acc·c + x, (x >> s) mod L + 1 times. */
const loop: Snippet = (w) => {
  const a = w.asm
  w.xBits(w.rng.int(200), w.rng.range(2, 4))
  a.push(1n).op('ADD')
  const top = a.placeLabel()
  w.load(ACC)
  a.push(w.odd()).op('MUL')
  w.load(X)
  a.op('ADD')
  w.store(ACC)
  a.push(1n).op('SWAP1').op('SUB').op('DUP1').push(BigInt(top), 2).op('JUMPI').op('POP')
}

/** acc = acc <op> the word on top of the stack. */
function foldIntoAcc(w: Writer, op: 'ADD' | 'XOR'): void {
  w.load(ACC)
  w.asm.op(op)
  w.store(ACC)
}

/** Writes 2-4 scratch words at offsets x picks, reads one back into acc. */
const memory: Snippet = (w) => {
  const a = w.asm
  const scratchWord = (): void => {
    w.xBits(w.rng.int(240), SCRATCH_WORDS)
    a.push(5n).op('SHL').push(SCRATCH).op('ADD')
  }
  for (let n = w.rng.range(2, 4); n > 0; n--) {
    w.load(X)
    a.push(w.odd()).op('XOR')
    scratchWord()
    a.op('MSTORE')
  }
  scratchWord()
  a.op('MLOAD')
  foldIntoAcc(w, 'ADD')
}

/** acc ^= keccak of 1-8 scratch words, the first being x. */
const hash: Snippet = (w) => {
  const a = w.asm
  w.load(X)
  w.store(SCRATCH)
  a.push(BigInt(32 * w.rng.range(1, SCRATCH_WORDS))).push(SCRATCH).op('KECCAK256')
  foldIntoAcc(w, 'XOR')
}

/** acc ^= a slot x picks. */
const sload: Snippet = (w) => {
  const a = w.asm
  w.xBits(w.rng.int(240), w.slots)
  a.op('SLOAD')
  foldIntoAcc(w, 'XOR')
}

/** One time in 2-6 (as x says), outside a static context: a slot x picks = acc | 1. */
const sstore: Snippet = (w) => {
  const a = w.asm
  const skip = w.writeGate(w.rng.range(3, 8))
  w.load(ACC)
  a.push(1n).op('OR')
  w.xBits(w.rng.int(240), w.slots)
  a.op('SSTORE')
  a.placeLabel(...skip)
}

/** One time in 16-32 (as x says), outside a static context: LOG2(acc [, x], topics: the contract's tag, x). */
const log: Snippet = (w) => {
  const a = w.asm
  const skip = w.writeGate(w.rng.range(16, 32))
  w.load(ACC)
  w.store(SCRATCH)
  w.load(X)
  w.store(SCRATCH + 32n)
  w.load(X)
  a.push(w.odd() ^ (w.address << 200n))
  a.push(BigInt(32 * w.rng.range(1, 2))).push(SCRATCH).op('LOG2')
  a.placeLabel(...skip)
}

const WORK: readonly Snippet[] = [arithmetic, arithmetic, loop, memory, hash, sload, sload]

/** A random work snippet that runs only when x's bits pick it (one time in 2 or 3). */
const someWork: Snippet = (w) => {
  const a = w.asm
  w.xBits(w.rng.int(240), w.rng.range(2, 3))
  const skip = a.pushLabel()
  a.op('JUMPI')
  w.rng.pick(WORK)(w)
  a.placeLabel(skip)
}

function generateContract(rng: Rng, address: bigint, contracts: number): WebContract {
  const slots = rng.range(2, 4)
  const w = new Writer(rng, slots, address)
  const a = w.asm
  const storage = new Map<bigint, bigint>()
  for (let s = 0; s < slots; s++) storage.set(BigInt(s), w.odd())

  // prologue: the four calldata words to X, B, D, F; count = 1, acc = x
  a.push(0x80n).push(0n).push(X).op('CALLDATACOPY')
  a.push(1n)
  w.store(COUNT)
  w.load(X)
  w.store(ACC)

  const head = [...Array.from({ length: rng.range(2, 3) }, () => someWork), sstore, log]
  for (let i = head.length - 1; i > 0; i--) {
    const j = rng.int(i + 1)
    ;[head[i], head[j]] = [head[j]!, head[i]!]
  }
  for (const s of head) s(w)

  // fan-out: leave when b < 2 or d == 0
  a.push(2n)
  w.load(B)
  a.op('LT')
  w.load(D)
  a.op('ISZERO').op('OR')
  const toEnd = a.pushLabel()
  a.op('JUMPI')
  w.xBits(rng.int(240), rng.range(2, 4))
  a.push(1n).op('ADD') // [k]
  a.op('DUP1').push(1n)
  w.load(B)
  a.op('SUB').op('DIV') // [k share]
  a.op('DUP1')
  const shareOk = a.pushLabel()
  a.op('JUMPI')
  // more children than budget: k = b − 1 children of budget 1
  a.op('POP').op('POP').push(1n)
  w.load(B)
  a.op('SUB').push(1n)
  a.placeLabel(shareOk)
  w.store(OUT + 0x20n) // the children's budget
  w.store(K)
  a.push(1n)
  w.load(D)
  a.op('SUB')
  w.store(OUT + 0x40n)
  w.load(F)
  a.push(2n).op('OR')
  w.store(OUT + 0x60n)
  a.push(0n)
  w.store(I)

  const loopTop = a.placeLabel()
  // x' = keccak(i, x): the child's state word
  a.push(0x40n).push(I).op('KECCAK256') // [cx]
  a.op('DUP1')
  w.store(OUT)
  a.push(0n)
  w.store(RET)
  a.push(0n)
  w.store(RET + 0x20n)
  // kind = (cx >> 8) mod 16: CALL below c, STATICCALL below s, else DELEGATECALL
  const callBelow = rng.range(5, 9)
  const staticBelow = callBelow + rng.range(2, 5)
  a.push(16n).op('DUP2').push(8n).op('SHR').op('MOD') // [cx kind]
  a.push(BigInt(callBelow)).op('DUP2').op('LT')
  const toCall = a.pushLabel()
  a.op('JUMPI')
  a.push(BigInt(staticBelow)).op('DUP2').op('LT')
  const toStatic = a.pushLabel()
  a.op('JUMPI')
  const target = (): void => {
    a.op('POP') // kind
    a.push(BigInt(contracts)).op('DUP2').op('MOD').push(WEB_BASE).op('ADD') // [cx target]
    a.push(0x40n).push(RET).push(0x80n).push(OUT)
  }
  target()
  a.op('DUP5').op('GAS').op('DELEGATECALL')
  const afterDelegate = a.pushLabel()
  a.op('JUMP')
  a.placeLabel(toStatic)
  w.load(F)
  a.push(3n).op('OR')
  w.store(OUT + 0x60n)
  target()
  a.op('DUP5').op('GAS').op('STATICCALL')
  w.load(F)
  a.push(2n).op('OR')
  w.store(OUT + 0x60n)
  const afterStatic = a.pushLabel()
  a.op('JUMP')
  a.placeLabel(toCall)
  target()
  a.push(0n).op('DUP6').op('GAS').op('CALL')
  a.placeLabel(afterDelegate, afterStatic) // [cx target success]
  w.load(RET)
  w.load(COUNT)
  a.op('ADD')
  w.store(COUNT)
  w.load(RET + 0x20n)
  w.load(ACC)
  a.op('XOR').push(w.odd()).op('MUL').op('ADD')
  w.store(ACC)
  a.op('POP').op('POP')
  a.push(1n)
  w.load(I)
  a.op('ADD').op('DUP1')
  w.store(I)
  w.load(K)
  a.op('SWAP1').op('LT').push(BigInt(loopTop), 2).op('JUMPI')

  a.placeLabel(toEnd)
  for (let n = rng.int(2); n > 0; n--) someWork(w)
  w.load(COUNT)
  w.store(RET)
  w.load(ACC)
  w.store(RET + 0x20n)
  // revert when allowed and x says so
  w.load(F)
  a.push(2n).op('AND').op('ISZERO')
  const mayNot = a.pushLabel()
  a.op('JUMPI')
  w.xBits(rng.int(200), rng.range(6, 12))
  const notChosen = a.pushLabel()
  a.op('JUMPI')
  a.push(0x40n).push(RET).op('REVERT')
  a.placeLabel(mayNot, notChosen)
  a.push(0x40n).push(RET).op('RETURN')
  return { address, code: a.code(), storage }
}
