/**
 * The node's Prometheus metrics (prom-client), served at GET /metrics. One registry per node, so two nodes
 * in one process (tests) never share a series.
 *
 * What records what: the transports report each answered call and each rate-limit refusal through rpc/'s
 * RpcObserver port (this class has its shape; cli/ hands it to the servers, since node/ sits below rpc/); the
 * executors report each execution job's EVM gas and seconds as it answers (ExecutionObserver;
 * execution-stats.ts); the sequencer reports its build, journal and seal times, and each flashblock's gas
 * with its build time (SequencerObserver); flashblocks and stream messages are heard from the feed and the
 * stream as any reader hears them; everything that is a current level (head block and its age, the pool,
 * connections, stream subscribers) is read at scrape time, so nothing is recorded on the paths that
 * produce it. prom-client's default process and Node.js metrics (memory, event-loop lag, GC) are included
 * under their usual names.
 *
 * Labels are bounded: `method` is a method the endpoint serves or `unknown` (on the execution metrics, one
 * of the four methods that run execution jobs); `transport` http | ws; `outcome` ok | error; `state`
 * pending | queued.
 */

import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client'
import type { PreconfirmedFeed } from '../preconf/feed.ts'
import type { PreconfirmedSnapshot } from '../preconf/snapshot.ts'
import type { SequencerObserver } from '../sequencer/sequencer.ts'
import { CallStats } from './call-stats.ts'
import { ExecutionStats, GAS_PER_SECOND_BUCKETS } from './execution-stats.ts'
import type { ExecutionJob, ExecutionObserver } from './execution/jobs.ts'
import type { GroupState } from './node-status.ts'

/** The reports of rpc/'s transports (rpc/transport/observer.ts, which rpc/ owns; the shapes match it). */
interface PayloadObserver {
  call(method: string, outcome: 'ok' | 'error', seconds: number): void
  refused(status: number): void
}

/** What the metrics read at scrape time from every node. */
export interface MetricSources {
  /** The head block's number and timestamp (seconds). */
  head(): { number: bigint; timestamp: bigint }
  /** Wall clock, ms (tests inject one). */
  now?: () => number
}

/**
 * prom-client's process and Node.js metrics, collected once per process (they describe the process, and
 * each collection starts its own event-loop and GC monitors, which two nodes in one process must not double).
 */
let processRegistry: Registry | undefined
function processMetrics(): Registry {
  if (processRegistry === undefined) {
    processRegistry = new Registry()
    collectDefaultMetrics({ register: processRegistry })
  }
  return processRegistry
}

const SECONDS_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

export class NodeMetrics implements SequencerObserver, ExecutionObserver {
  readonly registry = new Registry()
  private readonly connectionSources = new Set<() => number>()
  private readonly calls: CallStats
  private readonly executions: ExecutionStats
  private readonly flashblockGasRate: Histogram
  private readonly rateLimited: Counter
  private readonly flashblocks: Counter
  private readonly flashblockTransactions: Histogram
  private readonly flashblockGas: Histogram
  private readonly streamMessages: Counter
  private readonly flashblockBuild: Histogram
  private readonly journalWrite: Histogram
  private readonly seal: Histogram
  private readonly ticksSkipped: Counter
  private readonly admissions: Counter<'result'>
  private readonly observers: Record<'http' | 'ws', PayloadObserver>
  private readonly unlisten: (() => void)[] = []

