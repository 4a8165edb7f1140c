/**
 * Micro-benchmark of the EVM interpreter (src/evm/interpreter.ts) on three loops, printing Mgas/s:
 * - tight:  JUMPDEST PUSH1 0 POP PUSH0 JUMP (jump dispatch and stack traffic only),
 * - arith:  an ADD/MUL loop over a counter,
 * - mstore: an MSTORE walk over 1 KiB of memory, mixed with MLOAD.
 * Each runs a fixed gas budget as a Shanghai/Cancun frame on the test-kit host (no state access), after a
 * warm-up. CPU time is the measure on a shared machine (wall time counts the waits for a core). Run: `node --import tsx bench/evm-interpreter.ts` (nice it on a shared machine).
 */

import { assemble, TestHost, CONTRACT, SENDER } from '../src/evm/test-kit.ts'
import { interpret } from '../src/evm/interpreter.ts'
import { MessageKind, Status, type Message } from '../src/evm/types.ts'

const PROGRAMS: Record<string, string> = {
  tight: 'JUMPDEST PUSH1 0x00 POP PUSH0 JUMP',
  // counter on the stack: [i] -> i+1, acc = acc * 3 + i ...
  arith: 'PUSH1 0x01 PUSH1 0x00 JUMPDEST DUP2 ADD PUSH1 0x03 MUL DUP2 PUSH1 0x01 ADD SWAP2 POP PUSH1 0x04 JUMP',
  // offset cycles through 0..992 step 32: [off] -> MSTORE(off, off) MLOAD(off) POP; off = (off + 32) & 0x3ff
  mstore: 'PUSH1 0x00 JUMPDEST DUP1 DUP1 MSTORE DUP1 MLOAD POP PUSH1 0x20 ADD PUSH2 0x03ff AND PUSH1 0x02 JUMP',
}

const GAS = 30_000_000
const host = new TestHost('cancun')

function runOnce(code: Uint8Array): number {
  const msg: Message = {
    kind: MessageKind.Call, caller: SENDER, recipient: CONTRACT, codeAddress: CONTRACT, value: 0n,
    transfersValue: false, input: new Uint8Array(0), gas: GAS, depth: 0, isStatic: false,
  }
  const result = interpret(host, msg, code)
  if (result.status !== Status.Halt || result.haltReason !== 'out of gas') throw new Error(`unexpected end: ${JSON.stringify(result)}`)
  return GAS - result.gasLeft
}

for (const [name, source] of Object.entries(PROGRAMS)) {
  const code = assemble(source)
  for (let i = 0; i < 5; i++) runOnce(code)
  const rounds = 10
  const started = process.hrtime.bigint()
  const cpuStarted = process.cpuUsage()
  let gas = 0
  for (let i = 0; i < rounds; i++) gas += runOnce(code)
  const seconds = Number(process.hrtime.bigint() - started) / 1e9
  const cpu = process.cpuUsage(cpuStarted)
  const cpuSeconds = (cpu.user + cpu.system) / 1e6
  console.log(
    `${name.padEnd(7)} ${(gas / cpuSeconds / 1e6).toFixed(1).padStart(7)} Mgas/s of CPU time, ${(gas / seconds / 1e6).toFixed(1).padStart(7)} Mgas/s of wall time  (${rounds} × ${GAS / 1e6} Mgas)`,
  )
}
