/**
 * The differential check: one scenario through our EVM (WorldState + executeTransaction + diff) and through
 * the library oracle (test/evm/library-oracle.ts), compared field by field: validity (both refuse or both
 * run), status, output, gas used (before and after refunds), refund, logs, created address, blob gas and the
 * whole post-state (every account's existence, balance, nonce, code and storage). The first field that
 * differs is the verdict; a difference can be shrunk (instructions dropped while the same field still
 * differs) and printed with the programs in hex and disassembled.
 *
 * The library's refusal reasons and halt reasons are in its own words, ours in geth's: they are shown in a
 * report, never compared.
 */

import { FORK_NAMES, rulesFor } from '../../src/evm/fork.ts'
import { PRECOMPILE_SINCE } from './precompile-inputs.ts'
import { InvalidTransaction, Status, type TxResult } from '../../src/evm/types.ts'
import { bytesToHex } from '../../src/primitives/hex.ts'
import { applyDiff, stateReaderOf, type AccountState, type WorldSnapshot } from '../state-tests/world.ts'
import { disassemble, instructions } from './opcode-table.ts'
import type { Scenario } from './scenario-generator.ts'

export type Outcome =
  | { readonly kind: 'invalid'; readonly reason: string }
  | { readonly kind: 'ran'; readonly result: TxResult; readonly post: WorldSnapshot }
  | { readonly kind: 'crash'; readonly error: string }

/** Our EVM's per-transaction deadline (a runaway loop becomes a crash, not a hang). */
const DEADLINE_MS = 20_000

type Ours = {
  WorldState: typeof import('../../src/evm/world-state.ts').WorldState
  executeTransaction: typeof import('../../src/evm/transaction.ts').executeTransaction
}
type Library = typeof import('./library-oracle.ts').runWithLibrary

let ours: Ours | undefined
let library: Library | undefined

/** Load both EVMs (dynamically, so a half-written module fails this run with its error, not the import graph). */
export async function loadEngines(): Promise<void> {
  if (ours === undefined) {
    const [world, transaction] = await Promise.all([import('../../src/evm/world-state.ts'), import('../../src/evm/transaction.ts')])
    ours = { WorldState: world.WorldState, executeTransaction: transaction.executeTransaction }
  }
  if (library === undefined) library = (await import('./library-oracle.ts')).runWithLibrary
}

export function runOurs(s: Scenario): Outcome {
  if (ours === undefined) throw new Error('loadEngines() first')
  try {
    const world = new ours.WorldState(stateReaderOf(s.pre))
    const result = ours.executeTransaction(world, s.block, rulesFor(s.fork), s.tx, { deadline: Date.now() + DEADLINE_MS })
    return { kind: 'ran', result, post: applyDiff(s.pre, world.diff()) }
  } catch (e) {
    if (e instanceof InvalidTransaction) return { kind: 'invalid', reason: e.reason }
    return { kind: 'crash', error: (e as Error).stack ?? String(e) }
  }
}

export async function runLibrary(s: Scenario): Promise<Outcome> {
  if (library === undefined) throw new Error('loadEngines() first')
  try {
    const run = await library(s.pre, s.block, s.fork, s.tx)
    let result = run.result
    // The library labels a failed precompile 'revert' while consuming all its gas; geth (and ours) call it a
    // halt. Only the label differs (gas and state agree), so a transaction straight to a failing precompile
    // is read as a halt.
    if (result.status === Status.Revert && s.tx.to !== undefined && isActivePrecompile(s.tx.to, s.fork) && result.output.length === 0) {
      result = { ...result, status: Status.Halt, haltReason: 'precompile failed' }
    }
    return { kind: 'ran', result, post: run.post }
  } catch (e) {
    // The library's runTx builds a pre-Byzantium receipt from a state root, which its SimpleStateManager
    // does not implement: the oracle cannot run Frontier to Spurious Dragon (counted as an oracle failure).
    if (e instanceof InvalidTransaction && !e.reason.includes('Method not implemented')) return { kind: 'invalid', reason: e.reason }
    return { kind: 'crash', error: (e as Error).stack ?? String(e) }
  }
}

function isActivePrecompile(address: bigint, fork: Scenario['fork']): boolean {
  const since = PRECOMPILE_SINCE.get(address)
  return since !== undefined && FORK_NAMES.indexOf(fork) >= FORK_NAMES.indexOf(since as typeof fork)
}

export interface Difference {
  /** The field: 'validity', 'status', 'gasUsed', 'state.balance', ... (what shrinking keeps constant). */
  readonly field: string
  readonly detail: string
}

