/**
 * The EVM benchmark's programs: small hand-assembled contracts that each stress one cost of an EVM (dispatch,
 * arithmetic, call frames, storage writes, hashing, memory growth), run through eth_call with their code as a
 * state override. Each reads its iteration count from the first calldata word and ignores the rest, so a
 * request can carry a distinct second word (no input-keyed cache answers it) while doing the same work; each
 * returns a word the benchmark recomputes in JavaScript from the count, to check a peer's answer.
 */

import { keccak256 } from '../src/primitives/keccak.ts'

const OP: Record<string, number> = {
  STOP: 0x00, ADD: 0x01, MUL: 0x02, SUB: 0x03, SHL: 0x1b, KECCAK256: 0x20, ADDRESS: 0x30, CALLDATALOAD: 0x35,
  POP: 0x50, MSTORE: 0x52, SLOAD: 0x54, SSTORE: 0x55, JUMPI: 0x57, MSIZE: 0x59, GAS: 0x5a, JUMPDEST: 0x5b,
  PUSH0: 0x5f, PUSH1: 0x60, PUSH3: 0x62, DUP1: 0x80, DUP2: 0x81, SWAP1: 0x90, CALL: 0xf1, RETURN: 0xf3,
}

/** Assembles names and immediates: ['PUSH1', 5] → 60 05; an immediate takes the width its PUSHn names. */
export function assemble(...parts: (string | number)[]): string {
  const bytes: number[] = []
  let width = 0
  for (const p of parts) {
    if (typeof p === 'number') {
      for (let i = width - 1; i >= 0; i--) bytes.push((p >>> (8 * i)) & 0xff)
      width = 0
      continue
    }
    const op = OP[p]
    if (op === undefined) throw new Error(`unknown opcode ${p}`)
    bytes.push(op)
    width = p.startsWith('PUSH') && p !== 'PUSH0' ? Number(p.slice(4)) : 0
  }
  return `0x${Buffer.from(bytes).toString('hex')}`
}

/** n - 1 on top of the stack, back to `loop` while it is not zero (25 gas). */
const countDown = (loop: number): (string | number)[] => ['PUSH1', 1, 'SWAP1', 'SUB', 'DUP1', 'PUSH1', loop, 'JUMPI']
const returnTop: (string | number)[] = ['PUSH0', 'MSTORE', 'PUSH1', 32, 'PUSH0', 'RETURN']
const MOD = 1n << 256n
const word = (v: bigint): string => `0x${v.toString(16).padStart(64, '0')}`

export interface EvmProgram {
  readonly name: string
  readonly code: string
  /** Iterations per call (the first calldata word). */
  readonly count: number
  /** Gas one call uses, roughly (for the row's name and Mgas/s). */
  readonly approxGas: number
  /** The word the call returns, or '0x' for a program that returns nothing. */
  expected(count: number): string
}

export const PROGRAMS: readonly EvmProgram[] = [
  {
    name: 'counter loop (JUMPDEST PUSH1 SWAP1 SUB DUP1 PUSH1 JUMPI)',
    code: assemble('PUSH0', 'CALLDATALOAD', 'JUMPDEST', ...countDown(2), ...returnTop),
    count: 100_000,
    approxGas: 2_600_000,
    expected: () => word(0n),
  },
  {
    name: 'arithmetic loop (acc·3 + 7)',
    code: assemble(
      'PUSH1', 1, 'PUSH0', 'CALLDATALOAD', // [acc n]
      'JUMPDEST', // pc 4: [acc n]
      'SWAP1', 'PUSH1', 3, 'MUL', 'PUSH1', 7, 'ADD', 'SWAP1', // acc·3+7
      ...countDown(4), 'POP', ...returnTop,
    ),
    count: 55_000,
    approxGas: 2_500_000,
    expected: (n) => {
      let acc = 1n
      for (let i = 0; i < n; i++) acc = (acc * 3n + 7n) % MOD
      return word(acc)
    },
  },
  {
    name: 'a contract calling itself with all its gas (nested frames)',
    code: assemble('PUSH0', 'PUSH0', 'PUSH0', 'PUSH0', 'PUSH0', 'ADDRESS', 'GAS', 'CALL', 'STOP'),
    count: 0,
    approxGas: 3_000_000,
    expected: () => '0x',
  },
  {
    name: 'SSTORE counter loop (slot 0 += 1)',
    code: assemble(
      'PUSH0', 'CALLDATALOAD',
      'JUMPDEST', // pc 2
      'PUSH0', 'SLOAD', 'PUSH1', 1, 'ADD', 'PUSH0', 'SSTORE',
      ...countDown(2), 'POP', 'PUSH0', 'SLOAD', ...returnTop,
    ),
    count: 10_000,
    approxGas: 2_400_000,
    expected: (n) => word(BigInt(n)),
  },
  {
    name: 'KECCAK256 of 64 bytes in a loop (a hash chain)',
    code: assemble(
      'PUSH0', 'CALLDATALOAD',
      'JUMPDEST', // pc 2
      'PUSH1', 64, 'PUSH0', 'KECCAK256', 'PUSH0', 'MSTORE',
      ...countDown(2), 'POP', 'PUSH1', 32, 'PUSH0', 'RETURN',
    ),
    count: 30_000,
    approxGas: 2_350_000,
    expected: (n) => {
      const mem = new Uint8Array(64)
      for (let i = 0; i < n; i++) mem.set(keccak256(mem), 0)
      return `0x${Buffer.from(mem.subarray(0, 32)).toString('hex')}`
    },
  },
  {
    name: 'MSTORE walk (memory grows to 800 KB)',
    code: assemble(
      'PUSH0', 'CALLDATALOAD',
      'JUMPDEST', // pc 2: [n]
      'DUP1', 'PUSH3', 25_000, 'SUB', 'PUSH1', 5, 'SHL', 'DUP1', 'MSTORE', // mem[(N-n)·32] = (N-n)·32
      ...countDown(2), 'POP', 'MSIZE', ...returnTop,
    ),
    count: 25_000,
    approxGas: 2_500_000,
    expected: (n) => word(BigInt(n) * 32n),
  },
]

/** Calldata of a call: the count, then a word that makes the request distinct. */
export function programInput(count: number, distinct: number): string {
  return `${word(BigInt(count))}${word(BigInt(distinct)).slice(2)}`
}
