/**
 * The opcode table the random-program generator and the disassembler share: for every defined opcode its
 * name, how many stack words it takes and leaves, the fork it arrived in and the family it belongs to (the
 * generator's coverage test counts families). Written from the Yellow Paper and the EIPs, independent of the
 * EVMs under test, so a mistake here cannot hide a mistake there.
 */

import { FORK_NAMES, type ForkName } from '../../src/evm/fork.ts'

export type OpFamily =
  | 'stop'
  | 'arithmetic'
  | 'comparison'
  | 'bitwise'
  | 'keccak'
  | 'environment'
  | 'block'
  | 'stack'
  | 'memory'
  | 'storage'
  | 'transient'
  | 'flow'
  | 'push'
  | 'dup'
  | 'swap'
  | 'log'
  | 'call'
  | 'create'
  | 'return'
  | 'revert'
  | 'invalid'
  | 'selfdestruct'

export interface OpInfo {
  readonly code: number
  readonly name: string
  readonly pops: number
  readonly pushes: number
  readonly since: ForkName
  readonly family: OpFamily
}

const table: (OpInfo | undefined)[] = new Array(256).fill(undefined)

function def(code: number, name: string, pops: number, pushes: number, family: OpFamily, since: ForkName = 'frontier'): void {
  table[code] = { code, name, pops, pushes, since, family }
}

def(0x00, 'STOP', 0, 0, 'stop')
for (const [code, name, pops] of [
  [0x01, 'ADD', 2], [0x02, 'MUL', 2], [0x03, 'SUB', 2], [0x04, 'DIV', 2], [0x05, 'SDIV', 2], [0x06, 'MOD', 2],
  [0x07, 'SMOD', 2], [0x08, 'ADDMOD', 3], [0x09, 'MULMOD', 3], [0x0a, 'EXP', 2], [0x0b, 'SIGNEXTEND', 2],
] as const) def(code, name, pops, 1, 'arithmetic')
for (const [code, name, pops] of [[0x10, 'LT', 2], [0x11, 'GT', 2], [0x12, 'SLT', 2], [0x13, 'SGT', 2], [0x14, 'EQ', 2], [0x15, 'ISZERO', 1]] as const) {
  def(code, name, pops, 1, 'comparison')
}
for (const [code, name, pops] of [[0x16, 'AND', 2], [0x17, 'OR', 2], [0x18, 'XOR', 2], [0x19, 'NOT', 1], [0x1a, 'BYTE', 2]] as const) {
  def(code, name, pops, 1, 'bitwise')
}
def(0x1b, 'SHL', 2, 1, 'bitwise', 'constantinople')
def(0x1c, 'SHR', 2, 1, 'bitwise', 'constantinople')
def(0x1d, 'SAR', 2, 1, 'bitwise', 'constantinople')
def(0x1e, 'CLZ', 1, 1, 'bitwise', 'osaka')
def(0x20, 'KECCAK256', 2, 1, 'keccak')
def(0x30, 'ADDRESS', 0, 1, 'environment')
def(0x31, 'BALANCE', 1, 1, 'environment')
def(0x32, 'ORIGIN', 0, 1, 'environment')
def(0x33, 'CALLER', 0, 1, 'environment')
def(0x34, 'CALLVALUE', 0, 1, 'environment')
def(0x35, 'CALLDATALOAD', 1, 1, 'environment')
def(0x36, 'CALLDATASIZE', 0, 1, 'environment')
def(0x37, 'CALLDATACOPY', 3, 0, 'memory')
def(0x38, 'CODESIZE', 0, 1, 'environment')
def(0x39, 'CODECOPY', 3, 0, 'memory')
def(0x3a, 'GASPRICE', 0, 1, 'environment')
def(0x3b, 'EXTCODESIZE', 1, 1, 'environment')
def(0x3c, 'EXTCODECOPY', 4, 0, 'memory')
def(0x3d, 'RETURNDATASIZE', 0, 1, 'environment', 'byzantium')
def(0x3e, 'RETURNDATACOPY', 3, 0, 'memory', 'byzantium')
def(0x3f, 'EXTCODEHASH', 1, 1, 'environment', 'constantinople')
def(0x40, 'BLOCKHASH', 1, 1, 'block')
def(0x41, 'COINBASE', 0, 1, 'block')
def(0x42, 'TIMESTAMP', 0, 1, 'block')
def(0x43, 'NUMBER', 0, 1, 'block')
def(0x44, 'DIFFICULTY', 0, 1, 'block')
def(0x45, 'GASLIMIT', 0, 1, 'block')
def(0x46, 'CHAINID', 0, 1, 'block', 'istanbul')
def(0x47, 'SELFBALANCE', 0, 1, 'block', 'istanbul')
def(0x48, 'BASEFEE', 0, 1, 'block', 'london')
def(0x49, 'BLOBHASH', 1, 1, 'block', 'cancun')
def(0x4a, 'BLOBBASEFEE', 0, 1, 'block', 'cancun')
def(0x50, 'POP', 1, 0, 'stack')
def(0x51, 'MLOAD', 1, 1, 'memory')
def(0x52, 'MSTORE', 2, 0, 'memory')
def(0x53, 'MSTORE8', 2, 0, 'memory')
def(0x54, 'SLOAD', 1, 1, 'storage')
def(0x55, 'SSTORE', 2, 0, 'storage')
def(0x56, 'JUMP', 1, 0, 'flow')
def(0x57, 'JUMPI', 2, 0, 'flow')
def(0x58, 'PC', 0, 1, 'flow')
def(0x59, 'MSIZE', 0, 1, 'memory')
def(0x5a, 'GAS', 0, 1, 'flow')
def(0x5b, 'JUMPDEST', 0, 0, 'flow')
def(0x5c, 'TLOAD', 1, 1, 'transient', 'cancun')
def(0x5d, 'TSTORE', 2, 0, 'transient', 'cancun')
def(0x5e, 'MCOPY', 3, 0, 'memory', 'cancun')
def(0x5f, 'PUSH0', 0, 1, 'push', 'shanghai')
for (let n = 1; n <= 32; n++) def(0x5f + n, `PUSH${n}`, 0, 1, 'push')
for (let n = 1; n <= 16; n++) def(0x7f + n, `DUP${n}`, n, n + 1, 'dup')
for (let n = 1; n <= 16; n++) def(0x8f + n, `SWAP${n}`, n + 1, n + 1, 'swap')
for (let n = 0; n <= 4; n++) def(0xa0 + n, `LOG${n}`, n + 2, 0, 'log')
def(0xf0, 'CREATE', 3, 1, 'create')
def(0xf1, 'CALL', 7, 1, 'call')
def(0xf2, 'CALLCODE', 7, 1, 'call')
def(0xf3, 'RETURN', 2, 0, 'return')
def(0xf4, 'DELEGATECALL', 6, 1, 'call', 'homestead')
def(0xf5, 'CREATE2', 4, 1, 'create', 'constantinople')
def(0xfa, 'STATICCALL', 6, 1, 'call', 'byzantium')
def(0xfd, 'REVERT', 2, 0, 'revert', 'byzantium')
def(0xfe, 'INVALID', 0, 0, 'invalid')
def(0xff, 'SELFDESTRUCT', 1, 0, 'selfdestruct')

