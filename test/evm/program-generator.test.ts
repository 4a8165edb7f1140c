/**
 * The random-program generator makes what the differential test relies on: over 1,000 scenarios every opcode
 * family, every call and create kind, every precompile address, every fork and transaction type, creations,
 * invalid transactions and every kind of ending appear; the assembler's stack bookkeeping holds on straight
 * code; and a seed gives the same scenario every time. (Whether the programs do real work when run is checked
 * by the differential test's statistics.)
 */

import test from 'node:test'
import assert from 'node:assert/strict'
import { FORK_NAMES } from '../../src/evm/fork.ts'
import { Assembler } from './assembler.ts'
import { OPCODES, instructions, opcode, disassemble, type OpFamily } from './opcode-table.ts'
import { PRECOMPILE_ADDRESSES } from './precompile-inputs.ts'
import { generateScenario, intrinsicGas } from './scenario-generator.ts'
import { rulesFor } from '../../src/evm/fork.ts'

const SCENARIOS = 1000

interface Coverage {
  families: Map<OpFamily, number>
  opcodes: Map<number, number>
  pushed: Set<bigint>
  forks: Map<string, number>
  txTypes: Map<number, number>
  creates: number
  tooLittleGas: number
  codeBytes: number
}

function survey(seed: number): Coverage {
  const c: Coverage = { families: new Map(), opcodes: new Map(), pushed: new Set(), forks: new Map(), txTypes: new Map(), creates: 0, tooLittleGas: 0, codeBytes: 0 }
  for (let i = 0; i < SCENARIOS; i++) {
    const s = generateScenario(seed, i)
    c.forks.set(s.fork, (c.forks.get(s.fork) ?? 0) + 1)
    c.txTypes.set(s.tx.type, (c.txTypes.get(s.tx.type) ?? 0) + 1)
    const { intrinsic, floor } = intrinsicGas(rulesFor(s.fork), s.tx)
    if (s.tx.gasLimit < intrinsic || s.tx.gasLimit < floor) c.tooLittleGas++
    const codes = [...s.pre.values()].map((a) => a.code).filter((code) => code.length > 0 && code[0] !== 0xef)
    if (s.tx.to === undefined) {
      c.creates++
      codes.push(s.tx.data)
    }
    for (const code of codes) {
      c.codeBytes += code.length
      for (const { pc, byte } of instructions(code)) {
        c.opcodes.set(byte, (c.opcodes.get(byte) ?? 0) + 1)
        const info = OPCODES[byte]
        if (info !== undefined) c.families.set(info.family, (c.families.get(info.family) ?? 0) + 1)
        if (byte >= 0x60 && byte <= 0x7f) {
          let v = 0n
          for (const b of code.subarray(pc + 1, pc + 1 + byte - 0x5f)) v = (v << 8n) | BigInt(b)
          c.pushed.add(v)
        }
      }
    }
  }
  return c
}

const coverage = survey(20261127)

test('every opcode family appears, each many times', () => {
  const families: OpFamily[] = ['stop', 'arithmetic', 'comparison', 'bitwise', 'keccak', 'environment', 'block', 'stack', 'memory', 'storage',
    'transient', 'flow', 'push', 'dup', 'swap', 'log', 'call', 'create', 'return', 'revert', 'invalid', 'selfdestruct']
  for (const f of families) assert.ok((coverage.families.get(f) ?? 0) >= 50, `family ${f} appears ${coverage.families.get(f) ?? 0} times`)
})