  constructor(sources: MetricSources) {
    const registers = [this.registry]
    const now = sources.now ?? Date.now
    this.calls = new CallStats(SECONDS_BUCKETS, this.registry)
    this.executions = new ExecutionStats(this.registry)
    this.rateLimited = new Counter({
      name: 'flashnode_rpc_rate_limited_total',
      help: 'Payloads refused by an endpoint rate limit (HTTP 429, or its error over WebSocket)',
      registers,
    })
    const connectionSources = this.connectionSources
    new Gauge({
      name: 'flashnode_rpc_connections',
      help: 'Open client connections (HTTP and WebSocket) over every endpoint',
      registers,
      collect() {
        let open = 0
        for (const source of connectionSources) open += source()
        this.set(open)
      },
    })
    new Gauge({
      name: 'flashnode_head_block_number',
      help: 'Number of the newest sealed block',
      registers,
      collect() {
        this.set(Number(sources.head().number))
      },
    })
    new Gauge({
      name: 'flashnode_head_block_age_seconds',
      help: 'Seconds since the newest sealed block\'s timestamp',
      registers,
      collect() {
        this.set(Math.max(0, now() / 1000 - Number(sources.head().timestamp)))
      },
    })
    this.flashblocks = new Counter({ name: 'flashnode_flashblocks_total', help: 'Flashblocks published (pre-confirmed states), empty ones included', registers })
    this.flashblockTransactions = new Histogram({
      name: 'flashnode_flashblock_transactions',
      help: 'New transactions per published flashblock',
      buckets: [0, 1, 5, 10, 25, 50, 100, 250, 500, 1000, 2500],
      registers,
    })
    this.flashblockGas = new Histogram({
      name: 'flashnode_flashblock_gas',
      help: 'Gas used by the new transactions of one published flashblock',
      buckets: [0, 21_000, 100_000, 1e6, 5e6, 1e7, 3e7, 1e8, 3e8],
      registers,
    })
    this.streamMessages = new Counter({ name: 'flashnode_stream_messages_total', help: 'Flashblock stream messages published', registers })
    this.flashblockBuild = new Histogram({
      name: 'flashnode_flashblock_build_duration_seconds',
      help: 'Time to build one flashblock, from asking the pool to its publication (a single node: journal write included; a group leader: the cluster\'s acknowledgement included, its journal write after)',
      buckets: SECONDS_BUCKETS,
      registers,
    })
    this.flashblockGasRate = new Histogram({
      name: 'flashnode_flashblock_gas_per_second',
      help: 'Gas per second of one flashblock with transactions: the gas of its new transactions / its build time (from asking the pool to its publication)',
      buckets: [...GAS_PER_SECOND_BUCKETS],
      registers,
    })
    this.journalWrite = new Histogram({
      name: 'flashnode_journal_write_duration_seconds',
      help: 'Time to journal one flashblock with transactions (a single node: durable before it is published; a group leader: after, the replicated stream being its record)',
      buckets: SECONDS_BUCKETS,
      registers,
    })
    this.seal = new Histogram({
      name: 'flashnode_seal_duration_seconds',
      help: 'Time to seal one block: roots, header and the atomic write (wall clock)',
      buckets: SECONDS_BUCKETS,
      registers,
    })
    this.admissions = new Counter({
      name: 'flashnode_txpool_admissions_total',
      help: 'Transactions submitted, by result: accepted, the pool rule that refused it (e.g. nonceTooLow), undecodable, other',
      labelNames: ['result'],
      registers,
    })
    this.ticksSkipped = new Counter({
      name: 'flashnode_flashblock_ticks_skipped_total',
      help: 'Flashblock ticks skipped because the previous one was still running',
      registers,
    })
    this.observers = { http: this.observerFor('http'), ws: this.observerFor('ws') }
  }

  forTransport(transport: 'http' | 'ws'): PayloadObserver {
    return this.observers[transport]
  }

  // --- the sequencer's reports (SequencerObserver) ---

  flashblockBuilt(seconds: number, gas: number): void {
    this.flashblockBuild.observe(seconds)
    if (gas > 0 && seconds > 0) this.flashblockGasRate.observe(gas / seconds)
  }

  journalWritten(seconds: number): void {
    this.journalWrite.observe(seconds)
  }

  sealed(seconds: number): void {
    this.seal.observe(seconds)
  }

  tickSkipped(): void {
    this.ticksSkipped.inc()
  }

  // --- the executors' reports (ExecutionObserver) ---

  executed(kind: ExecutionJob['kind'], gas: number, seconds: number): void {
    this.executions.record(kind, gas, seconds)
  }

  /** A submission's result (admission's report; the results are the pool's rule names: bounded). */
  admitted(result: string): void {
    this.admissions.inc({ result })
  }

