/**
 * What a benchmark scenario file provides, and what a run produces. A scenario (bench/*-bench.ts) names
 * the chain it needs and its cases; bench/runner.ts does the rest the same way for every scenario: genesis,
 * starting each peer, checking answers, driving load from separate processes, repetitions, medians.
 *
 * A case is a stream of JSON-RPC request bodies sent by a closed loop of `concurrency` clients. Hooks let a
 * later scenario shape its state before measuring: `prepare` runs before each measured run on a freshly
 * started peer (e.g. send 1,000 transactions to the pool, or fill a large block), `bodies` may depend on
 * the peer and the repetition (e.g. signed transactions with fresh nonces, sent once each), and
 * `mutatesState` gives every peer start a freshly initialized chain.
 *
 * A case that is not a closed loop of requests (a latency probe, timed round trips of a dev method)
 * gives `measure` instead of `bodies`: it drives the peer itself and returns its figures (`Measured`).
 * `unit` names what its rate counts (tx/s, calls/s; none for a pure latency), `compare` says whether the
 * Flashnode/Anvil ratio is taken on the rate, on p50 time, or on a figure where less is better (memory),
 * and `peers` limits a case to the peers that have the figure (a flashblock figure has no Anvil equivalent:
 * that peer's cells read n/a). A case with `chain: 'dev'` runs on a start of the peer on its own dev
 * chain instead of the scenario's genesis (the runner starts each peer once per chain its cases use).
 */

import type { BenchChain, BenchGenesisOptions } from './genesis.ts'
import type { MergedLoad } from './load.ts'
import type { PeerName, RunningNode } from './nodes.ts'

export interface ScenarioContext {
  readonly chain: BenchChain
  readonly quick: boolean
}

export interface CaseRun {
  readonly node: RunningNode
  /** 0-based repetition. */
  readonly repetition: number
  /** The run's measured duration and warm-up (a `measure` case bounds itself by them). */
  readonly durationMs: number
  readonly warmupMs: number
  readonly quick: boolean
}

/** What a `measure` case found on one peer start. */
export interface Measured {
  /** In the case's unit (e.g. tx/s); absent for a pure latency. */
  rate?: number
  p50Ms: number
  p99Ms: number
  /** Observations behind the percentiles. */
  count: number
  errors: number
  errorSamples: string[]
  /** Further named figures (ms unless the name says otherwise), printed in the notes as medians. */
  extras?: Record<string, number>
  /** CPU of a probe process the case ran, in % of one core (not the peer's). */
  generatorCpuPct?: number
  generatorCpuSeconds?: number
}

export interface BenchCase {
  /** A row of the table, e.g. "eth_call balanceOf @latest". */
  readonly name: string
  /** Serialized JSON-RPC requests (cycled unless `once`); a case gives either this or `measure`. */
  bodies?(run: CaseRun): string[] | Promise<string[]>
  /** Drives the peer itself (after check and prepare) and returns its figures. */
  measure?(run: CaseRun): Promise<Measured>
  /** The peers that have this figure (default: both); the others show n/a. */
  readonly peers?: readonly PeerName[]
  /** What the rate counts (default req/s); '' for a figure that is only a time. */
  readonly unit?: string
  /**
   * Ratio on the rate (default), on p50 time (Anvil p50 / Flashnode p50: > 1 means Flashnode is faster), or
   * 'lower': on the rate column where less is better, e.g. MB (Anvil / Flashnode: > 1 means Flashnode uses less).
   */
  readonly compare?: 'rate' | 'p50' | 'lower'
  /**
   * 'dev': the peer's own dev chain (Anvil's defaults, Flashnode `start` on an empty datadir), not the scenario's
   * genesis. 'op': the scenario's genesis made an OP Stack chain (genesis.ts opStackGenesis; Flashnode only).
   */
  readonly chain?: 'genesis' | 'dev' | 'op'
  /**
   * Runs the case on a Flashnode start of its own (on its chain), with the other cases naming the same start:
   * a row compared with one that has such a start (the OP Stack row) gets the same history before it (the
   * same process age, the same code compiled so far).
   */
  readonly ownStart?: string
  /**
   * Anvil flags this case alone needs, after the scenario's (e.g. `--steps-tracing`, which would slow Anvil's
   * other rows): the case runs on a start of Anvil of its own, with the cases naming the same flags.
   */
  readonly anvilArgs?: readonly string[]
  /** Throws if the peer answers wrongly; its figures for this case are then reported as invalid. */
  check?(run: CaseRun): Promise<void>
  /** Runs after check and before the measured load. */
  prepare?(run: CaseRun): Promise<void>
  readonly concurrency?: number
  readonly once?: boolean
  /** Overrides the run's warm-up (e.g. 0 when bodies are sent once). */
  readonly warmupMs?: number
}

