/**
 * Runs the state-test corpus through an engine (our EVM, or the library oracle) and checks every post entry
 * of the forks we support, as geth's state-test runner does:
 *
 * - an entry with expectException: the engine must refuse the transaction (InvalidTransaction) for the
 *   expected reason (exceptions.ts), or the transaction must be unbuildable (TxBuildError: a field no
 *   transaction can hold) where the expected exception allows that; the entry's `hash` must then be the
 *   untouched pre-state's root.
 * - any other entry: the engine must accept it; the root of the whole post-state must equal `hash`, and
 *   keccak256(rlp(logs)) must equal `logs`.
 * - after an accepted transaction the coinbase is touched with a zero reward, as geth's runner does
 *   (AddBalance(coinbase, 0) before the commit): from Spurious Dragon on an empty coinbase is then deleted,
 *   before it an absent coinbase is created empty (unless the transaction self-destructed it).
 *
 * An engine maps (pre-state, block, fork, transaction) to the post-state and logs, throwing
 * InvalidTransaction for a refused transaction. Failures are collected, never thrown, so one run reports all.
 */

import { InvalidTransaction, type Log, type TxInput, type BlockEnv } from '../../src/evm/types.ts'
import { rulesFor, type ForkName } from '../../src/evm/fork.ts'
import { keccak256 } from '../../src/primitives/keccak.ts'
import { bigIntToFixedBytes, bytesToHex } from '../../src/primitives/hex.ts'
import { encodeRlp } from '../../src/primitives/rlp-encode.ts'
import type { Corpus, FixtureCase, FixturePost } from './fixtures.ts'
import { exceptionMismatch } from './exceptions.ts'
import { FIXTURE_FORKS, TxBuildError, buildBlockEnv, buildPreState, buildTxInput, encodedType } from './build.ts'
import { isEmptyAccount, stateRootOf, type AccountState, type WorldSnapshot } from './world.ts'

export interface EngineRun {
  readonly post: WorldSnapshot
  readonly logs: readonly Log[]
}

export type Engine = (pre: WorldSnapshot, block: BlockEnv, fork: ForkName, tx: TxInput) => EngineRun | Promise<EngineRun>

export type FailureKind = 'root' | 'logs' | 'exception' | 'reason' | 'rejected' | 'crash'

export interface CheckFailure {
  readonly file: string
  readonly caseName: string
  readonly fork: string
  readonly indexes: FixturePost['indexes']
  readonly kinds: readonly FailureKind[]
  readonly detail: string
}

export interface ForkTally {
  passed: number
  total: number
}

export interface CorpusReport {
  readonly tallies: Map<string, ForkTally>
  readonly failures: CheckFailure[]
  /** Post entries under the fixture name Constantinople, run as Petersburg. */
  constantinopleAsPetersburg: number
  /** Post entries of fork names we do not run, by name. */
  readonly skippedForks: Map<string, number>
  /** Expected exceptions met by an unbuildable transaction rather than by the engine. */
  unbuildable: number
  /** Slow files (isSlowFile) left out of this run. */
  readonly slowSkipped: string[]
  files: number
  cases: number
  elapsedMs: number
}

/**
 * Files left out unless asked for (includeSlow): stTimeConsuming's CALLBlake2f_MaxRounds calls BLAKE2F with
 * 2^32 - 1 rounds (10^10 gas: hours of hashing in JavaScript), and the vmPerformance loops, which geth also
 * leaves out of its short runs (a minute or more each here).
 */
export function isSlowFile(file: string): boolean {
  return file === 'stTimeConsuming/CALLBlake2f_MaxRounds.json' || file.startsWith('VMTests/vmPerformance/loop')
}

export interface RunOptions {
  readonly engine: Engine
  /** The fixtures to run (fixtures.ts openCorpus). */
  readonly corpus: Corpus
  /** Also run the slow files (isSlowFile). */
  readonly includeSlow?: boolean
  /** Check a refusal's reason (default true); the library oracle refuses in its own words, not geth's. */
  readonly checkReasons?: boolean
  /** Only files whose relative path (or case name) contains this. */
  readonly filter?: string
  /** Run only files i with i % shardCount === shard (of the filtered, sorted list). */
  readonly shard?: { readonly index: number; readonly count: number }
  /** Called before each file. */
  readonly onProgress?: (file: string) => void
}

