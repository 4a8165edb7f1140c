/**
 * The interpreter's opcode semantics on the test-kit host: arithmetic and shift vectors from the Yellow Paper
 * and EIP-145, stack limits, jump destinations, static-frame violations, fork activation, and the
 * environment opcodes.
 */
import { describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { assemble, CONTRACT, runCode, SENDER, TestHost, create2Address } from './test-kit.ts'
import { Status } from './types.ts'
import { bytesToBigInt } from '../primitives/hex.ts'
import type { ForkName } from './fork.ts'

const MAX = (1n << 256n) - 1n
const hex32 = (v: bigint): string => '0x' + v.toString(16).padStart(64, '0')

/** Runs `program`, then returns the top of the stack as a word (MSTORE at 0, RETURN 32 bytes). */
function top(program: string, fork: ForkName = 'osaka'): bigint {
  const { result } = runCode(fork, `${program} PUSH1 0x00 MSTORE PUSH1 0x20 PUSH1 0x00 RETURN`)
  assert.equal(result.status, Status.Success, result.haltReason)
  return bytesToBigInt(result.output)
}

/** `a OP b` with a on top of the stack. */
function binary(op: string, a: bigint, b: bigint, fork: ForkName = 'osaka'): bigint {
  return top(`PUSH32 ${hex32(b)} PUSH32 ${hex32(a)} ${op}`, fork)
}

describe('arithmetic', () => {
  test('ADD, SUB and MUL wrap modulo 2^256', () => {
    assert.equal(binary('ADD', MAX, 2n), 1n)
    assert.equal(binary('SUB', 1n, 2n), MAX)
    assert.equal(binary('MUL', MAX, MAX), 1n)
    assert.equal(binary('MUL', 1n << 255n, 2n), 0n)
  })
  test('DIV, MOD, SDIV, SMOD with zero divisors and signs', () => {
    assert.equal(binary('DIV', 7n, 2n), 3n)
    assert.equal(binary('DIV', 7n, 0n), 0n)
    assert.equal(binary('MOD', 7n, 0n), 0n)
    assert.equal(binary('SDIV', MAX - 9n, 3n), MAX - 2n) // -10 / 3 = -3
    assert.equal(binary('SDIV', 1n << 255n, MAX), 1n << 255n) // -2^255 / -1 = -2^255
    assert.equal(binary('SDIV', 5n, 0n), 0n)
    assert.equal(binary('SMOD', MAX - 9n, 3n), MAX) // -10 % 3 = -1
    assert.equal(binary('SMOD', 10n, MAX - 2n), 1n) // 10 % -3 = 1
    assert.equal(binary('SMOD', 5n, 0n), 0n)
  })
  test('ADDMOD and MULMOD work on the full-width intermediate', () => {
    assert.equal(top(`PUSH1 0x05 PUSH32 ${hex32(MAX)} PUSH32 ${hex32(MAX)} ADDMOD`), (2n * MAX) % 5n)
    assert.equal(top(`PUSH1 0x0c PUSH32 ${hex32(MAX)} PUSH32 ${hex32(MAX)} MULMOD`), (MAX * MAX) % 12n)
    assert.equal(top('PUSH1 0x00 PUSH1 0x02 PUSH1 0x03 ADDMOD'), 0n)
  })
  test('EXP and SIGNEXTEND', () => {
    assert.equal(binary('EXP', 2n, 255n), 1n << 255n)
    assert.equal(binary('EXP', 2n, 256n), 0n)
    assert.equal(binary('SIGNEXTEND', 0n, 0xf0n), MAX - 0x0fn)
    assert.equal(binary('SIGNEXTEND', 1n, 0x7f00n), 0x7f00n)
  })
  test('comparisons, signed and unsigned', () => {
    assert.equal(binary('LT', 1n, 2n), 1n)
    assert.equal(binary('GT', 1n, 2n), 0n)
    assert.equal(binary('SLT', MAX, 0n), 1n)
    assert.equal(binary('SGT', MAX, 0n), 0n)
    assert.equal(binary('EQ', MAX, MAX), 1n)
    assert.equal(top('PUSH1 0x00 ISZERO'), 1n)
    assert.equal(top('PUSH1 0x00 NOT'), MAX)
    assert.equal(binary('BYTE', 31n, 0x1234n), 0x34n)
    assert.equal(binary('BYTE', 0n, 0xabn << 248n), 0xabn)
    assert.equal(binary('BYTE', 32n, MAX), 0n)
  })
  test('EIP-145 shift vectors', () => {
    const h = (s: string): bigint => BigInt(s)
    const ones = MAX
    const shl: [bigint, bigint, bigint][] = [
      [1n, 0x00n, 1n], [1n, 0x01n, 2n], [1n, 0xffn, 1n << 255n], [1n, 0x100n, 0n], [1n, 0x101n, 0n],
      [ones, 0x00n, ones], [ones, 0x01n, ones - 1n], [ones, 0xffn, 1n << 255n], [ones, 0x100n, 0n],
      [0n, 0x01n, 0n], [(1n << 255n) - 1n, 0x01n, ones - 1n],
    ]
    for (const [value, shift, expected] of shl) assert.equal(binary('SHL', shift, value), expected, `SHL ${shift}`)
    const shr: [bigint, bigint, bigint][] = [
      [1n, 0x00n, 1n], [1n, 0x01n, 0n], [1n << 255n, 0x01n, 1n << 254n], [1n << 255n, 0xffn, 1n], [1n << 255n, 0x100n, 0n],
      [1n << 255n, 0x101n, 0n], [ones, 0x00n, ones], [ones, 0x01n, (1n << 255n) - 1n], [ones, 0xffn, 1n], [ones, 0x100n, 0n], [0n, 0x01n, 0n],
    ]
    for (const [value, shift, expected] of shr) assert.equal(binary('SHR', shift, value), expected, `SHR ${shift}`)
    const sar: [bigint, bigint, bigint][] = [
      [1n, 0x00n, 1n], [1n, 0x01n, 0n], [1n << 255n, 0x01n, h('0xc000000000000000000000000000000000000000000000000000000000000000')],
      [1n << 255n, 0xffn, ones], [1n << 255n, 0x100n, ones], [1n << 255n, 0x101n, ones], [ones, 0x00n, ones], [ones, 0x01n, ones],
      [ones, 0xffn, ones], [ones, 0x100n, ones], [0n, 0x01n, 0n], [1n << 254n, 0xfen, 1n], [(1n << 255n) - 1n, 0xf8n, 0x7fn],
      [(1n << 255n) - 1n, 0xfen, 1n], [(1n << 255n) - 1n, 0xffn, 0n], [(1n << 255n) - 1n, 0x100n, 0n],
    ]
    for (const [value, shift, expected] of sar) assert.equal(binary('SAR', shift, value), expected, `SAR ${shift}`)
  })
  test('CLZ (EIP-7939) from Osaka only', () => {
    assert.equal(top('PUSH1 0x00 CLZ'), 256n)
    assert.equal(top('PUSH1 0x01 CLZ'), 255n)
    assert.equal(top(`PUSH32 ${hex32(MAX)} CLZ`), 0n)
    const { result } = runCode('prague', 'PUSH1 0x01 CLZ')
    assert.equal(result.status, Status.Halt)
    assert.equal(result.haltReason, 'invalid opcode: CLZ')
  })
})

describe('stack, jumps and code', () => {
  test('underflow and overflow halt with geth words and consume all gas', () => {
    const under = runCode('cancun', 'PUSH1 0x01 ADD').result
    assert.equal(under.status, Status.Halt)
    assert.equal(under.gasLeft, 0)
    assert.equal(under.haltReason, 'stack underflow (1 <=> 2)')
    // 1025 pushes: JUMPDEST PUSH0 PUSH1 0 JUMP loops pushing until the stack is full
    const over = runCode('cancun', 'JUMPDEST PUSH0 PUSH1 0x00 JUMP', { gas: 10_000_000 }).result
    assert.equal(over.status, Status.Halt)
    assert.equal(over.haltReason, 'stack limit reached 1024 (1023)')
    // exactly 1024 items is fine: 1023 × PUSH0 then DUP1
    const full = runCode('cancun', 'PUSH0 '.repeat(1023) + 'DUP1 STOP').result
    assert.equal(full.status, Status.Success)
    const dupOver = runCode('cancun', 'PUSH0 '.repeat(1024) + 'DUP1 STOP').result
    assert.equal(dupOver.haltReason, 'stack limit reached 1024 (1023)')
  })
  test('DUP and SWAP reach the 16th item', () => {
    const pushes = Array.from({ length: 17 }, (_, i) => `PUSH1 0x${(i + 1).toString(16).padStart(2, '0')}`).join(' ')
    assert.equal(top(`${pushes} DUP16`), 2n)
    assert.equal(top(`${pushes} SWAP16`), 1n)
    assert.equal(top(`${pushes} SWAP1 POP`), 17n)
  })
  test('JUMP into PUSH data is invalid, to a JUMPDEST is fine, JUMPI falls through on zero', () => {
    // PUSH1 0x5b hides a JUMPDEST byte at pc 1
    const intoData = runCode('cancun', 'PUSH1 0x5b PUSH1 0x01 JUMP').result
    assert.equal(intoData.status, Status.Halt)
    assert.equal(intoData.haltReason, 'invalid jump destination')
    const past = runCode('cancun', `PUSH32 ${hex32(1n << 200n)} JUMP`).result
    assert.equal(past.haltReason, 'invalid jump destination')
    assert.equal(top('PUSH1 0x04 JUMP INVALID JUMPDEST PUSH1 0x07'), 7n)
    assert.equal(top('PUSH1 0x09 PUSH1 0x00 PUSH1 0x01 JUMPI PUSH1 0x2a'), 0x2an)
    const badTaken = runCode('cancun', 'PUSH1 0x01 PUSH1 0x01 JUMPI').result
    assert.equal(badTaken.haltReason, 'invalid jump destination')
    const notTaken = runCode('cancun', 'PUSH0 PUSH1 0x01 JUMPI STOP').result
    assert.equal(notTaken.status, Status.Success)
  })
  test('running off the end of code (even inside a PUSH) stops successfully', () => {
    assert.equal(runCode('cancun', Uint8Array.of(0x61, 0x12)).result.status, Status.Success)
    assert.equal(runCode('cancun', Uint8Array.of(0x60, 0x01)).result.gasLeft, 1_000_000 - 3)
  })
  test('INVALID and undefined opcodes halt; opcodes before their fork are invalid', () => {
    assert.equal(runCode('cancun', '0xfe').result.haltReason, 'invalid opcode: INVALID')
    assert.equal(runCode('cancun', '0x0c').result.haltReason, 'invalid opcode: opcode 0xc not defined')
    assert.equal(runCode('london', 'PUSH0').result.haltReason, 'invalid opcode: PUSH0')
    assert.equal(runCode('byzantium', 'PUSH1 0x01 PUSH1 0x01 SHL').result.haltReason, 'invalid opcode: SHL')
    assert.equal(runCode('frontier', 'PUSH0 PUSH0 PUSH0 PUSH0 PUSH0 PUSH0 DELEGATECALL'.replace(/PUSH0/g, 'PUSH1 0x00')).result.haltReason, 'invalid opcode: DELEGATECALL')
    assert.equal(runCode('homestead', 'PUSH1 0x00 PUSH1 0x00 REVERT').result.haltReason, 'invalid opcode: REVERT')
    assert.equal(runCode('shanghai', 'PUSH1 0x00 TLOAD').result.haltReason, 'invalid opcode: TLOAD')
    assert.equal(runCode('berlin', 'BASEFEE').result.haltReason, 'invalid opcode: BASEFEE')
    assert.equal(runCode('istanbul', 'CHAINID').result.status, Status.Success)
  })
  test('REVERT keeps the gas left and returns its data; a halt consumes everything', () => {
    const { result } = runCode('cancun', 'PUSH1 0x2a PUSH1 0x00 MSTORE PUSH1 0x20 PUSH1 0x00 REVERT', { gas: 100_000 })
    assert.equal(result.status, Status.Revert)
    assert.equal(bytesToBigInt(result.output), 0x2an)
    // 3 + 3 + 3 (+3 memory) + 3 + 3 = 18
    assert.equal(result.gasLeft, 100_000 - 18)
  })
})

describe('environment', () => {
  test('block and transaction values', () => {
    const host = new TestHost('cancun', { blobHashes: [0x01aan, 0x01bbn], origin: 0x0a11cen, gasPrice: 99n })
    const run = (program: string): bigint => {
      const { result } = runCode('cancun', `${program} PUSH1 0x00 MSTORE PUSH1 0x20 PUSH1 0x00 RETURN`, { host })
      assert.equal(result.status, Status.Success, result.haltReason)
      return bytesToBigInt(result.output)
    }
    assert.equal(run('ADDRESS'), CONTRACT)
    assert.equal(run('CALLER'), SENDER)
    assert.equal(run('ORIGIN'), 0x0a11cen)
    assert.equal(run('GASPRICE'), 99n)
    assert.equal(run('NUMBER'), 1000n)
    assert.equal(run('PREVRANDAO'.replace('PREVRANDAO', 'DIFFICULTY')), 0x1234n)
    assert.equal(run('PUSH1 0x01 BLOBHASH'), 0x01bbn)
    assert.equal(run('PUSH1 0x02 BLOBHASH'), 0n)
    assert.equal(run('BLOBBASEFEE'), 1n)
    assert.equal(run('BASEFEE'), 7n)
    assert.equal(run('CHAINID'), 1n)
    assert.equal(run('SELFBALANCE'), 10n ** 18n)
    assert.equal(run('PUSH2 0x03e7 BLOCKHASH'), 0xb10c0000n + 999n)
    assert.equal(run('PUSH2 0x02e8 BLOCKHASH'), 0xb10c0000n + 744n) // 256 back
    assert.equal(run('PUSH2 0x02e7 BLOCKHASH'), 0n) // 257 back
    assert.equal(run('PUSH2 0x03e8 BLOCKHASH'), 0n) // the current block
    assert.equal(top('DIFFICULTY', 'london'), 131072n)
  })
  test('call data reads are zero-padded', () => {
    const input = Uint8Array.from({ length: 40 }, (_, i) => i + 1)
    const { result } = runCode('cancun', 'PUSH1 0x20 CALLDATALOAD PUSH1 0x00 MSTORE PUSH1 0x20 PUSH1 0x00 RETURN', { input })
    assert.equal(result.output[0], 33)
    assert.equal(result.output[7], 40)
    assert.equal(result.output[8], 0)
  })
  test('KECCAK256 of empty memory and of a word', () => {
    assert.equal(top('PUSH1 0x00 PUSH1 0x00 KECCAK256'), 0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470n)
  })
  test('RETURNDATACOPY beyond the buffer halts', () => {
    const { result } = runCode('cancun', 'PUSH1 0x01 PUSH1 0x00 PUSH1 0x00 RETURNDATACOPY')
    assert.equal(result.haltReason, 'return data out of bounds')
    assert.equal(runCode('cancun', 'PUSH1 0x00 PUSH1 0x00 PUSH1 0x00 RETURNDATACOPY STOP').result.status, Status.Success)
  })
  test('MCOPY copies overlapping ranges as memmove', () => {
    // memory[0..32] = 0x0102..; MCOPY(dst 1, src 0, 4)
    const word = hex32(BigInt('0x0102030405') << 216n)
    const v = top(`PUSH32 ${word} PUSH1 0x00 MSTORE PUSH1 0x04 PUSH1 0x00 PUSH1 0x01 MCOPY PUSH1 0x00 MLOAD`)
    assert.equal(v >> 208n, BigInt('0x010102030400'))
  })
})

describe('static frames', () => {
  for (const [name, program] of [
    ['SSTORE', 'PUSH1 0x01 PUSH1 0x00 SSTORE'],
    ['TSTORE', 'PUSH1 0x01 PUSH1 0x00 TSTORE'],
    ['LOG0', 'PUSH1 0x00 PUSH1 0x00 LOG0'],
    ['CREATE', 'PUSH1 0x00 PUSH1 0x00 PUSH1 0x00 CREATE'],
    ['CREATE2', 'PUSH1 0x00 PUSH1 0x00 PUSH1 0x00 PUSH1 0x00 CREATE2'],
    ['SELFDESTRUCT', 'PUSH1 0x01 SELFDESTRUCT'],
    ['CALL with value', 'PUSH1 0x00 PUSH1 0x00 PUSH1 0x00 PUSH1 0x00 PUSH1 0x01 PUSH1 0x01 GAS CALL'],
  ] as const) {
    test(`${name} halts with write protection`, () => {
      const { result, host } = runCode('cancun', program, { isStatic: true })
      assert.equal(result.status, Status.Halt)
      assert.equal(result.haltReason, 'write protection')
      assert.equal(host.logs.length, 0)
    })
  }
  test('reads and CALL without value are allowed, and the callee is static', () => {
    const { result, host } = runCode('cancun', 'PUSH1 0x00 PUSH1 0x00 PUSH1 0x00 PUSH1 0x00 PUSH1 0x00 PUSH1 0x01 GAS CALL PUSH1 0x00 SLOAD POP STOP', { isStatic: true })
    assert.equal(result.status, Status.Success)
    assert.equal(host.calls.at(-1)!.isStatic, true)
  })
})

describe('calls and creates', () => {
  test('CALL runs the callee, copies its output and sets the return data buffer', () => {
    const host = new TestHost('cancun')
    const callee = 0xca11een
    // callee returns the word 0x2a
    host.setAccount(callee, { code: assemble('PUSH1 0x2a PUSH1 0x00 MSTORE PUSH1 0x20 PUSH1 0x00 RETURN') })
    const { result } = runCode(
      'cancun',
      `PUSH1 0x20 PUSH1 0x40 PUSH1 0x00 PUSH1 0x00 PUSH1 0x00 PUSH3 0x${callee.toString(16)} GAS CALL ` +
        'RETURNDATASIZE PUSH1 0x00 MSTORE PUSH1 0x60 PUSH1 0x00 RETURN',
      { host },
    )
    assert.equal(result.status, Status.Success, result.haltReason)
    assert.equal(bytesToBigInt(result.output.subarray(0, 32)), 32n) // RETURNDATASIZE
    assert.equal(bytesToBigInt(result.output.subarray(32, 64)), 0n)
    assert.equal(bytesToBigInt(result.output.subarray(64, 96)), 0x2an) // copied to 0x40
  })
  test('DELEGATECALL runs the code in the caller context with its caller and value', () => {
    const host = new TestHost('cancun')
    const library = 0x11bn
    host.setAccount(library, { code: assemble('CALLER PUSH1 0x00 SSTORE CALLVALUE PUSH1 0x01 SSTORE') })
    const { result } = runCode('cancun', `PUSH1 0x00 PUSH1 0x00 PUSH1 0x00 PUSH1 0x00 PUSH2 0x011b GAS DELEGATECALL STOP`, { host, value: 5n })
    assert.equal(result.status, Status.Success)
    assert.equal(host.sload(CONTRACT, 0n), SENDER)
    assert.equal(host.sload(CONTRACT, 1n), 5n)
    assert.equal(host.sload(library, 0n), 0n)
  })
  test('CREATE2 deploys at the EIP-1014 address and pushes it; a failed create pushes 0', () => {
    const host = new TestHost('cancun')
    // initcode 0x00 (STOP) at memory byte 31
    const { result } = runCode('cancun', 'PUSH1 0x00 PUSH1 0x01 PUSH1 0x1f PUSH1 0x00 CREATE2 PUSH1 0x00 MSTORE PUSH1 0x20 PUSH1 0x00 RETURN', { host })
    assert.equal(result.status, Status.Success, result.haltReason)
    assert.equal(bytesToBigInt(result.output), create2Address(CONTRACT, 0n, Uint8Array.of(0)))
    // EIP-1014 example 1 (address 0, salt 0, initcode 0x00)
    assert.equal(create2Address(0n, 0n, Uint8Array.of(0)), 0x4d1a2e2bb4f88f0250f26ffff098b0b30b26bf38n)
    // example 3: deadbeef, salt 0xcafebabe.., initcode 0xdeadbeef
    assert.equal(
      create2Address(0xdeadbeefn, 0xcafebaben, Uint8Array.of(0xde, 0xad, 0xbe, 0xef)),
      0x60f3f640a8508fc6a86d45df051962668e1e8ac7n,
    )
    // initcode that reverts with data: address 0, return data = revert data
    const reverting = runCode(
      'cancun',
      // initcode: PUSH1 0x2a PUSH1 0 MSTORE PUSH1 0x20 PUSH1 0 REVERT (11 bytes) stored at memory 0..11
      `PUSH32 ${hex32(BigInt('0x602a60005260206000fd') << 176n)} PUSH1 0x00 MSTORE PUSH1 0x0a PUSH1 0x00 PUSH1 0x00 CREATE ` +
        'PUSH1 0x00 MSTORE RETURNDATASIZE PUSH1 0x20 MSTORE PUSH1 0x40 PUSH1 0x00 RETURN',
    ).result
    assert.equal(reverting.status, Status.Success, reverting.haltReason)
    assert.equal(bytesToBigInt(reverting.output.subarray(0, 32)), 0n)
    assert.equal(bytesToBigInt(reverting.output.subarray(32, 64)), 32n)
  })
  test('initcode over 49152 bytes halts the creating frame from Shanghai', () => {
    const program = 'PUSH3 0x00c001 PUSH1 0x00 PUSH1 0x00 CREATE STOP'
    assert.equal(runCode('shanghai', program, { gas: 10_000_000 }).result.haltReason, 'max initcode size exceeded: size 49153')
    assert.equal(runCode('paris', program, { gas: 10_000_000 }).result.status, Status.Success)
    assert.equal(runCode('shanghai', 'PUSH3 0x00c000 PUSH1 0x00 PUSH1 0x00 CREATE STOP', { gas: 10_000_000 }).result.status, Status.Success)
  })
  test('LOG records topics in order and its data', () => {
    const { result, host } = runCode('cancun', 'PUSH1 0x2a PUSH1 0x00 MSTORE PUSH1 0x02 PUSH1 0x01 PUSH1 0x20 PUSH1 0x00 LOG2 STOP')
    assert.equal(result.status, Status.Success)
    assert.equal(host.logs.length, 1)
    assert.deepEqual(host.logs[0]!.topics, [1n, 2n])
    assert.equal(bytesToBigInt(host.logs[0]!.data), 0x2an)
  })
  test('SELFDESTRUCT moves the balance and stops the frame', () => {
    const { result, host } = runCode('cancun', 'PUSH3 0x0be4ef SELFDESTRUCT INVALID')
    assert.equal(result.status, Status.Success)
    assert.equal(host.balance(0x0be4efn), 10n ** 18n)
  })
})

describe('call depth', () => {
  test('a self-call recursion reaches the 1024 limit on the default JS stack', () => {
    const host = new TestHost('cancun')
    let deepest = 0
    const call = host.call.bind(host)
    host.call = (msg) => {
      deepest = Math.max(deepest, msg.depth)
      return call(msg)
    }
    const program = `PUSH1 0x00 PUSH1 0x00 PUSH1 0x00 PUSH1 0x00 PUSH1 0x00 PUSH3 0x${CONTRACT.toString(16)} GAS CALL STOP`
    const { result } = runCode('cancun', program, { host, gas: 1_000_000_000_000 })
    assert.equal(result.status, Status.Success)
    assert.equal(deepest, 1025) // the call at depth 1025 is refused by the host
  })
})

describe('memory words remembered by MLOAD and MSTORE follow every other write to the bytes under them', () => {
  const A = hex32((1n << 255n) | 0x1234n)
  const B = hex32((0xabn << 240n) | 0x77n)
  const withByte = (word: string, at: number, byte: number): bigint => {
    const bytes = Buffer.from(word.slice(2), 'hex')
    bytes[at] = byte
    return BigInt('0x' + bytes.toString('hex'))
  }
  test('MSTORE8 into a remembered word', () => {
    assert.equal(top(`PUSH32 ${A} PUSH1 0x00 MSTORE PUSH1 0x00 MLOAD POP PUSH1 0xcd PUSH1 0x05 MSTORE8 PUSH1 0x00 MLOAD`), withByte(A, 5, 0xcd))
  })
  test('an unaligned MSTORE across two remembered words', () => {
    const program = `PUSH32 ${A} PUSH1 0x00 MSTORE PUSH32 ${A} PUSH1 0x20 MSTORE PUSH1 0x00 MLOAD PUSH1 0x20 MLOAD POP POP PUSH32 ${B} PUSH1 0x10 MSTORE`
    const b = Buffer.from(B.slice(2), 'hex')
    const a = Buffer.from(A.slice(2), 'hex')
    assert.equal(top(`${program} PUSH1 0x00 MLOAD`), BigInt('0x' + Buffer.concat([a.subarray(0, 16), b.subarray(0, 16)]).toString('hex')))
    assert.equal(top(`${program} PUSH1 0x20 MLOAD`), BigInt('0x' + Buffer.concat([b.subarray(16), a.subarray(16)]).toString('hex')))
  })
  test('CALLDATACOPY and CODECOPY over a remembered word', () => {
    // No call data: the copy writes zeros.
    assert.equal(top(`PUSH32 ${A} PUSH1 0x20 MSTORE PUSH1 0x20 MLOAD POP PUSH1 0x20 PUSH1 0x00 PUSH1 0x20 CALLDATACOPY PUSH1 0x20 MLOAD`), 0n)
    // The code's first byte is PUSH32 (0x7f), copied over the word's first byte.
    assert.equal(top(`PUSH32 ${A} PUSH1 0x00 MSTORE PUSH1 0x00 MLOAD POP PUSH1 0x01 PUSH1 0x00 PUSH1 0x00 CODECOPY PUSH1 0x00 MLOAD`), withByte(A, 0, 0x7f))
  })
  test('MCOPY onto a remembered word', () => {
    assert.equal(top(`PUSH32 ${A} PUSH1 0x00 MSTORE PUSH32 ${B} PUSH1 0x20 MSTORE PUSH1 0x20 MLOAD POP PUSH1 0x20 PUSH1 0x00 PUSH1 0x20 MCOPY PUSH1 0x20 MLOAD`), BigInt(A))
  })
  test("a call's output written over a remembered word", () => {
    // The callee returns B; the caller had A remembered where the output lands.
    const host = new TestHost('osaka')
    const callee = 0xca11een
    host.setAccount(callee, { code: assemble(`PUSH32 ${B} PUSH1 0x00 MSTORE PUSH1 0x20 PUSH1 0x00 RETURN`) })
    const program = `PUSH32 ${A} PUSH1 0x00 MSTORE PUSH1 0x00 MLOAD POP
      PUSH1 0x20 PUSH1 0x00 PUSH1 0x00 PUSH1 0x00 PUSH3 0xca11ee GAS STATICCALL POP
      PUSH1 0x00 MLOAD PUSH1 0x00 MSTORE PUSH1 0x20 PUSH1 0x00 RETURN`
    const { result } = runCode('osaka', program, { host })
    assert.equal(result.status, Status.Success, result.haltReason)
    assert.equal(bytesToBigInt(result.output), BigInt(B))
  })
})

describe('a word has one form whichever opcode made it (words.ts: a number up to 2^31 - 1, else a bigint)', () => {
  // each expression leaves the value named on the stack, made from operands on the other side of 2^31 or by a
  // wrap; EQ against the same value pushed as a constant is 1 only when both have the same form
  const big = (v: bigint): string => `PUSH32 ${hex32(v)}`
  const cases: [string, string, bigint][] = [
    ['ADD that wraps', `${big(3n)} ${big(MAX)} ADD`, 2n],
    ['ADD of two numbers past 2^31 - 1', 'PUSH4 0x7fffffff PUSH1 0x01 ADD', 0x80000000n],
    ['SUB of two bigints', `${big(0x80000000n)} ${big(0x80000005n)} SUB`, 5n],
    ['SUB below zero', 'PUSH1 0x01 PUSH1 0x00 SUB', MAX],
    ['MUL that wraps', `${big(2n)} ${big(1n << 255n)} MUL`, 0n],
    ['MUL of two numbers past 2^53', 'PUSH4 0x7fffffff PUSH4 0x7fffffff MUL', 0x7fffffffn * 0x7fffffffn],
    ['DIV of bigints', `${big(0x100000000n)} ${big(0x500000000n)} DIV`, 5n],
    ['SDIV of negatives', `${big(MAX - 1n)} ${big(MAX - 9n)} SDIV`, 5n],
    ['MOD of bigints', `${big(0x100000000n)} ${big(0x100000007n)} MOD`, 7n],
    ['SMOD of a negative', `${big(3n)} ${big(MAX - 9n)} SMOD`, MAX],
    ['ADDMOD', `PUSH1 0x07 ${big(MAX)} ${big(MAX)} ADDMOD`, (2n * MAX) % 7n],
    ['MULMOD', `PUSH1 0x07 ${big(MAX)} ${big(MAX)} MULMOD`, (MAX * MAX) % 7n],
    ['EXP', 'PUSH1 0x1f PUSH1 0x02 EXP', 1n << 31n],
    ['EXP that wraps', `PUSH2 0x0100 PUSH1 0x02 EXP`, 0n],
    ['SIGNEXTEND of a positive byte', `${big(0xff7fn)} PUSH1 0x00 SIGNEXTEND`, 0x7fn],
    ['AND of two bigints', `${big(0xe00000005n)} ${big(0x1000000ffn)} AND`, 5n],
    ['AND of a number and a bigint', `${big(MAX)} PUSH2 0x1234 AND`, 0x1234n],
    ['OR', `${big(0x80000000n)} PUSH1 0x01 OR`, 0x80000001n],
    ['XOR of two bigints', `${big(0x80000006n)} ${big(0x80000003n)} XOR`, 5n],
    ['NOT of a number', 'PUSH1 0x05 NOT', MAX - 5n],
    ['NOT of a bigint', `${big(MAX - 5n)} NOT`, 5n],
    ['BYTE of a bigint', `${big(0xab00n << 200n)} PUSH1 0x05 BYTE`, 0xabn],
    ['BYTE of a number', 'PUSH4 0x12345678 PUSH1 0x1c BYTE', 0x12n],
    ['SHL of a number past 2^31 - 1', 'PUSH1 0x01 PUSH1 0x1f SHL', 1n << 31n],
    ['SHL of a number to the edge', 'PUSH1 0x01 PUSH1 0x1e SHL', 1n << 30n],
    ['SHL that shifts a bigint out', `${big(1n << 255n)} PUSH1 0x01 SHL`, 0n],
    ['SHR of a bigint', `${big(0x5n << 200n)} PUSH1 0xc8 SHR`, 5n],
    ['SHR of a number', 'PUSH4 0x7fffffff PUSH1 0x1e SHR', 1n],
    ['SAR of a negative', `${big(MAX - 15n)} PUSH1 0x02 SAR`, MAX - 3n],
    ['SAR of a positive bigint', `${big(0x5n << 200n)} PUSH1 0xc8 SAR`, 5n],
    ['CLZ', `${big(1n << 200n)} CLZ`, 55n],
    ['MLOAD of a small value MSTOREd as a bigint result', `${big(0x80000000n)} ${big(0x80000009n)} SUB PUSH1 0x00 MSTORE PUSH1 0x00 MLOAD`, 9n],
    ['MLOAD unaligned', `${big(0x0102030405060708n)} PUSH1 0x00 MSTORE PUSH1 0x04 MLOAD`, 0x0102030405060708n << 32n],
    ['CALLDATALOAD past the data', 'PUSH2 0x1000 CALLDATALOAD', 0n],
    ['KECCAK256', 'PUSH1 0x00 PUSH1 0x00 KECCAK256', 0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470n],
  ]
  for (const [name, expression, value] of cases) {
    test(name, () => {
      assert.equal(top(expression, 'osaka'), value, 'the value')
      assert.equal(top(`${expression} ${big(value)} EQ`, 'osaka'), 1n, 'EQ with the value pushed whole')
      const short = value === 0n ? 'PUSH0' : value <= 0xffffffffn ? `PUSH4 0x${value.toString(16).padStart(8, '0')}` : big(value)
      assert.equal(top(`${expression} ${short} EQ`, 'osaka'), 1n, 'EQ with the value pushed short')
      assert.equal(top(`${expression} ISZERO`, 'osaka'), value === 0n ? 1n : 0n, 'ISZERO')
    })
  }
})
