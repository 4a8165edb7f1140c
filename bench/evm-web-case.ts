/**
 * The "evm" scenario's row of random programs calling each other (issue 20): one eth_simulateV1 request is one
 * block of 12 calls into a web of 12 random contracts (bench/evm-web.ts), installed at fixed addresses by the
 * block's state overrides (code and storage). The first call has a budget of 12,000 frames (it spans ~10,000
 * frames, ~11 Mgas), the 11 others 64 each (~55 frames, most of their gas the cold accesses of a new
 * transaction). Every request draws new state words for its 12 calls (the entry contract too), so no result
 * cache answers it and the path through the web (fan-out, targets, call kinds, reverts, slots, logs) differs
 * request to request, while the contracts and the budgets keep the work about the same.
 *
 * The check runs one fixed request through our EVM in this process (bench/evm-web-reference.ts), asserts the
 * calls did the work (every call succeeded, the first spans ≥ 10,000 frames and the frames the contracts
 * counted are those the EVM entered, ≥ 10 Mgas in all, reverted sub-calls, logs, every call kind), then holds
 * each peer's answer to it call by call: status, gasUsed, returnData, logs.
 */

import { rpcBody, rpcCall } from './rpc.ts'
import type { BenchCase, CaseRun } from './scenario.ts'
import { WEB_BASE, generateWeb, webCalldata, webSeedWord, type WebContract } from './evm-web.ts'
import { compareWebAnswer, runWebReference, type WebCallOutcome } from './evm-web-reference.ts'

const SEED = 20
const CONTRACTS = 12
const BUDGETS: readonly number[] = [12_000, ...Array<number>(11).fill(64)]
const DEPTH = 24
const BIG_GAS = 16_000_000n
const SMALL_GAS = 2_000_000n
const SENDER = 0xc0b05e7dn
/** Salt of the check's request; the measured requests use 1 (and numbers 1 … DISTINCT). */
const CHECK_SALT = 0
const DISTINCT = 1_000
const QUICK_DISTINCT = 200
const WARMUP_MS = 3_000
const FLOOR = { bigFrames: 10_000, gas: 10_000_000n }

const hexAddress = (v: bigint): string => `0x${v.toString(16).padStart(40, '0')}`
const hexWord = (v: bigint): string => `0x${v.toString(16).padStart(64, '0')}`

interface WebRow {
  readonly web: readonly WebContract[]
  readonly overrides: Record<string, { code: string; state: Record<string, string> }>
  readonly reference: readonly WebCallOutcome[]
}

function callsOf(salt: number, request: number): { to: bigint; data: string; gas: bigint }[] {
  return BUDGETS.map((budget, j) => {
    const x = webSeedWord(salt, request, j)
    return { to: WEB_BASE + (x % BigInt(CONTRACTS)), data: webCalldata({ x, budget, depth: DEPTH }), gas: j === 0 ? BIG_GAS : SMALL_GAS }
  })
}

function params(row: WebRow, salt: number, request: number): unknown[] {
  const calls = callsOf(salt, request).map((c) => ({ from: hexAddress(SENDER), to: hexAddress(c.to), input: c.data, gas: `0x${c.gas.toString(16)}` }))
  return [{ blockStateCalls: [{ stateOverrides: row.overrides, calls }] }, 'latest']
}

let built: WebRow | undefined

/** The web, its overrides and the reference answer to the check's request (built once: ~1 s). */
function webRow(): WebRow {
  if (built !== undefined) return built
  const web = generateWeb({ seed: SEED, contracts: CONTRACTS })
  const overrides: WebRow['overrides'] = {}
  for (const c of web) {
    const state: Record<string, string> = {}
    for (const [slot, value] of c.storage) state[hexWord(slot)] = hexWord(value)
    overrides[hexAddress(c.address)] = { code: `0x${Buffer.from(c.code).toString('hex')}`, state }
  }
  const reference = runWebReference(web, SENDER, callsOf(CHECK_SALT, 0))
  built = { web, overrides, reference }
  return built
}