export function logsHash(logs: readonly Log[]): string {
  const items = logs.map((log) => [bigIntToFixedBytes(log.address, 20), log.topics.map((t) => bigIntToFixedBytes(t, 32)), log.data])
  return bytesToHex(keccak256(encodeRlp(items)))
}

/** geth's runner touches the coinbase with a zero reward after an accepted transaction. */
function touchCoinbase(post: WorldSnapshot, pre: WorldSnapshot, coinbase: bigint, fork: ForkName): WorldSnapshot {
  const account = post.get(coinbase)
  if (rulesFor(fork).spuriousDragon) {
    if (account === undefined || !isEmptyAccount(account)) return post
    const out = new Map(post)
    out.delete(coinbase)
    return out
  }
  if (account !== undefined) return post
  // Before Spurious Dragon only a SELFDESTRUCT deletes an account, and a self-destructed coinbase stays deleted.
  if (pre.has(coinbase)) return post
  const out = new Map<bigint, AccountState>(post)
  out.set(coinbase, { nonce: 0n, balance: 0n, code: new Uint8Array(0), storage: new Map() })
  return out
}

const preRoots = new WeakMap<FixtureCase, string>()

function preRootOf(c: FixtureCase, pre: WorldSnapshot): string {
  let root = preRoots.get(c)
  if (root === undefined) {
    root = bytesToHex(stateRootOf(pre))
    preRoots.set(c, root)
  }
  return root
}

/**
 * A refused transaction (`reason` undefined: one no encoding holds) against an entry that expects a refusal:
 * for the expected reason, and leaving the pre-state's root.
 */
function refusalOutcome(c: FixtureCase, pre: WorldSnapshot, post: FixturePost, reason: string | undefined, checkReason: boolean): { kinds: FailureKind[]; detail: string } {
  const kinds: FailureKind[] = []
  const details: string[] = []
  const mismatch = checkReason ? exceptionMismatch(post.expectException!, reason) : undefined
  if (mismatch !== undefined) {
    kinds.push('reason')
    details.push(mismatch)
  }
  if (post.hash.toLowerCase() !== preRootOf(c, pre)) {
    kinds.push('root')
    details.push(`pre-state root ${preRootOf(c, pre)} != ${post.hash}`)
  }
  return { kinds, detail: details.join('; ') }
}

async function checkEntry(engine: Engine, c: FixtureCase, pre: WorldSnapshot, forkName: ForkName, post: FixturePost, checkReason: boolean): Promise<{ kinds: FailureKind[]; detail: string; unbuildable: boolean }> {
  const block = buildBlockEnv(c.env, forkName)
  let tx: TxInput
  try {
    tx = buildTxInput(c.transaction, post.indexes)
  } catch (e) {
    if (!(e instanceof TxBuildError)) return { kinds: ['crash'], detail: `building the transaction: ${(e as Error).stack}`, unbuildable: false }
    if (post.expectException === undefined) return { kinds: ['crash'], detail: `unbuildable transaction: ${e.message}`, unbuildable: false }
    return { ...refusalOutcome(c, pre, post, undefined, checkReason), unbuildable: true }
  }
  if (encodedType(post.txbytes) !== tx.type) return { kinds: ['crash'], detail: `built a type ${tx.type} transaction, txbytes hold type ${encodedType(post.txbytes)}`, unbuildable: false }
  let run: EngineRun
  try {
    run = await engine(pre, block, forkName, tx)
  } catch (e) {
    if (e instanceof InvalidTransaction) {
      if (post.expectException === undefined) return { kinds: ['rejected'], detail: `rejected: ${e.reason}`, unbuildable: false }
      return { ...refusalOutcome(c, pre, post, e.reason, checkReason), unbuildable: false }
    }
    return { kinds: ['crash'], detail: String((e as Error).stack ?? e).split('\n').slice(0, 4).join(' | '), unbuildable: false }
  }
  if (post.expectException !== undefined) return { kinds: ['exception'], detail: `accepted, expected ${post.expectException}`, unbuildable: false }
  const finalState = touchCoinbase(run.post, pre, block.coinbase, forkName)
  const kinds: FailureKind[] = []
  const details: string[] = []
  const root = bytesToHex(stateRootOf(finalState))
  if (root !== post.hash.toLowerCase()) {
    kinds.push('root')
    details.push(`root ${root} != ${post.hash}`)
  }
  const logs = logsHash(run.logs)
  if (logs !== post.logs.toLowerCase()) {
    kinds.push('logs')
    details.push(`logs ${logs} != ${post.logs} (${run.logs.length} logs)`)
  }
  return { kinds, detail: details.join('; '), unbuildable: false }
}