const hex = (b: Uint8Array): string => bytesToHex(b)
const addr = (a: bigint): string => `0x${a.toString(16).padStart(40, '0')}`
const statusName = (s: Status): string => (s === Status.Success ? 'success' : s === Status.Revert ? 'revert' : 'halt')

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/** The first difference between our outcome and the library's, or undefined when they agree. */
export function firstDifference(our: Outcome, lib: Outcome, ignore: ReadonlySet<string> = NOTHING, isCreate = false): Difference | undefined {
  if (our.kind === 'crash') return { field: 'crash', detail: `our EVM threw: ${our.error}` }
  if (lib.kind === 'crash') return { field: 'oracle-crash', detail: `the library threw: ${lib.error}` }
  if (our.kind !== lib.kind) {
    const say = (o: Outcome): string => (o.kind === 'invalid' ? `refused (${o.reason})` : `ran (${o.kind === 'ran' ? statusName(o.result.status) : ''})`)
    return { field: 'validity', detail: `ours ${say(our)}, library ${say(lib)}` }
  }
  if (our.kind === 'invalid' || lib.kind === 'invalid') return undefined
  const a = our.result
  const b = lib.result
  const why = ` (halt reasons: ours ${a.haltReason ?? '-'}, library ${b.haltReason ?? '-'})`
  if (a.status !== b.status && !ignore.has('status')) return { field: 'status', detail: `ours ${statusName(a.status)}, library ${statusName(b.status)}${why}` }
  if (!sameBytes(a.output, b.output)) {
    // A create transaction's output: the library gives the deployed code (as geth's ExecutionResult does), ours nothing.
    const createOutput = isCreate && a.status === Status.Success && a.output.length === 0 && b.createdAddress !== undefined && sameBytes(b.output, lib.post.get(b.createdAddress)?.code ?? new Uint8Array(0))
    const field = createOutput ? 'output.create' : 'output'
    if (!ignore.has(field)) return { field, detail: `ours ${hex(a.output)}, library ${hex(b.output)}` }
  }
  // With the EIP-7623 floor deciding, the library's oracle gives intrinsic + execution gas, ours the floor.
  const floorOnly = a.gasUsed === b.gasUsed && a.gasUsedBeforeRefund === a.gasUsed && b.gasUsedBeforeRefund < b.gasUsed
  const beforeField = floorOnly ? 'gasUsedBeforeRefund.floor' : 'gasUsedBeforeRefund'
  const beforeDiffers = a.gasUsedBeforeRefund !== b.gasUsedBeforeRefund && !ignore.has(beforeField)
  const refundDiffers = a.refund !== b.refund && !ignore.has('refund')
  if (a.gasUsed !== b.gasUsed || beforeDiffers || refundDiffers) {
    const field = a.gasUsed !== b.gasUsed ? 'gasUsed' : beforeDiffers ? beforeField : 'refund'
    return {
      field,
      detail: `gas used: ours ${a.gasUsed} (before refund ${a.gasUsedBeforeRefund}, refund ${a.refund}), library ${b.gasUsed} (before refund ${b.gasUsedBeforeRefund}, refund ${b.refund})${why}`,
    }
  }
  if (ignore.has('logs')) {
    // not compared
  } else if (a.logs.length !== b.logs.length) return { field: 'logs', detail: `ours ${a.logs.length} logs, library ${b.logs.length}` }
  for (let i = 0; i < a.logs.length && !ignore.has('logs'); i++) {
    const x = a.logs[i]!
    const y = b.logs[i]!
    const same = x.address === y.address && x.topics.length === y.topics.length && x.topics.every((t, j) => t === y.topics[j]) && sameBytes(x.data, y.data)
    if (!same) {
      const show = (l: typeof x): string => `${addr(l.address)} [${l.topics.map((t) => t.toString(16)).join(', ')}] ${hex(l.data)}`
      return { field: 'logs', detail: `log ${i}: ours ${show(x)}, library ${show(y)}` }
    }
  }
  // A failed create transaction: the library still names the address (geth's receipt does too), ours not.
  const failedCreate = a.createdAddress === undefined && a.status !== Status.Success
  if ((a.createdAddress ?? 0n) !== (b.createdAddress ?? 0n) && !ignore.has(failedCreate ? 'createdAddress.failed' : 'createdAddress')) {
    return { field: failedCreate ? 'createdAddress.failed' : 'createdAddress', detail: `ours ${a.createdAddress === undefined ? '-' : addr(a.createdAddress)}, library ${b.createdAddress === undefined ? '-' : addr(b.createdAddress)}` }
  }
  if (a.blobGasUsed !== b.blobGasUsed) return { field: 'blobGasUsed', detail: `ours ${a.blobGasUsed}, library ${b.blobGasUsed}` }
  return ignore.has('state') ? undefined : stateDifference(our.post, lib.post)
}

