/**
 * The straight-line runs (gas-blocks.ts) and the interpreter's fast mode over them: the sums and stack bounds
 * of a run, and that paying a run in advance never shows: out-of-gas and stack errors land on the opcode, with
 * the reason, that going op by op gives; GAS reads the gas left after itself; a failed memory charge inside a
 * run gives the rest of the run back before deciding.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { analyse } from './code-analysis.ts'
import { rulesFor } from './fork.ts'
import { blocksFor, UNAFFORDABLE } from './gas-blocks.ts'
import { forkGasFor } from './gas-rules.ts'
import { assemble, runCode } from './test-kit.ts'
import { Status } from './types.ts'
import { bytesToBigInt } from '../primitives/hex.ts'

const blocksOf = (program: string, fork: 'cancun' | 'paris' = 'cancun') => blocksFor(analyse(assemble(program)), forkGasFor(rulesFor(fork)).staticGas)

test('a run sums static gas up to the opcode that ends it, and bounds the stack at its start', () => {
  // pc 0 PUSH1, 2 PUSH1, 4 ADD, 5 DUP1, 6 SSTORE (ends the run), 7 POP, 8 STOP
  const b = blocksOf('PUSH1 0x01 PUSH1 0x02 ADD DUP1 SSTORE POP STOP')
  assert.equal(b.gas[0], 3 + 3 + 3 + 3 + 0)
  assert.equal(b.gas[4], 3 + 3 + 0)
  assert.equal(b.gas[7], 2 + 0, 'POP then STOP')
  assert.equal(b.low[0], 0)
  assert.equal(b.low[4], 2, 'ADD needs two')
  assert.equal(b.low[7], 1)
  // from pc 0 the run pushes two before ADD: room for 1022 at the start; from ADD, 1024 less the DUP's one
  assert.equal(b.high[0], 1022)
  assert.equal(b.high[4], 1024)
})

test('a run through an opcode the fork lacks costs more than any gas', () => {
  const paris = blocksOf('PUSH1 0x01 PUSH0 ADD STOP', 'paris') // PUSH0 from Shanghai
  assert.equal(paris.gas[0], UNAFFORDABLE)
  const cancun = blocksOf('PUSH1 0x01 PUSH0 ADD STOP')
  assert.equal(cancun.gas[0], 3 + 2 + 3)
})

test('the runs of one code are made once per fork', () => {
  const analysis = analyse(assemble('PUSH1 0x01 POP STOP'))
  const cancun = forkGasFor(rulesFor('cancun')).staticGas
  assert.equal(blocksFor(analysis, cancun), blocksFor(analysis, cancun))
  assert.notEqual(blocksFor(analysis, forkGasFor(rulesFor('paris')).staticGas), blocksFor(analysis, cancun))
})

test('out of gas inside a run halts where op-by-op does: a later opcode of the run that halts otherwise decides', () => {
  // MSTORE at 0 grows memory (3 more gas); then MLOAD at an offset past any memory halts with gas uint64 overflow.
  // Op by op, 18 gas reach the MLOAD (PUSH1, PUSH1, MSTORE and its word, PUSH8, MLOAD). The run costs 20 (its
  // static gas, the trailing PUSH1 POP included): with 20 to 22 it is paid in advance, the MSTORE's word then
  // finds too little, and must take back the run's unspent rest to halt at the MLOAD as op by op does.
  const program = 'PUSH1 0x01 PUSH1 0x00 MSTORE PUSH8 0xffffffffffffffff MLOAD PUSH1 0x00 POP STOP'
  assert.equal(blocksOf(program).gas[0], 20)
  for (const gas of [18, 20, 21, 22]) {
    const { result } = runCode('cancun', program, { gas })
    assert.equal(result.status, Status.Halt)
    assert.equal(result.haltReason, 'gas uint64 overflow', `with ${gas} gas`)
  }
  assert.equal(runCode('cancun', program, { gas: 17 }).result.haltReason, 'out of gas', 'without the MSTORE word, out of gas there')
})

test('an out-of-gas halt and a stack underflow inside a run keep their op-by-op reasons', () => {
  assert.equal(runCode('cancun', 'PUSH1 0x01 PUSH1 0x02 ADD POP STOP', { gas: 8 }).result.haltReason, 'out of gas')
  assert.equal(runCode('cancun', 'PUSH1 0x01 ADD ADD STOP', { gas: 100 }).result.haltReason, 'stack underflow (1 <=> 2)')
  assert.equal(runCode('cancun', 'PUSH1 0x01 PUSH1 0x01 ADD ADD STOP', { gas: 100 }).result.haltReason, 'stack underflow (1 <=> 2)')
})

test('GAS reads the gas left after itself, with the rest of its run not yet paid', () => {
  const { result } = runCode('cancun', 'PUSH1 0x01 POP GAS PUSH1 0x00 MSTORE PUSH1 0x20 PUSH1 0x00 RETURN', { gas: 10_000 })
  assert.equal(result.status, Status.Success)
  assert.equal(bytesToBigInt(result.output), BigInt(10_000 - 3 - 2 - 2))
  // after GAS: PUSH1, MSTORE and its word, PUSH1, PUSH1, RETURN
  assert.equal(result.gasLeft, 10_000 - 7 - (3 + 3 + 3 + 3 + 3 + 0))
})

/** The same code with every run unaffordable: the interpreter then goes op by op throughout. */
function opByOp(code: Uint8Array, fork: 'cancun'): Uint8Array {
  const analysis = analyse(code)
  const made = blocksFor(analysis, forkGasFor(rulesFor(fork)).staticGas)
  analysis.blocks = { ...made, gas: new Float64Array(made.gas.length).fill(UNAFFORDABLE) }
  return code
}