/** The inputs of one post entry (for re-running a failure through another engine). */
export function entryInputs(corpus: Corpus, file: string, caseName: string, fixtureFork: string, indexes: FixturePost['indexes']) {
  const c = corpus.loadFixture(file)[caseName]!
  const fork = FIXTURE_FORKS[fixtureFork]!
  return { pre: buildPreState(c.pre), block: buildBlockEnv(c.env, fork), fork, tx: buildTxInput(c.transaction, indexes) }
}

/** Where two post-states differ: one line per account field or slot. */
export function describeDifferences(ours: WorldSnapshot, reference: WorldSnapshot): string[] {
  const out: string[] = []
  const hex = (a: bigint) => `0x${a.toString(16).padStart(40, '0')}`
  for (const address of new Set([...ours.keys(), ...reference.keys()])) {
    const a = ours.get(address)
    const b = reference.get(address)
    if (a === undefined || b === undefined) {
      out.push(`${hex(address)}: ${a === undefined ? 'absent' : 'present'} here, ${b === undefined ? 'absent' : 'present'} in the reference`)
      continue
    }
    if (a.nonce !== b.nonce) out.push(`${hex(address)} nonce ${a.nonce} != ${b.nonce}`)
    if (a.balance !== b.balance) out.push(`${hex(address)} balance ${a.balance} != ${b.balance}`)
    if (bytesToHex(a.code) !== bytesToHex(b.code)) out.push(`${hex(address)} code ${bytesToHex(a.code).slice(0, 40)}… != ${bytesToHex(b.code).slice(0, 40)}…`)
    for (const slot of new Set([...a.storage.keys(), ...b.storage.keys()])) {
      const x = a.storage.get(slot) ?? 0n
      const y = b.storage.get(slot) ?? 0n
      if (x !== y) out.push(`${hex(address)} slot 0x${slot.toString(16)}: 0x${x.toString(16)} != 0x${y.toString(16)}`)
    }
  }
  return out
}

/** The fixture files a run covers. */
export function selectFiles(corpus: Corpus, filter: string | undefined, shard: RunOptions['shard'], includeSlow = false): string[] {
  let files = corpus.fixtureFiles().filter((f) => includeSlow || !isSlowFile(f))
  if (filter !== undefined && filter !== '') {
    files = files.filter((f) => {
      if (f.includes(filter)) return true
      return Object.keys(corpus.loadFixture(f)).some((name) => name.includes(filter))
    })
  }
  if (shard !== undefined) files = files.filter((_, i) => i % shard.count === shard.index)
  return files
}

export async function runCorpus(options: RunOptions): Promise<CorpusReport> {
  const started = Date.now()
  const report: CorpusReport = {
    tallies: new Map(),
    failures: [],
    constantinopleAsPetersburg: 0,
    skippedForks: new Map(),
    unbuildable: 0,
    slowSkipped: [],
    files: 0,
    cases: 0,
    elapsedMs: 0,
  }
  if (options.includeSlow !== true) report.slowSkipped.push(...selectFiles(options.corpus, options.filter, options.shard, true).filter(isSlowFile))
  for (const file of selectFiles(options.corpus, options.filter, options.shard, options.includeSlow)) {
    options.onProgress?.(file)
    report.files++
    const cases = options.corpus.loadFixture(file)
    for (const [caseName, c] of Object.entries(cases)) {
      report.cases++
      const pre = buildPreState(c.pre)
      for (const [fixtureFork, entries] of Object.entries(c.post)) {
        const fork = FIXTURE_FORKS[fixtureFork]
        if (fork === undefined) {
          report.skippedForks.set(fixtureFork, (report.skippedForks.get(fixtureFork) ?? 0) + entries.length)
          continue
        }
        if (fixtureFork === 'Constantinople') report.constantinopleAsPetersburg += entries.length
        let tally = report.tallies.get(fixtureFork)
        if (tally === undefined) report.tallies.set(fixtureFork, (tally = { passed: 0, total: 0 }))
        for (const entry of entries) {
          tally.total++
          const outcome = await checkEntry(options.engine, c, pre, fork, entry, options.checkReasons !== false)
          if (outcome.unbuildable) report.unbuildable++
          if (outcome.kinds.length === 0) tally.passed++
          else report.failures.push({ file, caseName, fork: fixtureFork, indexes: entry.indexes, kinds: outcome.kinds, detail: outcome.detail })
        }
      }
    }
  }
  report.elapsedMs = Date.now() - started
  return report
}

