/**
 * The contract web of the EVM benchmark's eth_simulateV1 row (bench/evm-web.ts) and its check
 * (bench/evm-web-reference.ts): the web is the same for the same seed, every contract's code is well formed
 * (defined opcodes, every jump to a JUMPDEST), calls through it end as the row claims (success, the frames the
 * contracts count are the frames the EVM entered, within the budget, reverts, logs and every call kind), the
 * calldata changes the path, a peer's answer that differs from the reference in any compared field is named,
 * and the row's own check request does the work the row's name claims.
 */

import assert from 'node:assert/strict'
import { test } from 'node:test'
import { analyse } from '../../src/evm/code-analysis.ts'
import { definedOn, instructions, OPCODES } from '../evm/opcode-table.ts'
import { WEB_BASE, generateWeb, webCalldata, webSeedWord } from '../../bench/evm-web.ts'
import { compareWebAnswer, runWebReference, type WebCallOutcome } from '../../bench/evm-web-reference.ts'
import { contractWebCase, contractWebNotes } from '../../bench/evm-web-case.ts'

const SENDER = 0x5e7dn
const JUMP = 0x56
const JUMPI = 0x57
const PUSH2 = 0x61

function callsFor(contracts: number, salt: number, budget: number): { to: bigint; data: string; gas: bigint }[] {
  return Array.from({ length: contracts }, (_, j) => ({
    to: WEB_BASE + BigInt(j),
    data: webCalldata({ x: webSeedWord(salt, 0, j), budget, depth: 24 }),
    gas: 5_000_000n,
  }))
}

test('the same seed gives the same web; another seed another', () => {
  const a = generateWeb({ seed: 7, contracts: 10 })
  const b = generateWeb({ seed: 7, contracts: 10 })
  const c = generateWeb({ seed: 8, contracts: 10 })
  assert.equal(a.length, 10)
  assert.deepEqual(a, b)
  assert.notDeepEqual(a.map((w) => w.code), c.map((w) => w.code))
  assert.deepEqual(a.map((w) => w.address), a.map((_, i) => WEB_BASE + BigInt(i)))
})

test('every contract is well formed: defined opcodes, whole pushes, each jump a PUSH2 of a JUMPDEST', () => {
  for (const seed of [1, 20, 99]) {
    for (const c of generateWeb({ seed, contracts: 12 })) {
      const jumpdests = analyse(c.code).jumpdests
      let previous: { pc: number; byte: number } | undefined
      let jumps = 0
      for (const ins of instructions(c.code)) {
        const info = OPCODES[ins.byte]
        assert.ok(info !== undefined && definedOn(info, 'prague'), `seed ${seed} ${c.address}: byte 0x${ins.byte.toString(16)} at ${ins.pc}`)
        if (ins.byte >= 0x60 && ins.byte <= 0x7f) assert.ok(ins.pc + ins.byte - 0x5f < c.code.length, `a push cut by the end of code at ${ins.pc}`)
        if (ins.byte === JUMP || ins.byte === JUMPI) {
          jumps++
          assert.equal(previous?.byte, PUSH2, `seed ${seed} ${c.address}: the jump at ${ins.pc} takes a pushed label`)
          const target = (c.code[previous!.pc + 1]! << 8) | c.code[previous!.pc + 2]!
          assert.equal(jumpdests[target], 1, `seed ${seed} ${c.address}: the jump at ${ins.pc} goes to ${target}, not a JUMPDEST`)
        }
        previous = ins
      }
      assert.ok(jumps >= 5, `a contract branches (${jumps} jumps)`)
      assert.ok(c.storage.size >= 2)
    }
  }
})

test('calls through the web succeed, within their budget, and the contracts count the frames the EVM entered', () => {
  const web = generateWeb({ seed: 20, contracts: 12 })
  const budget = 1_500
  const out = runWebReference(web, SENDER, callsFor(12, 3, budget))
  for (const [i, r] of out.entries()) {
    assert.equal(r.status, '0x1', `call ${i}`)
    assert.equal(BigInt(r.returnData.slice(0, 66)), BigInt(r.frames), `call ${i}: counted frames`)
    assert.ok(r.frames <= budget && r.frames > budget / 2, `call ${i}: ${r.frames} frames for a budget of ${budget}`)
  }
  assert.ok(out.some((r) => r.undone > 0), 'some sub-calls reverted')
  assert.ok(out.some((r) => r.logs.length > 0), 'some frames logged')
  for (const kind of ['call', 'staticcall', 'delegatecall'] as const) assert.ok(out.every((r) => r.kinds[kind] > 0), `every call made a ${kind}`)
})

