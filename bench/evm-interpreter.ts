/**
 * Micro-benchmark of the EVM interpreter (src/evm/interpreter.ts) on three loops, printing Mgas/s:
 * - tight:  JUMPDEST PUSH1 0 POP PUSH0 JUMP (jump dispatch and stack traffic only),
 * - arith:  an ADD/MUL loop (acc = (acc + i) * 3, so acc soon fills all 256 bits: full-width bigint MULs),
 * - mstore: an MSTORE/MLOAD walk over 1 KiB of memory.
 * Each runs a 30 Mgas budget as a Cancun frame on the test-kit host (no state access), after a warm-up.
 * With `--library` it also runs each loop as a whole transaction through our EVM (executeTransaction) and
 * through the EVM library (@ethereumjs/vm, the test oracle), on a smaller budget, for a ratio measured under
 * the same machine load.
 * CPU time is the measure on a shared machine (wall time counts the waits for a core).
 * Run: `nice node --import tsx bench/evm-interpreter.ts [--library]` (PROGRAM=tight|arith|mstore for one loop).
 */

import { assemble, blockEnvWith, TestHost, CONTRACT, SENDER } from '../src/evm/test-kit.ts'
import { interpret } from '../src/evm/interpreter.ts'
import { MessageKind, Status, type Message, type BlockEnv, type TxInput } from '../src/evm/types.ts'
import { rulesFor } from '../src/evm/fork.ts'

const PROGRAMS: Record<string, string> = {
  tight: 'JUMPDEST PUSH1 0x00 POP PUSH0 JUMP',
  // stack [i, acc]: acc = (acc + i) * 3, i = i + 1
  arith: 'PUSH1 0x01 PUSH1 0x00 JUMPDEST DUP2 ADD PUSH1 0x03 MUL DUP2 PUSH1 0x01 ADD SWAP2 POP PUSH1 0x04 JUMP',
  // offset cycles through 0..992 step 32: MSTORE(off, off) MLOAD(off) POP; off = (off + 32) & 0x3ff
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

function measure(run: () => number | Promise<number>): Promise<{ gas: number; cpuSeconds: number; seconds: number }> {
  return (async () => {
    const started = process.hrtime.bigint()
    const cpuStarted = process.cpuUsage()
    const gas = await run()
    const seconds = Number(process.hrtime.bigint() - started) / 1e9
    const cpu = process.cpuUsage(cpuStarted)
    return { gas, cpuSeconds: (cpu.user + cpu.system) / 1e6, seconds }
  })()
}

const rate = (gas: number, seconds: number): string => (gas / seconds / 1e6).toFixed(1).padStart(7)

const only = process.env['PROGRAM']
for (const [name, source] of Object.entries(PROGRAMS)) {
  if (only !== undefined && name !== only) continue
  const code = assemble(source)
  for (let i = 0; i < 5; i++) runOnce(code)
  const rounds = 10
  const m = await measure(() => {
    let gas = 0
    for (let i = 0; i < rounds; i++) gas += runOnce(code)
    return gas
  })
  console.log(`${name.padEnd(7)} ${rate(m.gas, m.cpuSeconds)} Mgas/s of CPU time, ${rate(m.gas, m.seconds)} Mgas/s of wall time  (${rounds} × ${GAS / 1e6} Mgas, interpreter alone)`)
}

if (process.argv.includes('--library')) {
  const { runWithLibrary } = await import('../test/evm/library-oracle.ts')
  const { WorldState } = await import('../src/evm/world-state.ts')
  const { executeTransaction } = await import('../src/evm/transaction.ts')
  const { stateReaderOf } = await import('../test/state-tests/world.ts')
  const block: BlockEnv = blockEnvWith({ timestamp: 1000n, coinbase: 0xc0ffeen, gasLimit: 100_000_000n, baseFee: 1n })
  const TX_GAS = 5_000_000n
  for (const [name, source] of Object.entries(PROGRAMS)) {
    const pre = new Map([
      [SENDER, { nonce: 0n, balance: 10n ** 20n, code: new Uint8Array(0), storage: new Map<bigint, bigint>() }],
      [CONTRACT, { nonce: 1n, balance: 0n, code: assemble(source), storage: new Map<bigint, bigint>() }],
    ])
    const tx: TxInput = { type: 2, from: SENDER, nonce: 0n, gasLimit: TX_GAS, to: CONTRACT, value: 0n, data: new Uint8Array(0), maxFeePerGas: 10n, maxPriorityFeePerGas: 1n }
    const rounds = 3
    const runOurs = (): number => Number(executeTransaction(new WorldState(stateReaderOf(pre)), block, rulesFor('cancun'), tx).gasUsed)
    for (let i = 0; i < 3; i++) runOurs() // warm-up
    const ours = await measure(() => {
      let gas = 0
      for (let i = 0; i < rounds; i++) gas += runOurs()
      return gas
    })
    await runWithLibrary(pre, block, 'cancun', tx) // warm-up
    const library = await measure(async () => {
      let gas = 0
      for (let i = 0; i < rounds; i++) gas += Number((await runWithLibrary(pre, block, 'cancun', tx)).result.gasUsed)
      return gas
    })
    console.log(
      `${name.padEnd(7)} transaction: ours ${rate(ours.gas, ours.cpuSeconds)} Mgas/s, library ${rate(library.gas, library.cpuSeconds)} Mgas/s of CPU time: ${(library.cpuSeconds / ours.cpuSeconds).toFixed(1)}× faster`,
    )
  }
}
