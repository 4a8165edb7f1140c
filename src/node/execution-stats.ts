/**
 * The EVM's throughput on execution jobs, recorded in plain numbers as each job answers (two additions, a
 * division and a bucket search: no prom-client label hashing on the request path) and turned into
 * Prometheus metrics at scrape time, per method (a fixed list: the four methods that run jobs):
 * - `flashnode_execution_gas_total{method}` and `flashnode_execution_seconds_total{method}`: the gas the
 *   jobs' EVM runs used and the seconds those runs took, so `rate(gas) / rate(seconds)` is the EVM's
 *   throughput over any window;
 * - `flashnode_execution_gas_per_second{method}`: a histogram of each job's gas ÷ its EVM seconds, 1 Mgas/s
 *   to 1 Ggas/s. A job with less than MIN_GAS (no EVM run of it ended: refused before execution, stopped at
 *   its time limit) is left out of the histogram: it has no ratio to speak of.
 * What a job's gas and seconds are (every run of it, summed) is execution/evm-meter.ts's rule. Every method
 * is exported from the start (zeros), so a rate over the first jobs is not lost.
 */

import type { Registry } from 'prom-client'
import type { ExecutionJob } from './execution/jobs.ts'
import { pushHistogram, register, type MetricValue } from './call-stats.ts'

/** The metered kinds; traces (debug_trace*) run unmetered and are not counted here. */
type Kind = Exclude<ExecutionJob['kind'], 'traceCall' | 'traceBlock'>

/** The `method` label of each job kind: the JSON-RPC method that runs it. */
const METHOD_OF: Readonly<Record<Kind, string>> = {
  call: 'eth_call',
  estimateGas: 'eth_estimateGas',
  createAccessList: 'eth_createAccessList',
  simulate: 'eth_simulateV1',
}

/** Gas per second: 1 Mgas/s to 1 Ggas/s (also the flashblocks' gas-per-second histogram, node/metrics.ts). */
export const GAS_PER_SECOND_BUCKETS: readonly number[] = [1e6, 2.5e6, 5e6, 1e7, 2.5e7, 5e7, 1e8, 2.5e8, 5e8, 1e9]

/** Below this (a transaction's intrinsic gas: no run ended), a job is left out of the histogram. */
export const MIN_GAS = 21_000

interface KindStats {
  readonly method: string
  gas: number
  seconds: number
  /** Observations per bucket (not cumulative); the last is past the highest bound. */
  readonly buckets: number[]
  sum: number
  count: number
}

export class ExecutionStats {
  private readonly kinds: Record<Kind, KindStats>

  constructor(registry: Registry) {
    const of = (kind: Kind): KindStats => ({ method: METHOD_OF[kind], gas: 0, seconds: 0, buckets: new Array<number>(GAS_PER_SECOND_BUCKETS.length + 1).fill(0), sum: 0, count: 0 })
    this.kinds = { call: of('call'), estimateGas: of('estimateGas'), createAccessList: of('createAccessList'), simulate: of('simulate') }
    const all = (): KindStats[] => Object.values(this.kinds)
    const reset = (): void => {
      for (const k of all()) {
        k.gas = k.seconds = k.sum = k.count = 0
        k.buckets.fill(0)
      }
    }
    register(registry, 'flashnode_execution_gas_total', 'Gas used by the EVM runs of execution jobs (eth_call, eth_estimateGas: all its runs, eth_createAccessList: all its rounds, eth_simulateV1: all its calls), by method', 'counter', () => all().map((k) => ({ value: k.gas, labels: { method: k.method } })), reset)
    register(registry, 'flashnode_execution_seconds_total', 'Seconds the EVM spent in those runs (rate(flashnode_execution_gas_total) / rate(this) is gas per second), by method', 'counter', () => all().map((k) => ({ value: k.seconds, labels: { method: k.method } })), reset)
    register(registry, 'flashnode_execution_gas_per_second', `Gas per second of each execution job (its gas / its EVM seconds), by method; jobs under ${MIN_GAS} gas (no EVM run ended) are left out`, 'histogram', () => this.histogramValues(), reset)
  }

  /** A job of `kind` answered: its EVM runs used `gas` in `seconds`. */
  record(kind: ExecutionJob['kind'], gas: number, seconds: number): void {
    if (kind === 'traceCall' || kind === 'traceBlock') return
    const k = this.kinds[kind]
    k.gas += gas
    k.seconds += seconds
    if (gas < MIN_GAS || seconds <= 0) return
    const rate = gas / seconds
    let i = 0
    while (i < GAS_PER_SECOND_BUCKETS.length && rate > GAS_PER_SECOND_BUCKETS[i]!) i++
    k.buckets[i]!++
    k.sum += rate
    k.count++
  }

  private histogramValues(): MetricValue[] {
    const name = 'flashnode_execution_gas_per_second'
    const values: MetricValue[] = []
    for (const k of Object.values(this.kinds)) pushHistogram(values, name, GAS_PER_SECOND_BUCKETS, k, k.method)
    return values
  }
}