  /** Reads the execution workers' queue, kills and (with workers) how many are started, at scrape time. */
  watchExecution(stats: () => { queued: number; killed: number; stoppedAtLimit?: number; jobsPerWorker?: readonly number[]; extraWorkersInUse?: boolean }): void {
    new Gauge({
      name: 'flashnode_execution_queue_depth',
      help: 'EVM jobs (eth_call, estimates, simulations) waiting for an execution worker',
      registers: [this.registry],
      collect() {
        this.set(stats().queued)
      },
    })
    new Gauge({
      name: 'flashnode_execution_workers',
      help: 'Execution worker threads started (0: executions run on the main thread); the extra one starts with the first long executions',
      registers: [this.registry],
      collect() {
        this.set(stats().jobsPerWorker?.length ?? 0)
      },
    })
    new Gauge({
      name: 'flashnode_execution_extra_workers_in_use',
      help: 'Whether the extra execution workers take every kind of job (1): tried while long executions leave the main thread idle, kept while jobs complete faster with them (simulations and long calls go to a loaded extra worker either way)',
      registers: [this.registry],
      collect() {
        this.set(stats().extraWorkersInUse === true ? 1 : 0)
      },
    })
    let counted = 0
    new Counter({
      name: 'flashnode_execution_jobs_killed_total',
      help: 'EVM jobs that did not stop at their time limit and were killed (their worker terminated and replaced)',
      registers: [this.registry],
      collect() {
        const killed = stats().killed
        this.inc(killed - counted)
        counted = killed
      },
    })
    let stopped = 0
    new Counter({
      name: 'flashnode_execution_jobs_timed_out_total',
      help: 'EVM jobs the EVM stopped itself at their time limit (answered with "execution aborted")',
      registers: [this.registry],
      collect() {
        const now = stats().stoppedAtLimit ?? 0
        this.inc(now - stopped)
        stopped = now
      },
    })
  }

  /** The sequencer's configured flashblock interval (0: manual sealing), for alerts that compare with it. */
  sequencing(intervalSeconds: number): void {
    new Gauge({
      name: 'flashnode_flashblock_interval_seconds',
      help: 'Configured time between flashblocks; 0 when sealing is manual (flashblocks only when asked)',
      registers: [this.registry],
    }).set(intervalSeconds)
  }

  /** Reads the pool's levels at scrape time (flashnode_txpool_transactions) beside its fixed capacity. */
  watchPool(stats: () => { pending: number; queued: number }, capacity: { pending: number; queued: number }): void {
    new Gauge({
      name: 'flashnode_txpool_transactions',
      help: 'Transactions in the pool: pending (executable now) and queued (waiting for a nonce gap)',
      labelNames: ['state'],
      registers: [this.registry],
      collect() {
        const now = stats()
        this.set({ state: 'pending' }, now.pending)
        this.set({ state: 'queued' }, now.queued)
      },
    })
    const limits = new Gauge({
      name: 'flashnode_txpool_capacity',
      help: 'Most transactions the pool holds before it evicts or refuses (txpool is full): pending and queued',
      labelNames: ['state'],
      registers: [this.registry],
    })
    limits.set({ state: 'pending' }, capacity.pending)
    limits.set({ state: 'queued' }, capacity.queued)
  }

  /** Counts the stream's messages and reads its subscribers and slow disconnects at scrape time. */
  watchStream(stream: { onPublished(listener: () => void): () => void; subscriberCount(): number; slowDisconnects(): number }): void {
    new Gauge({
      name: 'flashnode_stream_subscribers',
      help: 'Subscribers connected to the flashblock stream',
      registers: [this.registry],
      collect() {
        this.set(stream.subscriberCount())
      },
    })
    let cut = 0
    new Counter({
      name: 'flashnode_stream_slow_disconnects_total',
      help: 'Flashblock stream subscribers disconnected for reading too slowly',
      registers: [this.registry],
      collect() {
        const now = stream.slowDisconnects()
        this.inc(now - cut)
        cut = now
      },
    })
    this.unlisten.push(stream.onPublished(() => this.streamMessages.inc()))
  }