export interface Scenario {
  /** Selects it with --only. */
  readonly name: string
  readonly title: string
  readonly genesis: BenchGenesisOptions
  readonly anvilArgs?: readonly string[]
  readonly flashnodeArgs?: readonly string[]
  /**
   * Runs once before the scenario's peers start (a broker, say): what it adds to every Flashnode start, and
   * how to end it after the scenario.
   */
  readonly setup?: () => Promise<{ readonly flashnodeArgs: readonly string[]; teardown(): Promise<void> }>
  readonly mutatesState?: boolean
  /** How long `flashnode init` and each peer start may take (default 60 s; a 100,000-holder genesis needs more). */
  readonly readyTimeoutMs?: number
  /** Repetitions of this scenario whatever --reps says (a 30-minute soak runs once). */
  readonly repetitions?: number
  /** The measured duration of its cases, when not the run's --duration (the soak's --soak-duration). */
  durationMs?(settings: RunSettings): number
  /** Printed under the table (method, caveats, floors). */
  notes?(ctx: ScenarioContext): string[]
  /** Lines computed from the run's medians (a ratio between two rows, say), printed after the notes. */
  derived?(result: ScenarioResult): string[]
  /** Extras (see Measured) shown as columns of the table, per peer, after p99. */
  readonly extraColumns?: readonly string[]
  /** The peers it compares unless --peers names others (default: the run's, Anvil and Flashnode). */
  readonly peers?: readonly PeerName[]
  cases(ctx: ScenarioContext): BenchCase[]
}

export interface Sample {
  rps: number
  p50Ms: number
  p99Ms: number
  requests: number
  errors: number
  errorSamples: string[]
  generatorCpuPct: number
  /** CPU used by the peer from the start of warm-up to the end, in % of one core. */
  serverCpuPct: number
  /** CPU used meanwhile by everything else on the machine (not the peer, not the generators). */
  otherCpuPct: number
  extras?: Record<string, number>
}

export function sampleOf(m: MergedLoad, serverCpuPct: number, otherCpuPct: number): Sample {
  return {
    rps: m.rps,
    p50Ms: m.p50Ms,
    p99Ms: m.p99Ms,
    requests: m.requests,
    errors: m.errors,
    errorSamples: m.errorSamples,
    generatorCpuPct: m.generatorCpuPct,
    serverCpuPct,
    otherCpuPct,
  }
}

export interface CaseResult {
  samples: Sample[]
  median?: { rps: number; p50Ms: number; p99Ms: number; serverCpuPct: number; extras?: Record<string, number> }
  errors: number
  /** Why there are no figures (wrong answer, failure during the run). */
  invalid?: string
}

export interface PeerResult {
  available: boolean
  /** Why the peer could not be measured. */
  reason?: string
  /** Peak RSS of each start, in bytes. */
  peakRssBytes: number[]
  /** CPU busy on the machine just before each start (nothing of ours running), in % of one core. */
  backgroundCpuPct: number[]
  cases: Record<string, CaseResult>
}

export interface RunSettings {
  repetitions: number
  durationMs: number
  warmupMs: number
  /** Overrides each case's concurrency. */
  concurrency?: number
  generatorProcesses: number
  client: 'raw' | 'http' | 'fetch'
  peers: PeerName[]
  /** Whether --peers named them (otherwise a scenario with peers of its own runs those). */
  peersGiven: boolean
  quick: boolean
  /** Before each peer start, wait up to this long for other processes to leave the CPUs (< 50% of one core). */
  waitQuietMs: number
  /** The soak scenario's window (--soak-duration). */
  soakDurationMs: number
}

export interface CaseInfo {
  peers?: readonly PeerName[]
  unit: string
  compare: 'rate' | 'p50' | 'lower'
  /** Requests in flight; absent for a `measure` case that sets none. */
  concurrency?: number
  /** A `measure` case (not a closed loop from the load generator). */
  measured: boolean
}

export interface ScenarioResult {
  name: string
  title: string
  /** Repetitions per peer this scenario ran (its own, or --reps). */
  repetitions: number
  caseNames: string[]
  cases: Record<string, CaseInfo>
  notes: string[]
  extraColumns: string[]
  /** The peers it ran, in the table's order. */
  peerOrder: PeerName[]
  peers: Partial<Record<PeerName, PeerResult>>
}

/** A Sample from a measure case's figures. */
export function sampleOfMeasured(m: Measured, serverCpuPct: number, otherCpuPct: number): Sample {
  return {
    rps: m.rate ?? Number.NaN,
    p50Ms: m.p50Ms,
    p99Ms: m.p99Ms,
    requests: m.count,
    errors: m.errors,
    errorSamples: m.errorSamples,
    generatorCpuPct: m.generatorCpuPct ?? 0,
    serverCpuPct,
    otherCpuPct,
    ...(m.extras === undefined ? {} : { extras: m.extras }),
  }
}

export const DEFAULT_CONCURRENCY = 8

export function median(xs: number[]): number {
  if (xs.length === 0) return Number.NaN
  const s = [...xs].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2
}