test('every opcode, then a run of cheap ones: paying runs in advance ends the same as going op by op', () => {
  const staticGas = forkGasFor(rulesFor('cancun')).staticGas
  for (let op = 0; op < 256; op++) {
    for (const arg of ['0x00', '0x01', '0x40']) {
      // enough arguments for any opcode, then the opcode, then a straight run the fast mode would pay ahead
      const args = assemble(`PUSH1 ${arg} `.repeat(8))
      const code = new Uint8Array([...args, op, ...assemble('PUSH1 0x01 PUSH1 0x02 ADD POP PUSH1 0x03 POP GAS POP STOP')])
      const fast = runCode('cancun', code, { gas: 100_000 }).result
      const slow = runCode('cancun', opByOp(new Uint8Array(code), 'cancun'), { gas: 100_000 }).result
      const what = `opcode 0x${op.toString(16)} (static gas ${staticGas[op]}) with arguments ${arg}`
      assert.equal(fast.status, slow.status, what)
      assert.equal(fast.gasLeft, slow.gasLeft, what)
      assert.equal(fast.haltReason, slow.haltReason, what)
      assert.deepEqual(fast.output, slow.output, what)
    }
  }
})

test('a failed memory charge inside a run is decided on the gas op-by-op would have', () => {
  // the MSTORE's expansion to 64 bytes costs 6 more; gas for everything up to it and the expansion, not for the
  // rest of the run (PUSH1 POP = 5): op by op this succeeds through the MSTORE, and runs out at the PUSH1 after it
  const program = 'PUSH1 0x01 PUSH1 0x20 MSTORE PUSH1 0x00 POP STOP'
  const upToStore = 3 + 3 + 3 + 6
  const { result } = runCode('cancun', program, { gas: upToStore + 4 })
  assert.equal(result.haltReason, 'out of gas')
  const done = runCode('cancun', program, { gas: upToStore + 5 }).result
  assert.equal(done.status, Status.Success)
  assert.equal(done.gasLeft, 0)
})

test('jumps, fused with their PUSH or not, land past the JUMPDEST as op by op would: every gas amount ends the same', () => {
  // a loop of three rounds: 0 PUSH1 3; 2 JUMPDEST; 3 PUSH1 1 SWAP1 SUB (counter - 1); 7 DUP1; 8 PUSH1 2 JUMPI
  // (fused: back to 2 while non-zero); 11 PUSH1 16 JUMP (fused); 14 STOP STOP; 16 JUMPDEST; 17 PUSH1 23 PUSH1 0
  // ADD JUMP (to a computed destination: not fused); 23 JUMPDEST; 24 PUSH1 1 PUSH1 32 PUSH1 0 ADD JUMPI (the
  // same for JUMPI); 32 JUMPDEST; 33 POP GAS STOP
  const program =
    'PUSH1 0x03 JUMPDEST PUSH1 0x01 SWAP1 SUB DUP1 PUSH1 0x02 JUMPI PUSH1 0x10 JUMP STOP STOP JUMPDEST ' +
    'PUSH1 0x17 PUSH1 0x00 ADD JUMP JUMPDEST PUSH1 0x01 PUSH1 0x20 PUSH1 0x00 ADD JUMPI JUMPDEST POP GAS STOP'
  const code = assemble(program)
  assert.equal(code.length, 36)
  // PUSH1; three rounds of JUMPDEST PUSH1 SWAP1 SUB DUP1 PUSH1 JUMPI; PUSH1 JUMP; JUMPDEST PUSH1 PUSH1 ADD JUMP;
  // JUMPDEST PUSH1 PUSH1 PUSH1 ADD JUMPI; JUMPDEST POP GAS STOP
  const total = 3 + 3 * 26 + 11 + 18 + 23 + 5
  let succeeded = 0
  for (let gas = 0; gas <= total + 5; gas++) {
    const fast = runCode('cancun', code, { gas }).result
    const slow = runCode('cancun', opByOp(new Uint8Array(code), 'cancun'), { gas }).result
    assert.equal(fast.status, slow.status, `with ${gas} gas`)
    assert.equal(fast.gasLeft, slow.gasLeft, `with ${gas} gas`)
    assert.equal(fast.haltReason, slow.haltReason, `with ${gas} gas`)
    if (fast.status === Status.Success) succeeded++
  }
  assert.equal(succeeded, 6, 'from the exact gas on, it completes')
  assert.equal(runCode('cancun', code, { gas: 10_000 }).result.gasLeft, 10_000 - total)
})
