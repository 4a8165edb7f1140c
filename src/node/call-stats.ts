/**
 * The JSON-RPC call counts and durations, recorded in plain numbers on the request path (a map lookup, two
 * additions and a bucket search: prom-client's own counter and histogram validate and hash their labels on
 * every call, which cost cheap reads ~10% of their rate) and turned into Prometheus metrics at scrape time:
 * `flashnode_rpc_requests_total{method,transport,outcome}` and
 * `flashnode_rpc_request_duration_seconds{method}` (cumulative buckets, `+Inf`, `_sum`, `_count`), as
 * custom metrics of the node's registry.
 */

import type { Registry } from 'prom-client'

type Transport = 'http' | 'ws'
type Outcome = 'ok' | 'error'

interface MethodStats {
  readonly counts: Record<`${Transport}:${Outcome}`, number>
  /** Observations per bucket (not cumulative); the last is past the highest bound. */
  readonly buckets: number[]
  sum: number
  count: number
}

interface MetricValue {
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
    registry.registerMetric({
      name: 'flashnode_rpc_requests_total',
      help: 'JSON-RPC calls answered, by method (unknown: a name the endpoint does not serve), transport and outcome',
      type: 'counter',
      aggregator: 'sum',
      get: async () => ({
        name: 'flashnode_rpc_requests_total',
        help: 'JSON-RPC calls answered, by method (unknown: a name the endpoint does not serve), transport and outcome',
        type: 'counter',
        aggregator: 'sum',
        values: this.countValues(),
      }),
      reset: () => this.methods.clear(),
    } as never)
    registry.registerMetric({
      name: 'flashnode_rpc_request_duration_seconds',
      help: 'Time to answer one JSON-RPC call, by method',
      type: 'histogram',
      aggregator: 'sum',
      get: async () => ({
        name: 'flashnode_rpc_request_duration_seconds',
        help: 'Time to answer one JSON-RPC call, by method',
        type: 'histogram',
        aggregator: 'sum',
        values: this.durationValues(),
      }),
      reset: () => this.methods.clear(),
    } as never)
  }

  /** The stats of one method (look it up once per method, then record through it). */
  of(method: string): MethodStats {
    let stats = this.methods.get(method)
    if (stats === undefined) {
      stats = { counts: { 'http:ok': 0, 'http:error': 0, 'ws:ok': 0, 'ws:error': 0 }, buckets: new Array<number>(this.bounds.length + 1).fill(0), sum: 0, count: 0 }
      this.methods.set(method, stats)
    }
    return stats
  }

  record(stats: MethodStats, transport: Transport, outcome: Outcome, seconds: number): void {
    stats.counts[`${transport}:${outcome}`]++
    let i = 0
    while (i < this.bounds.length && seconds > this.bounds[i]!) i++
    stats.buckets[i]!++
    stats.sum += seconds
    stats.count++
  }

  private countValues(): MetricValue[] {
    const values: MetricValue[] = []
    for (const [method, stats] of this.methods) {
      for (const [key, value] of Object.entries(stats.counts)) {
        const [transport, outcome] = key.split(':') as [Transport, Outcome]
        values.push({ value, labels: { method, transport, outcome } })
      }
    }
    return values
  }

  private durationValues(): MetricValue[] {
    const values: MetricValue[] = []
    const name = 'flashnode_rpc_request_duration_seconds'
    for (const [method, stats] of this.methods) {
      if (stats.count === 0) continue
      let cumulative = 0
      this.bounds.forEach((bound, i) => {
        cumulative += stats.buckets[i]!
        values.push({ value: cumulative, labels: { le: bound, method }, metricName: `${name}_bucket` })
      })
      values.push({ value: stats.count, labels: { le: '+Inf', method }, metricName: `${name}_bucket` })
      values.push({ value: stats.sum, labels: { method }, metricName: `${name}_sum` })
      values.push({ value: stats.count, labels: { method }, metricName: `${name}_count` })
    }
    return values
  }
}