export const OPCODES: readonly (OpInfo | undefined)[] = table

const byName = new Map<string, OpInfo>()
for (const info of table) if (info !== undefined) byName.set(info.name, info)

/** The opcode of a name ('PREVRANDAO' is DIFFICULTY's later name). */
export function opcode(name: string): OpInfo {
  const info = byName.get(name === 'PREVRANDAO' ? 'DIFFICULTY' : name)
  if (info === undefined) throw new Error(`unknown opcode ${name}`)
  return info
}

/** Whether the opcode is defined on the fork (INVALID 0xfe counts as defined: it is the designated invalid). */
export function definedOn(info: OpInfo, fork: ForkName): boolean {
  return FORK_NAMES.indexOf(fork) >= FORK_NAMES.indexOf(info.since)
}

/** A readable listing: one instruction a line, `offset: NAME [immediate]`; bytes past the end of a PUSH are marked. */
export function disassemble(code: Uint8Array, maxLines = 400): string {
  const lines: string[] = []
  let pc = 0
  while (pc < code.length) {
    if (lines.length >= maxLines) {
      lines.push(`... (${code.length - pc} more bytes)`)
      break
    }
    const byte = code[pc]!
    const info = table[byte]
    const at = pc.toString().padStart(5)
    if (info === undefined) {
      lines.push(`${at}: UNDEFINED(0x${byte.toString(16).padStart(2, '0')})`)
      pc += 1
      continue
    }
    if (byte >= 0x60 && byte <= 0x7f) {
      const n = byte - 0x5f
      const imm = code.subarray(pc + 1, pc + 1 + n)
      const hex = Buffer.from(imm).toString('hex')
      lines.push(`${at}: ${info.name} 0x${hex}${imm.length < n ? ' (truncated by the end of code)' : ''}`)
      pc += 1 + n
      continue
    }
    lines.push(`${at}: ${info.name}`)
    pc += 1
  }
  return lines.join('\n')
}

/** The instructions of code in order, skipping PUSH data (for coverage counts). */
export function* instructions(code: Uint8Array): Generator<{ pc: number; byte: number }> {
  let pc = 0
  while (pc < code.length) {
    const byte = code[pc]!
    yield { pc, byte }
    pc += byte >= 0x60 && byte <= 0x7f ? byte - 0x5e : 1
  }
}