const NOTHING: ReadonlySet<string> = new Set()

function stateDifference(ours: WorldSnapshot, lib: WorldSnapshot): Difference | undefined {
  const addresses = [...new Set([...ours.keys(), ...lib.keys()])].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0))
  for (const address of addresses) {
    const x = ours.get(address)
    const y = lib.get(address)
    if (x === undefined || y === undefined) {
      const show = (s: AccountState | undefined): string => (s === undefined ? 'absent' : `present (nonce ${s.nonce}, balance ${s.balance}, code ${s.code.length} bytes, ${s.storage.size} slots)`)
      return { field: 'state.existence', detail: `${addr(address)}: ours ${show(x)}, library ${show(y)}` }
    }
    if (x.balance !== y.balance) return { field: 'state.balance', detail: `${addr(address)}: ours ${x.balance}, library ${y.balance} (ours - library = ${x.balance - y.balance})` }
    if (x.nonce !== y.nonce) return { field: 'state.nonce', detail: `${addr(address)}: ours ${x.nonce}, library ${y.nonce}` }
    if (!sameBytes(x.code, y.code)) return { field: 'state.code', detail: `${addr(address)}: ours ${hex(x.code)}, library ${hex(y.code)}` }
    const slots = new Set([...x.storage.keys(), ...y.storage.keys()])
    for (const slot of [...slots].sort((p, q) => (p < q ? -1 : p > q ? 1 : 0))) {
      const u = x.storage.get(slot) ?? 0n
      const v = y.storage.get(slot) ?? 0n
      if (u !== v) return { field: 'state.storage', detail: `${addr(address)} slot 0x${slot.toString(16)}: ours 0x${u.toString(16)}, library 0x${v.toString(16)}` }
    }
  }
  return undefined
}

export interface Checked {
  readonly scenario: Scenario
  readonly ours: Outcome
  readonly library: Outcome
  readonly difference: Difference | undefined
}

/** Milliseconds spent in each EVM so far (the CLI prints them). */
export const timings = { ours: 0, library: 0 }

/**
 * Fields left out of every comparison: differences known to be the oracle's, not ours (the CLI's --strict
 * empties it, --ignore adds to it):
 * - gasUsedBeforeRefund.floor: when the EIP-7623 floor decides, the oracle reports intrinsic + execution gas;
 *   geth's ExecutionResult.MaxUsedGas (and ours) is raised to the floor.
 */
export const ignored = new Set<string>(['gasUsedBeforeRefund.floor'])

export async function check(s: Scenario): Promise<Checked> {
  const t0 = performance.now()
  const lib = await runLibrary(s)
  const t1 = performance.now()
  const our = runOurs(s)
  const t2 = performance.now()
  timings.library += t1 - t0
  timings.ours += t2 - t1
  return { scenario: s, ours: our, library: lib, difference: firstDifference(our, lib, ignored, s.tx.to === undefined) }
}

// ---- shrinking ----

/** The code's instructions as [start, end) byte ranges (PUSH data kept with its PUSH). */
function instructionRanges(code: Uint8Array): [number, number][] {
  const out: [number, number][] = []
  for (const { pc, byte } of instructions(code)) out.push([pc, Math.min(code.length, pc + (byte >= 0x60 && byte <= 0x7f ? byte - 0x5e : 1))])
  return out
}

function withCode(s: Scenario, address: bigint | 'initcode', code: Uint8Array): Scenario {
  if (address === 'initcode') return { ...s, tx: { ...s.tx, data: code } }
  const pre = new Map(s.pre)
  pre.set(address, { ...pre.get(address)!, code })
  return { ...s, pre }
}

function codeOf(s: Scenario, address: bigint | 'initcode'): Uint8Array {
  return address === 'initcode' ? s.tx.data : s.pre.get(address)!.code
}

/**
 * Drop instructions (halves, quarters, ... single ones) from every program, and whole programs, while the
 * same field still differs. Bounded by `budget` checks.
 */