  /**
   * A sequencer group's member (node/group/sequencer-group.ts): whether it leads, the leader's term, and the
   * last takeover this member made (when, how long from the lease acquired to sequencing).
   */
  watchGroup(status: () => GroupState): void {
    new Gauge({
      name: 'flashnode_group_leader',
      help: '1 while this member of a sequencer group leads it',
      registers: [this.registry],
      collect() {
        this.set(status().role === 'leader' ? 1 : 0)
      },
    })
    new Gauge({
      name: 'flashnode_group_term',
      help: 'The term of the sequencer group\'s leader as this member knows it (0: none known)',
      registers: [this.registry],
      collect() {
        this.set(status().leader?.term ?? 0)
      },
    })
    new Gauge({
      name: 'flashnode_group_last_takeover_seconds',
      help: 'How long this member\'s last takeover took, from the lease acquired to sequencing (0: none yet)',
      registers: [this.registry],
      collect() {
        this.set((status().lastTakeover?.ms ?? 0) / 1000)
      },
    })
    new Gauge({
      name: 'flashnode_group_last_takeover_timestamp_seconds',
      help: 'When this member last took over (Unix time; 0: never)',
      registers: [this.registry],
      collect() {
        this.set((status().lastTakeover?.at ?? 0) / 1000)
      },
    })
  }

  /** Reads the JetStream fan-out's counts at scrape time (a sequencer started with --stream nats://). */
  watchBroker(stats: () => { acknowledged: number; dropped: number; failed: number; connected: boolean }): void {
    const counted = { acknowledged: 0, dropped: 0, failed: 0 }
    new Counter({
      name: 'flashnode_stream_broker_messages_total',
      help: 'Flashblock stream messages on the JetStream path: acknowledged by the broker, dropped (broker not connected, or too many unacknowledged), failed (no acknowledgement in time)',
      labelNames: ['outcome'],
      registers: [this.registry],
      collect() {
        const now = stats()
        for (const outcome of ['acknowledged', 'dropped', 'failed'] as const) {
          this.inc({ outcome }, now[outcome] - counted[outcome])
          counted[outcome] = now[outcome]
        }
      },
    })
    new Gauge({
      name: 'flashnode_stream_broker_connected',
      help: '1 while the sequencer is connected to its JetStream broker',
      registers: [this.registry],
      collect() {
        this.set(stats().connected ? 1 : 0)
      },
    })
  }

  /** Counts a server's open connections into flashnode_rpc_connections. */
  addConnections(source: () => number): void {
    this.connectionSources.add(source)
  }

  /** Hears the feed's flashblocks. */
  listenToFeed(feed: PreconfirmedFeed): void {
    let lastGas = 0n
    let lastBlock = -1n
    const onFlashblock = (snapshot: PreconfirmedSnapshot): void => {
      if (snapshot.header.number !== lastBlock) {
        lastBlock = snapshot.header.number
        lastGas = 0n
      }
      this.flashblocks.inc()
      this.flashblockTransactions.observe(snapshot.transactions.length - snapshot.firstNew)
      this.flashblockGas.observe(Number(snapshot.gasUsed - lastGas))
      lastGas = snapshot.gasUsed
    }
    feed.on('flashblock', onFlashblock)
    this.unlisten.push(() => feed.off('flashblock', onFlashblock))
  }

  /** The text exposition, as GET /metrics serves it. */
  async exposition(): Promise<{ contentType: string; body: string }> {
    const both = Registry.merge([processMetrics(), this.registry])
    return { contentType: both.contentType, body: await both.metrics() }
  }

  close(): void {
    for (const stop of this.unlisten.splice(0)) stop()
    this.registry.clear()
  }

  private observerFor(transport: 'http' | 'ws'): PayloadObserver {
    const calls = this.calls
    const rateLimited = this.rateLimited
    return {
      call: (method, outcome, seconds) => calls.record(method, transport, outcome, seconds),
      refused(status: number): void {
        if (status === 429) rateLimited.inc()
      },
    }
  }
}