test('every call and create kind, every arithmetic and environment opcode, and undefined opcodes appear', () => {
  const required = ['CALL', 'CALLCODE', 'DELEGATECALL', 'STATICCALL', 'CREATE', 'CREATE2', 'SELFDESTRUCT', 'REVERT', 'RETURN', 'INVALID',
    'RETURNDATACOPY', 'RETURNDATASIZE', 'EXTCODECOPY', 'EXTCODEHASH', 'EXTCODESIZE', 'BALANCE', 'SELFBALANCE', 'BLOCKHASH', 'BLOBHASH',
    'BLOBBASEFEE', 'BASEFEE', 'CHAINID', 'TLOAD', 'TSTORE', 'MCOPY', 'PUSH0', 'CLZ', 'SHL', 'SHR', 'SAR', 'EXP', 'SIGNEXTEND', 'ADDMOD',
    'MULMOD', 'SDIV', 'SMOD', 'BYTE', 'MSTORE8', 'KECCAK256', 'LOG0', 'LOG1', 'LOG2', 'LOG3', 'LOG4', 'JUMP', 'JUMPI', 'PC', 'MSIZE', 'GAS',
    'CALLDATACOPY', 'CODECOPY', 'CALLDATALOAD', 'SLOAD', 'SSTORE']
  for (const name of required) {
    const n = coverage.opcodes.get(opcode(name).code) ?? 0
    assert.ok(n >= 10, `${name} appears ${n} times`)
  }
  const undefinedSeen = [...coverage.opcodes.keys()].filter((b) => OPCODES[b] === undefined)
  assert.ok(undefinedSeen.length >= 5, `undefined opcodes seen: ${undefinedSeen.map((b) => b.toString(16)).join(' ')}`)
})

test('every precompile address is named by some program', () => {
  for (const address of PRECOMPILE_ADDRESSES) assert.ok(coverage.pushed.has(address), `precompile 0x${address.toString(16)} never pushed`)
})

test('every fork and transaction type appears; creations and too-little-gas transactions too', () => {
  for (const fork of FORK_NAMES) assert.ok((coverage.forks.get(fork) ?? 0) >= 10, `fork ${fork}: ${coverage.forks.get(fork) ?? 0}`)
  for (const type of [0, 1, 2, 3, 4]) assert.ok((coverage.txTypes.get(type) ?? 0) >= 20, `type ${type}: ${coverage.txTypes.get(type) ?? 0}`)
  assert.ok(coverage.creates >= 50, `${coverage.creates} creations`)
  assert.ok(coverage.tooLittleGas >= 5 && coverage.tooLittleGas <= 100, `${coverage.tooLittleGas} with gas under the intrinsic cost`)
  assert.ok(coverage.codeBytes / SCENARIOS > 300, `average code per scenario ${coverage.codeBytes / SCENARIOS} bytes`)
})

test('types appear only on forks that have them', () => {
  for (let i = 0; i < 300; i++) {
    const s = generateScenario(7, i)
    const r = rulesFor(s.fork)
    const allowed = s.tx.type === 0 || (s.tx.type === 1 && r.berlin) || (s.tx.type === 2 && r.london) || (s.tx.type === 3 && r.cancun) || (s.tx.type === 4 && r.prague)
    assert.ok(allowed, `type ${s.tx.type} on ${s.fork}`)
  }
})

test('a seed gives the same scenario', () => {
  const a = generateScenario(42, 17)
  const b = generateScenario(42, 17)
  assert.equal(a.fork, b.fork)
  assert.deepEqual(a.tx, b.tx)
  assert.deepEqual([...a.pre.entries()], [...b.pre.entries()])
  assert.notDeepEqual([...generateScenario(43, 17).pre.entries()], [...a.pre.entries()])
})

test('the assembler tracks the stack height and patches labels', () => {
  const asm = new Assembler('cancun')
  asm.push(0n).push(0x1234n).op('ADD')
  assert.equal(asm.height, 1)
  const patch = asm.pushLabel()
  asm.op('JUMP').op('STOP')
  const at = asm.placeLabel(patch)
  assert.equal(asm.bytes[patch]! * 256 + asm.bytes[patch + 1]!, at)
  assert.equal(disassemble(asm.code()).split('\n')[0], '    0: PUSH0')
  assert.deepEqual(new Assembler('berlin').push(0n).code(), Uint8Array.of(0x60, 0x00))
  asm.op('DUP1').op('SWAP1').op('POP')
  assert.equal(asm.height, 1)
  const mem = new Assembler('cancun').storeBytes(0x40n, Uint8Array.of(1, 2, 3))
  assert.equal(mem.height, 0)
  assert.deepEqual(mem.code().subarray(0, 2), Uint8Array.of(0x7f, 0x01)) // PUSH32 0x0102030000...
})