export async function shrink(checked: Checked, budget = 400): Promise<Checked> {
  const field = checked.difference?.field
  if (field === undefined) return checked
  let best = checked
  let left = budget
  const attempt = async (candidate: Scenario): Promise<boolean> => {
    if (left-- <= 0) return false
    const c = await check(candidate)
    if (c.difference?.field !== field) return false
    best = c
    return true
  }
  const programs: (bigint | 'initcode')[] = [...best.scenario.pre].filter(([, a]) => a.code.length > 0).map(([address]) => address)
  if (best.scenario.tx.to === undefined) programs.push('initcode')
  // whole programs first
  for (const p of programs) {
    if (codeOf(best.scenario, p).length > 0) await attempt(withCode(best.scenario, p, new Uint8Array(0)))
  }
  for (const p of programs) {
    let chunk = Math.max(1, instructionRanges(codeOf(best.scenario, p)).length >> 1)
    while (chunk >= 1 && left > 0) {
      let i = 0
      let ranges = instructionRanges(codeOf(best.scenario, p))
      while (i < ranges.length && left > 0) {
        const code = codeOf(best.scenario, p)
        const from = ranges[i]![0]
        const to = ranges[Math.min(ranges.length, i + chunk) - 1]![1]
        const cut = new Uint8Array(code.length - (to - from))
        cut.set(code.subarray(0, from), 0)
        cut.set(code.subarray(to), from)
        if (await attempt(withCode(best.scenario, p, cut))) ranges = instructionRanges(codeOf(best.scenario, p))
        else i += chunk
      }
      if (chunk === 1) break
      chunk >>= 1
    }
  }
  return best
}

// ---- reporting ----

function describeOutcome(o: Outcome): string {
  if (o.kind === 'invalid') return `refused: ${o.reason}`
  if (o.kind === 'crash') return `threw: ${o.error.split('\n').slice(0, 4).join(' | ')}`
  const r = o.result
  return `${statusName(r.status)}${r.haltReason !== undefined ? ` (${r.haltReason})` : ''}, gas ${r.gasUsed} (before refund ${r.gasUsedBeforeRefund}, refund ${r.refund}), ${r.logs.length} logs, output ${hex(r.output).slice(0, 80)}`
}

export function formatScenario(s: Scenario, maxLines = 120): string {
  const t = s.tx
  const lines: string[] = []
  lines.push(`scenario ${s.id}, fork ${s.fork}`)
  lines.push(`block: number ${s.block.number}, timestamp ${s.block.timestamp}, coinbase ${addr(s.block.coinbase)}, gas limit ${s.block.gasLimit}, base fee ${s.block.baseFee}, chain ${s.block.chainId}`)
  const fees = t.gasPrice !== undefined ? `gas price ${t.gasPrice}` : `max fee ${t.maxFeePerGas}, priority ${t.maxPriorityFeePerGas}`
  lines.push(`tx: type ${t.type}, from ${addr(t.from)}, nonce ${t.nonce}, to ${t.to === undefined ? '(create)' : addr(t.to)}, value ${t.value}, gas ${t.gasLimit}, ${fees}`)
  if (t.to !== undefined) lines.push(`  data ${hex(t.data)}`)
  if (t.accessList !== undefined && t.accessList.length > 0) lines.push(`  access list ${t.accessList.map((e) => `${addr(e.address)}[${e.storageKeys.map((k) => k.toString(16)).join(',')}]`).join(' ')}`)
  if (t.authorizationList !== undefined) lines.push(`  authorizations ${t.authorizationList.map((a) => `chain ${a.chainId} -> ${addr(a.address)} nonce ${a.nonce}`).join('; ')}`)
  if (t.blobVersionedHashes !== undefined) lines.push(`  ${t.blobVersionedHashes.length} blob hashes, max fee per blob gas ${t.maxFeePerBlobGas}`)
  for (const [address, a] of s.pre) {
    const storage = [...a.storage].map(([k, v]) => `${k.toString(16)}=${v.toString(16)}`).join(' ')
    lines.push(`pre ${addr(address)}: nonce ${a.nonce}, balance ${a.balance}${storage ? `, storage ${storage}` : ''}${a.code.length ? `, code ${a.code.length} bytes` : ''}`)
  }
  const programs: [string, Uint8Array][] = [...s.pre].filter(([, a]) => a.code.length > 0).map(([address, a]) => [addr(address), a.code])
  if (t.to === undefined) programs.push(['initcode (tx data)', t.data])
  for (const [name, code] of programs) {
    lines.push(`code of ${name}: ${hex(code)}`)
    lines.push(disassemble(code, maxLines).replace(/^/gm, '    '))
  }
  return lines.join('\n')
}

export function formatDifference(c: Checked): string {
  return [
    `DIFFERENCE in ${c.difference?.field}: ${c.difference?.detail}`,
    `  ours:    ${describeOutcome(c.ours)}`,
    `  library: ${describeOutcome(c.library)}`,
    formatScenario(c.scenario),
  ].join('\n')
}