test('the calldata changes the path taken', () => {
  const web = generateWeb({ seed: 20, contracts: 12 })
  // the same entry contract and budget, different state words
  const calls = Array.from({ length: 6 }, (_, i) => ({ to: WEB_BASE, data: webCalldata({ x: webSeedWord(11, i, 0), budget: 400, depth: 24 }), gas: 5_000_000n }))
  const out = runWebReference(web, SENDER, calls)
  assert.ok(new Set(out.map((r) => r.gasUsed)).size > 1, `gas used: ${out.map((r) => r.gasUsed).join(', ')}`)
  assert.ok(new Set(out.map((r) => `${r.frames}/${r.undone}/${r.kinds.call}/${r.kinds.staticcall}`)).size > 1, 'the frame trees differ')
})

/** A peer's eth_simulateV1 answer carrying exactly the reference's outcome (with fields a peer adds). */
function answerOf(ref: readonly WebCallOutcome[]): { calls: Record<string, unknown>[] }[] {
  return [{
    calls: ref.map((r) => ({
      status: r.status,
      gasUsed: `0x${r.gasUsed.toString(16)}`,
      returnData: r.returnData,
      logs: r.logs.map((l, i) => ({ address: l.address, topics: [...l.topics], data: l.data, logIndex: `0x${i.toString(16)}`, removed: false })),
    })),
  }]
}

test('a peer answer is held against the reference field by field', () => {
  const web = generateWeb({ seed: 20, contracts: 12 })
  const ref = runWebReference(web, SENDER, callsFor(12, 5, 600))
  const logged = ref.findIndex((r) => r.logs.length > 0)
  assert.ok(logged >= 0)
  assert.deepEqual(compareWebAnswer(ref, answerOf(ref)), [])

  const cases: [string, (a: { calls: Record<string, unknown>[] }[]) => void, RegExp][] = [
    ['gasUsed', (a) => (a[0]!.calls[2]!.gasUsed = `0x${(ref[2]!.gasUsed + 1n).toString(16)}`), /^call 2: gasUsed/],
    ['status', (a) => (a[0]!.calls[1]!.status = '0x0'), /^call 1: status/],
    ['returnData', (a) => (a[0]!.calls[3]!.returnData = `${ref[3]!.returnData.slice(0, -1)}0`), /^call 3: returnData/],
    ['a log topic', (a) => ((a[0]!.calls[logged]!.logs as { topics: string[] }[])[0]!.topics[1] = `0x${'0'.repeat(64)}`), new RegExp(`^call ${logged}: log 0`)],
    ['a missing log', (a) => (a[0]!.calls[logged]!.logs as unknown[]).pop(), new RegExp(`^call ${logged}: \\d+ logs`)],
    ['a missing call', (a) => a[0]!.calls.pop(), /call results/],
  ]
  for (const [what, change, expected] of cases) {
    const answer = answerOf(ref)
    change(answer)
    const diffs = compareWebAnswer(ref, answer)
    assert.equal(diffs.length, 1, `${what}: ${diffs.join('; ')}`)
    assert.match(diffs[0]!, expected, what)
  }
  assert.match(compareWebAnswer(ref, [])[0]!, /one simulated block/)
})

test("the row's own check request does the work its name claims (the row refuses to build otherwise)", () => {
  const row = contractWebCase()
  const m = /~(\d+(?:\.\d+)?) Mgas; call 1 ~([\d,]+) frames/.exec(row.name)
  assert.ok(m !== null, row.name)
  assert.ok(Number(m[1]) >= 10, row.name)
  assert.ok(Number(m[2]!.replace(/,/g, '')) >= 10_000, row.name)
  assert.equal(row.unit, 'req/s')
  assert.equal(row.concurrency, 2)
  assert.match(contractWebNotes().join('\n'), /frames reverted/)
})