/** What the reference shows the calls do; throws when they do not do the work the row claims. */
function workOf(reference: readonly WebCallOutcome[]): { gas: bigint; bigFrames: number; smallFrames: number; undone: number; logs: number } {
  const problems: string[] = []
  reference.forEach((r, i) => {
    if (r.status !== '0x1') problems.push(`call ${i} failed`)
    const counted = BigInt(r.returnData.slice(0, 66))
    if (counted !== BigInt(r.frames)) problems.push(`call ${i}: the contracts counted ${counted} frames, the EVM entered ${r.frames} (a sub-call halted?)`)
  })
  const gas = reference.reduce((s, r) => s + r.gasUsed, 0n)
  const big = reference[0]!
  const undone = reference.reduce((s, r) => s + r.undone, 0)
  const logs = reference.reduce((s, r) => s + r.logs.length, 0)
  if (big.frames < FLOOR.bigFrames) problems.push(`the first call spans ${big.frames} frames, fewer than ${FLOOR.bigFrames}`)
  if (gas < FLOOR.gas) problems.push(`the calls use ${gas} gas, less than ${FLOOR.gas}`)
  if (undone === 0) problems.push('no sub-call reverted')
  if (logs === 0) problems.push('no call logged')
  for (const [kind, n] of Object.entries(big.kinds)) if (n === 0) problems.push(`the first call made no ${kind}`)
  if (problems.length > 0) throw new Error(`the contract web does not do the work the row claims: ${problems.join('; ')}`)
  const smallFrames = reference.slice(1).reduce((s, r) => s + r.frames, 0) / (reference.length - 1)
  return { gas, bigFrames: big.frames, smallFrames, undone, logs }
}

const round2 = (v: number): string => Number(v.toPrecision(2)).toLocaleString('en')

export function contractWebCase(): BenchCase {
  const row = webRow()
  const work = workOf(row.reference)
  return {
    name: `EVM: 12 calls into a web of ${CONTRACTS} random contracts calling each other (~${(Number(work.gas) / 1e6).toFixed(1)} Mgas; call 1 ~${round2(work.bigFrames)} frames, 11 calls ~${Math.round(work.smallFrames)}), one eth_simulateV1 (distinct calldata)`,
    unit: 'req/s',
    concurrency: 2,
    // A cold execution worker's first request of this row takes seconds (the interpreter and the simulation
    // path tiering up over 10,000 frames): both workers warm up before the window, even in a --quick run.
    warmupMs: WARMUP_MS,
    bodies: (run: CaseRun) => Array.from({ length: run.quick ? QUICK_DISTINCT : DISTINCT }, (_, i) => rpcBody(i + 1, 'eth_simulateV1', params(row, 1, i + 1))),
    check: async (run: CaseRun) => {
      const answer = await rpcCall<unknown>(run.node.url, 'eth_simulateV1', params(row, CHECK_SALT, 0), 120_000)
      const diffs = compareWebAnswer(row.reference, answer)
      if (diffs.length > 0) throw new Error(`differs from our EVM run in-process (${diffs.length} differences): ${diffs.slice(0, 4).join('; ')}`)
    },
  }
}

export function contractWebNotes(): string[] {
  const row = webRow()
  const w = workOf(row.reference)
  const sizes = row.web.map((c) => c.code.length)
  return [
    `contract web: ${CONTRACTS} random contracts (seed ${SEED}, ${Math.min(...sizes)}-${Math.max(...sizes)} bytes of code, 2-4 pre-set slots each) at ` +
      `${hexAddress(WEB_BASE)}+i by state override; each frame does random arithmetic, loops, memory, KECCAK256, SLOAD (and, outside a static call, ` +
      `sometimes SSTORE and LOG2), then calls 1-4 children (CALL, STATICCALL or DELEGATECALL, any contract, itself included, as its calldata says) ` +
      `and sometimes reverts (its caller goes on). The check request: ${w.gas.toLocaleString('en')} gas, call 1 ${w.bigFrames.toLocaleString('en')} frames ` +
      `(budget ${BUDGETS[0]!.toLocaleString('en')}), the 11 others ~${Math.round(w.smallFrames)} frames (budget ${BUDGETS[1]}), ${w.undone.toLocaleString('en')} frames reverted, ` +
      `${w.logs} logs; each answer is checked call by call (status, gasUsed, returnData, logs) against our EVM run in-process. ` +
      `Mgas/s = req/s × ${(Number(w.gas) / 1e6).toFixed(1)}; frames/s ≈ req/s × ${Math.round(w.bigFrames + 11 * w.smallFrames).toLocaleString('en')}. ` +
      `Warm-up ${WARMUP_MS / 1000} s for this row whatever the run's (a cold worker's first request takes seconds).`,
  ]
}
