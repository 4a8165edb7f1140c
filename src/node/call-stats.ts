/**
 * The JSON-RPC call counts and durations, recorded in plain numbers on the request path (a map lookup, two
 * additions and a bucket search: prom-client's own counter and histogram validate and hash their labels on
 * every call) and turned into Prometheus metrics at scrape time:
 * `flashnode_rpc_requests_total{method,transport,outcome}` and
 * `flashnode_rpc_request_duration_seconds{method}` (cumulative buckets, `+Inf`, `_sum`, `_count`), as
 * custom metrics of the node's registry.
 */

import type { Registry } from 'prom-client'

type Transport = 'http' | 'ws'
type Outcome = 'ok' | 'error'

interface MethodStats {
  readonly counts: Record<Transport, Record<Outcome, number>>
  /** Observations per bucket (not cumulative); the last is past the highest bound. */
  readonly buckets: number[]
  sum: number
  count: number
}

/** One sample of a scrape-time metric (prom-client's custom-metric shape). */
export interface MetricValue {
  value: number
  labels: Record<string, string | number>
  metricName?: string
}

export class CallStats {
  private readonly methods = new Map<string, MethodStats>()

  constructor(
    private readonly bounds: readonly number[],
    registry: Registry,
  ) {
    register(registry, 'flashnode_rpc_requests_total', 'JSON-RPC calls answered, by method (unknown: a name the endpoint does not serve), transport and outcome', 'counter', () => this.countValues(), () => this.methods.clear())
    register(registry, 'flashnode_rpc_request_duration_seconds', 'Time to answer one JSON-RPC call, by method', 'histogram', () => this.durationValues(), () => this.methods.clear())
  }

  private of(method: string): MethodStats {
    let stats = this.methods.get(method)
    if (stats === undefined) {
      stats = { counts: { http: { ok: 0, error: 0 }, ws: { ok: 0, error: 0 } }, buckets: new Array<number>(this.bounds.length + 1).fill(0), sum: 0, count: 0 }
      this.methods.set(method, stats)
    }
    return stats
  }

  record(method: string, transport: Transport, outcome: Outcome, seconds: number): void {
    const stats = this.of(method)
    stats.counts[transport][outcome]++
    let i = 0
    while (i < this.bounds.length && seconds > this.bounds[i]!) i++
    stats.buckets[i]!++
    stats.sum += seconds
    stats.count++
  }

  private countValues(): MetricValue[] {
    const values: MetricValue[] = []
    for (const [method, stats] of this.methods) {
      for (const [transport, outcomes] of Object.entries(stats.counts)) {
        for (const [outcome, value] of Object.entries(outcomes)) values.push({ value, labels: { method, transport, outcome } })
      }
    }
    return values
  }

  private durationValues(): MetricValue[] {
    const values: MetricValue[] = []
    const name = 'flashnode_rpc_request_duration_seconds'
    for (const [method, stats] of this.methods) {
      if (stats.count > 0) pushHistogram(values, name, this.bounds, stats, method)
    }
    return values
  }
}

/** Per-bucket counts (the last one past every bound), their sum and count, as one histogram series. */
export interface HistogramCounts {
  readonly buckets: readonly number[]
  readonly sum: number
  readonly count: number
}

/** Appends the `_bucket` (cumulative), `_sum` and `_count` values of `method`'s series of histogram `name`. */
export function pushHistogram(values: MetricValue[], name: string, bounds: readonly number[], h: HistogramCounts, method: string): void {
  let cumulative = 0
  bounds.forEach((bound, i) => {
    cumulative += h.buckets[i]!
    values.push({ value: cumulative, labels: { le: bound, method }, metricName: `${name}_bucket` })
  })
  values.push({ value: h.count, labels: { le: '+Inf', method }, metricName: `${name}_bucket` })
  values.push({ value: h.sum, labels: { method }, metricName: `${name}_sum` })
  values.push({ value: h.count, labels: { method }, metricName: `${name}_count` })
}

/** A metric of `registry` whose values `values` makes at scrape time (prom-client's custom-metric shape). */
export function register(
  registry: Registry,
  name: string,
  help: string,
  type: 'counter' | 'histogram',
  values: () => MetricValue[],
  reset: () => void,
): void {
  registry.registerMetric({
    name,
    help,
    type,
    aggregator: 'sum',
    get: async () => ({ name, help, type, aggregator: 'sum', values: values() }),
    reset,
  } as never)
}
