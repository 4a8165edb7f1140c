/**
 * A latency histogram small enough to print as one JSON line and mergeable across generator processes.
 *
 * Log-spaced buckets, each 2% wider than the one below (bucket b holds latencies in (1.02^(b-1), 1.02^b]
 * microseconds), so any percentile is reported within 2% of the truth whatever the range, in ~800 buckets
 * from 1 µs to 10 s. Percentiles report a bucket's upper bound (a slight over-estimate, never an under-one).
 */

const LN_STEP = Math.log(1.02)

export type SparseHistogram = [bucket: number, count: number][]

export class LatencyHistogram {
  private readonly counts = new Map<number, number>()
  total = 0
  sumUs = 0
  maxUs = 0

  record(us: number): void {
    const b = us <= 1 ? 0 : Math.ceil(Math.log(us) / LN_STEP)
    this.counts.set(b, (this.counts.get(b) ?? 0) + 1)
    this.total++
    this.sumUs += us
    if (us > this.maxUs) this.maxUs = us
  }

  merge(sparse: SparseHistogram, sumUs: number, maxUs: number): void {
    for (const [b, n] of sparse) {
      this.counts.set(b, (this.counts.get(b) ?? 0) + n)
      this.total += n
    }
    this.sumUs += sumUs
    this.maxUs = Math.max(this.maxUs, maxUs)
  }

  toSparse(): SparseHistogram {
    return [...this.counts.entries()].sort((a, b) => a[0] - b[0])
  }

  /** The q-quantile (0 < q <= 1) in milliseconds, or NaN when empty. */
  quantileMs(q: number): number {
    if (this.total === 0) return Number.NaN
    const rank = Math.ceil(q * this.total)
    let seen = 0
    for (const [b, n] of this.toSparse()) {
      seen += n
      if (seen >= rank) return Math.min(Math.exp(b * LN_STEP), this.maxUs) / 1000
    }
    return this.maxUs / 1000
  }

  meanMs(): number {
    return this.total === 0 ? Number.NaN : this.sumUs / this.total / 1000
  }
}
