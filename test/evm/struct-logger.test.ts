/**
 * The struct logger against an independent EVM: random transactions of the differential generator
 * (scenario-generator.ts) run under our struct logger and under @ethereumjs/vm with a step listener
 * (library-oracle.ts), and the two step sequences must agree on pc, opcode, gas before the opcode, depth and
 * the whole stack; each step's gas change is checked against the library's next step in the same frame.
 * Transactions the library refuses (or where our EVM and the library disagree on the outcome: that is the
 * differential test's business) are skipped and counted, as are those whose trace exceeds the tracer's size
 * limit (refused by design, as geth refuses it).
 *
 *   STRUCTLOG_SEED=<n>   the seed (printed; random when unset)
 *   STRUCTLOG_COUNT=<n>  how many scenarios (default 200)
 */

import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { InterpreterStep } from '@ethereumjs/evm'
import { rulesFor } from '../../src/evm/fork.ts'
import { opcodeName } from '../../src/evm/opcode-names.ts'
import { createTracer, traceTransaction } from '../../src/evm/tracers/index.ts'
import { TraceTooLarge } from '../../src/evm/tracers/tracer.ts'
import { InvalidTransaction } from '../../src/evm/types.ts'
import { WorldState } from '../../src/evm/world-state.ts'
import { stateReaderOf } from '../state-tests/world.ts'
import { runWithLibrary } from './library-oracle.ts'
import { generateScenario } from './scenario-generator.ts'

interface Entry { pc: number; op: string; gas: number; gasCost: number; depth: number; error?: string; stack: string[] }
interface Row { pc: number; op: string; gas: number; depth: number; stack: string[] }

function envNumber(name: string): number | undefined {
  const raw = process.env[name]
  return raw === undefined || raw.trim() === '' ? undefined : Number(raw)
}
const seed = (envNumber('STRUCTLOG_SEED') ?? Math.floor(Math.random() * 0x1_0000_0000)) >>> 0
const count = envNumber('STRUCTLOG_COUNT') ?? 200

const libraryRow = (s: InterpreterStep): Row => ({
  pc: s.pc, op: opcodeName(s.opcode.code), gas: Number(s.gasLeft), depth: s.depth + 1, stack: s.stack.map((w) => '0x' + w.toString(16)),
})

test(`struct logger steps equal the library's over ${count} random transactions (seed ${seed})`, { timeout: 600_000 }, async () => {
  console.log(`struct logger oracle: seed ${seed}, ${count} scenarios (STRUCTLOG_SEED=${seed} to rerun)`)
  let compared = 0
  let steps = 0
  let costs = 0
  let stops = 0
  let tooLarge = 0
  for (let i = 0; i < count; i++) {
    const s = generateScenario(seed, i)
    let ours: { failed: boolean; structLogs: Entry[] }
    let status: number
    try {
      const world = new WorldState(stateReaderOf(s.pre))
      const run = traceTransaction(createTracer(undefined), { world, block: s.block, rules: rulesFor(s.fork), tx: s.tx }, { deadline: Date.now() + 60_000 })
      ours = JSON.parse(JSON.stringify(run.trace)) as typeof ours
      status = run.result.status
    } catch (e) {
      if (e instanceof InvalidTransaction) continue
      // A scenario whose trace exceeds the tracer's size limit is refused by design (as geth's): not compared.
      if (e instanceof TraceTooLarge) {
        tooLarge++
        continue
      }
      throw e
    }
    const theirs: Row[] = []
    let libStatus: number
    try {
      libStatus = (await runWithLibrary(s.pre, s.block, s.fork, s.tx, (step) => theirs.push(libraryRow(step)))).result.status
    } catch (e) {
      if (e instanceof InvalidTransaction) continue
      throw e
    }
    if (libStatus !== status) continue
    compared++
    const where = `scenario ${s.id} (${s.fork}, seed ${seed})`
    const rows: Row[] = ours.structLogs.map((e) => ({ pc: e.pc, op: e.op, gas: e.gas, depth: e.depth, stack: e.stack }))
    // geth (and we) step the STOP past the end of code; the library ends the frame without a step
    const shown: Row[] = []
    for (const r of rows) {
      const t = theirs[shown.length]
      if (r.op === 'STOP' && !(t !== undefined && t.op === 'STOP' && t.pc === r.pc && t.depth === r.depth)) continue
      shown.push(r)
    }
    for (let j = 0; j < Math.min(shown.length, theirs.length); j++) {
      // the library shows every opcode its fork lacks as INVALID; geth names the byte (opcode-names.ts)
      const t = theirs[j]!.op === 'INVALID' ? { ...theirs[j]!, op: shown[j]!.op } : theirs[j]
      assert.deepStrictEqual(shown[j], t, `${where}: step ${j}`)
    }
    assert.equal(shown.length, theirs.length, `${where}: number of steps (last: ours ${JSON.stringify(shown.at(-1))}, library's ${JSON.stringify(theirs.at(-1))})`)
    stops += rows.length - shown.length
    steps += rows.length
    // a plain opcode's cost is the gas it took before the frame's next step (calls and creates hand gas on; halts end the frame)
    for (let j = 0; j + 1 < rows.length; j++) {
      const e = ours.structLogs[j]!
      if (e.error !== undefined || /CALL|CREATE/.test(e.op) || e.op === 'SELFDESTRUCT') continue
      const next = rows.slice(j + 1).find((r) => r.depth <= e.depth)
      if (next === undefined || next.depth !== e.depth) continue
      assert.equal(e.gasCost, e.gas - next.gas, `${where}: gasCost of step ${j} (${e.op})`)
      costs++
    }
  }
  console.log(`struct logger oracle: ${compared} transactions compared, ${steps} steps (${stops} STOPs past the code), ${costs} costs; ${tooLarge} over the trace size limit`)
  assert.ok(compared >= count / 3, `only ${compared} of ${count} scenarios were compared`)
})
