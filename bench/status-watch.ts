/**
 * Watches a Flashnode's GET /status while a load runs: the node's own record of its recent flashblocks
 * (block, index, transactions, gas, build time from asking the pool to the announcement, publication time),
 * its recent sealed blocks (seal time) and its recent pre-confirmation latencies (pool admission to the
 * including flashblock's publication, on the node's clock). /status keeps only the last 60 flashblocks (12 s
 * at 200 ms), 12 sealed blocks and 200 latencies, so it is polled every `pollMs` (well within that) and the
 * rows are gathered by their keys. Used by the replication and throughput scenarios.
 */

export interface StatusFlashblock {
  readonly block: number
  readonly index: number
  readonly transactions: number
  readonly gasUsed: number
  readonly buildMs: number | null
  /** Publication time, node clock (ms). */
  readonly at: number
}

export interface StatusSealed {
  readonly number: number
  readonly transactions: number
  readonly sealMs: number
  readonly at: number
}

interface StatusView {
  time: number
  flashblocks: StatusFlashblock[]
  sealed: StatusSealed[]
  latency: { recent: { hash: string; ms: number }[] }
}

export interface StatusRecord {
  /** Every flashblock seen, by (block, index), in order of publication. */
  readonly flashblocks: StatusFlashblock[]
  readonly sealed: StatusSealed[]
  /** Admission → flashblock latencies seen (ms), each transaction once: the most recent 200 at each poll. */
  readonly latenciesMs: number[]
}

/** Polls GET /status every `pollMs` while `running()`, and once more after. */
export async function watchStatus(url: string, running: () => boolean, pollMs = 3_000): Promise<StatusRecord> {
  const flashblocks = new Map<string, StatusFlashblock>()
  const sealed = new Map<number, StatusSealed>()
  const latencies = new Map<string, number>()
  const poll = async (): Promise<void> => {
    const res = await fetch(new URL('/status', url), { signal: AbortSignal.timeout(2_000) }).catch(() => undefined)
    if (res?.status !== 200) return
    const view = (await res.json()) as StatusView
    for (const f of view.flashblocks) if (f.buildMs !== null) flashblocks.set(`${f.block}.${f.index}`, f)
    for (const s of view.sealed) sealed.set(s.number, s)
    for (const l of view.latency.recent) latencies.set(l.hash, l.ms)
  }
  while (running()) {
    await poll()
    await new Promise((resolve) => setTimeout(resolve, pollMs))
  }
  await poll()
  return {
    flashblocks: [...flashblocks.values()].sort((a, b) => a.at - b.at),
    sealed: [...sealed.values()].sort((a, b) => a.number - b.number),
    latenciesMs: [...latencies.values()],
  }
}