const FORK_ORDER = ['Frontier', 'Homestead', 'EIP150', 'EIP158', 'Byzantium', 'Constantinople', 'ConstantinopleFix', 'Petersburg', 'Istanbul', 'Berlin', 'London', 'Merge', 'Paris', 'Shanghai', 'Cancun', 'Prague', 'Osaka']

/** The printed summary: one line per fork, then the failures (the first `limit` in full) and their count. */
export function formatReport(report: CorpusReport, title: string, limit = 50): string {
  const lines: string[] = []
  let passed = 0
  let total = 0
  for (const t of report.tallies.values()) {
    passed += t.passed
    total += t.total
  }
  lines.push(`${title}: ${passed}/${total} post checks passed (${report.files} files, ${report.cases} cases, ${(report.elapsedMs / 1000).toFixed(1)} s)`)
  const forks = [...report.tallies.keys()].sort((a, b) => FORK_ORDER.indexOf(a) - FORK_ORDER.indexOf(b))
  for (const fork of forks) {
    const t = report.tallies.get(fork)!
    const note = fork === 'Constantinople' ? ' (run as Petersburg)' : ''
    lines.push(`  ${fork.padEnd(18)} ${t.passed}/${t.total}${note}`)
  }
  if (report.constantinopleAsPetersburg > 0) lines.push(`  ${report.constantinopleAsPetersburg} entries named Constantinople were run as Petersburg (ConstantinopleFix)`)
  if (report.unbuildable > 0) lines.push(`  ${report.unbuildable} expected exception(s) met by a transaction no encoding can hold (not run)`)
  if (report.slowSkipped.length > 0) lines.push(`  ${report.slowSkipped.length} slow files not run (stTimeConsuming/CALLBlake2f_MaxRounds, VMTests/vmPerformance/loop*: CLI --slow or STATE_TESTS_SLOW=1 runs them)`)
  for (const [fork, n] of report.skippedForks) lines.push(`  skipped ${n} entries of unsupported fork ${fork}`)
  if (report.failures.length > 0) {
    const byKind = new Map<string, number>()
    for (const f of report.failures) for (const k of f.kinds) byKind.set(k, (byKind.get(k) ?? 0) + 1)
    lines.push(`  ${report.failures.length} failing checks (${[...byKind].map(([k, n]) => `${k} ${n}`).join(', ')}):`)
    for (const f of report.failures.slice(0, limit)) {
      const ix = `d${f.indexes.data} g${f.indexes.gas} v${f.indexes.value}`
      lines.push(`    ${f.file} ${f.caseName} ${f.fork} ${ix}: ${f.kinds.join('+')} — ${f.detail}`)
    }
    if (report.failures.length > limit) lines.push(`    ... and ${report.failures.length - limit} more`)
    const byDir = new Map<string, number>()
    for (const f of report.failures) {
      const dir = f.file.split('/').slice(0, f.file.startsWith('stRandom') ? 1 : -1).join('/')
      byDir.set(dir, (byDir.get(dir) ?? 0) + 1)
    }
    lines.push(`  failures by directory: ${[...byDir].sort((a, b) => b[1] - a[1]).map(([d, n]) => `${d} ${n}`).join(', ')}`)
  }
  return lines.join('\n')
}

export function totalFailures(report: CorpusReport): number {
  return report.failures.length
}
