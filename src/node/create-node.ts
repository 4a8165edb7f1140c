/**
 * createNode(config): opens the data directory and wires storage, chain, execution and the facade.
 *
 * The chain's genesis is stored with it: a node restarted on the same directory resumes the same chain
 * and ignores genesis options; a different genesis given for a non-empty directory is an error rather than
 * a silent switch.
 */

import { setTimeout as delay } from 'node:timers/promises'
import { LmdbStore } from '../storage/db.ts'
import { ChainStore } from '../chain/chain-store.ts'
import { ChainRules, type GethGenesis } from '../execution/chain-config.ts'
import { SenderRecovery } from './sender-recovery/recovery-pool.ts'
import { SealHashing } from './seal-hashing/seal-hashing.ts'
import { rootsInTurns, type OpenOptions } from '../execution/block-builder.ts'
import { ChainReader } from './chain-reader.ts'
import { ChainWriter } from './chain-writer.ts'
import { NodeService, type NodeSettings, type WriteSide } from './node-service.ts'
import { TxPool, type PoolConfig } from '../txpool/index.ts'
import { Sequencer, type SequencerSettings } from '../sequencer/sequencer.ts'
import { OpOpening, type L1ValueOverrides } from '../sequencer/op-opening.ts'
import { realScheduler, type Scheduler } from '../sequencer/scheduler.ts'
import { PreconfirmedStore, type PreconfirmedFeed } from '../preconf/feed.ts'
import { Follower, type SealedBlockSource } from '../follower/follower.ts'
import type { ReplicaWork } from '../follower/replica-block.ts'
import type { SequencerClient } from '../follower/sequencer-client.ts'
import { DEFAULT_STREAM_CLIENT, StreamClient } from '../follower/stream-client.ts'
import type { JetStreamSource } from '../follower/jetstream-source.ts'
import { FreshFeed } from '../preconf/fresh-feed.ts'
import { ForwardingAdmission } from './forwarding-admission.ts'
import { followerMetrics } from './follower-metrics.ts'
import type { SyncStatus } from './api.ts'
import { FlashnodeError } from '../errors/errors.ts'
import { bytesToHex } from '../primitives/hex.ts'
import { L1_BLOCK_ADDRESS } from '../opstack/predeploy-addresses.ts'
import { concatBytes } from '@ethereumjs/util'
import { DEFAULT_STREAM_SETTINGS, FlashblockPublisher, type StreamSettings } from '../stream/publisher.ts'
import { NodeMetrics } from './metrics.ts'
import { defaultReadyMaxAgeMs, FlashblockReadiness, FollowerReadiness, type FollowerState, type ReadinessState } from './readiness.ts'
import { ActivityLog, allObservers } from './activity-log.ts'
import { LiveStatus } from './live-status.ts'
import { nodeStatus, type GroupState, type NodeStatus } from './node-status.ts'
import type { Logger } from '../primitives/logger.ts'
import { chainGenesis, completeLatestState } from './data-directory.ts'
import { PoolAdmission } from './admission.ts'
import { PoolPort } from './pool-port.ts'
import { idleYoungCollection } from './idle-collection.ts'
import { EMPTY_POOL, poolApi } from './pool-api.ts'
import type { NodePorts } from './ports.ts'
import { PROCESS_MEMORY } from './thread-memory.ts'
import { nodeInfo } from './node-info.ts'
import { ethConfig } from '../execution/fork-config.ts'
import { NodeEvents } from './node-events.ts'
import { CallService } from './execution/call-service.ts'
import { InlineExecutor } from './execution/inline-executor.ts'
import { WorkerExecutor, type WorkerExecutorOptions } from './execution/worker-executor.ts'
import { DEFAULT_SPARE_CORE, SpareCoreGate } from './execution/spare-core-gate.ts'
import type { Executor } from './execution/jobs.ts'
import { ResultCache } from './execution/result-cache.ts'
import { DEFAULT_SIMULATE_SETTINGS, type SimulateSettings } from '../simulate/types.ts'

export interface SequencerConfig extends SequencerSettings {
  readonly pool?: Partial<PoolConfig>
  /** Default and maximum wait of eth_sendRawTransactionSync (ms). */
  readonly syncTimeoutMs: number
  /** Time source for flashblocks and the pool (tests inject a manual one). */
  readonly scheduler?: Scheduler
  /**
   * On an OP Stack chain: the L1 values each block's L1-attributes deposit sets (each one absent: the parent's
   * L1Block value carried forward). On an OP chain the coinbase is the SequencerFeeVault and the extraData
   * Holocene's, whatever `coinbase` and `extraData` say (sequencer/op-opening.ts).
   */
  readonly opL1?: L1ValueOverrides
}

/** How long a sequencer with --stream waits at start for the broker before sequencing without it. */
const BROKER_CONNECT_WAIT_MS = 3_000

export const DEFAULT_SEQUENCER: SequencerConfig = {
  mode: 'auto',
  flashblockIntervalMs: 200,
  flashblocksPerBlock: 10,
  coinbase: new Uint8Array(20),
  extraData: new Uint8Array(0),
  maxTransactionsPerFlashblock: 5_000,
  syncTimeoutMs: 2_000,
}

export interface NodeConfig {
  readonly dataDir: string
  /** Genesis for an empty data directory (ignored when the directory already holds a chain). */
  readonly genesis?: GethGenesis
  readonly gasCap: bigint
  readonly evmTimeoutMs: number
  readonly maxLogBlockRange: number
  readonly maxLogResults: number
  /** eth_call results kept per immutable block or snapshot (0: no cache). */
  readonly callCacheEntries: number
  /** Threads running eth_call / estimate / access lists / simulations off the main thread (0: run them inline). */
  readonly executionWorkers: number
  /** Workers more, used only while long executions leave the main thread idle (execution/spare-core-gate.ts). */
  readonly extraExecutionWorkers?: number
  /** Threads recovering the senders of submitted transactions (0: inline). Only used when sequencing. */
  readonly recoveryWorkers?: number
  /** Hash each sealed block's transactions and receipts roots on a worker thread (default: on the main thread). */
  readonly sealHashingWorker?: boolean
  /** Pre-confirmations: the node sequences (pool, flashblocks, sealing). Absent: a read-only node. */
  readonly sequencer?: SequencerConfig
  /**
   * Follow a sequencer (follower/): no pool, no sequencer; pre-confirmed state comes from the sequencer's
   * stream, applied by `node.follower`, and blocks the stream cannot give from `sealed`. Excludes `sequencer`.
   */
  readonly follow?: FollowConfig
  /** eth_simulateV1 (gas budget and time limit default to gasCap and evmTimeoutMs). */
  readonly simulate?: Partial<SimulateSettings>
  /** The flashblock stream (only when the node sequences): what it keeps, when it cuts a subscriber. */
  readonly stream?: Partial<StreamSettings>
  /**
   * NATS JetStream (nats://host:port; docs/scaling.md): a sequencer also publishes its stream there, a
   * follower reads its stream from there (and fills holes from the sequencer's own stream).
   */
  readonly streamBroker?: string
  /** Prometheus metrics (node/metrics.ts; GET /metrics). Default on; false: none recorded. */
  readonly metrics?: boolean
  /** Where the node logs its work (node/activity-log.ts) and its failures; absent: nowhere. */
  readonly log?: Logger
  /** Not ready (GET /readyz 503) when the newest flashblock is older than this (auto sealing only). */
  readonly readyMaxAgeMs?: number
  /** A member of a sequencer group (cli/group-member.ts): its group's state, for GET /status and the metrics. */
  readonly group?: () => GroupState
}

/** What a following node needs of its sequencer. */
export interface FollowConfig {
  /** Its sealed chain (catch-up, refetching a block that did not check out). */
  readonly sealed: SealedBlockSource
  /** Where transactions go (absent: the follower takes none). */
  readonly sequencer?: SequencerClient
  /** Its flashblock stream (ws://…/flashblocks); absent: messages are handed to `node.follower` by the caller. */
  readonly streamUrl?: string
  /** `pending` answers `latest`, and the node is not ready, once the newest flashblock is older (ms). */
  readonly maxAgeMs?: number
  /** The clock that age is counted on (ms; default the wall clock): tests move it instead of waiting. */
  readonly now?: () => number
  /** Not ready while more sealed blocks behind the sequencer (default 2). */
  readonly maxBlocksBehind?: bigint
}

export const DEFAULT_NODE_SETTINGS = {
  gasCap: 50_000_000n,
  evmTimeoutMs: 5_000,
  maxLogBlockRange: 100_000,
  maxLogResults: 20_000,
  executionWorkers: 0,
  callCacheEntries: 10_000,
} as const

export const CLIENT_VERSION = `Flashnode/v0.1.0/${process.platform}-${process.arch}/node${process.versions.node}`

export interface FlashNode {
  /** The facade with pre-confirmations, when the node sequences (`pending` is the newest flashblock). */
  readonly api: NodeService
  /**
   * The same node seen without pre-confirmations (sealed state only: node-service.ts), for endpoints that
   * turn them off; the same object as `api` on a read-only node.
   */
  readonly sealedApi: NodeService
  readonly rules: ChainRules
  readonly chain: ChainReader
  readonly writer: ChainWriter
  /** The pre-confirmation feed (present when the node sequences): what readers of pending state see. */
  readonly feed?: PreconfirmedFeed
  /** Present when the node sequences. */
  readonly sequencer?: Sequencer
  /** The producer of a following node (present with `follow`): it applies the sequencer's stream. */
  readonly follower?: Follower
  /** The flashblock stream (docs/stream.md), present when the node sequences. */
  readonly stream?: FlashblockPublisher
  readonly pool?: TxPool
  /** The small read ports beside the facades (node/ports.ts): the pool's content, shared by both facades. */
  readonly ports: NodePorts
  /** The node's metrics, unless turned off. */
  readonly metrics?: NodeMetrics
  /** Whether it should get traffic now (GET /readyz), and why. */
  readiness(): ReadinessState
  /** What GET /status and the live view show (node/node-status.ts); without pre-confirmations: sealed state only. */
  status(preconfirmations?: boolean): NodeStatus
  /** Starts sequencing (resuming a journaled block); a no-op for a read-only node. */
  start(): Promise<void>
  close(): Promise<void>
}

/** The extra execution workers and the gate that lets them in, sampled on a timer (logged when it turns). */
function extraWorkers(workers: number, log: Logger | undefined): Pick<WorkerExecutorOptions, 'extra'> {
  if (workers <= 0) return {}
  const gate = new SpareCoreGate(DEFAULT_SPARE_CORE, (turn) =>
    log?.debug(
      {
        open: turn.open,
        reason: turn.reason,
        mainThreadUtilization: Number(turn.utilization.toFixed(2)),
        ...(turn.rateBefore !== undefined ? { jobsPerIntervalBefore: Number(turn.rateBefore.toFixed(1)) } : {}),
        ...(turn.rateAfter !== undefined ? { jobsPerIntervalAfter: Number(turn.rateAfter.toFixed(1)) } : {}),
      },
      turn.open ? 'extra execution workers in use' : 'extra execution workers idle',
    ),
  )
  return { extra: { workers, gate, sampleEveryMs: DEFAULT_SPARE_CORE.intervalMs } }
}

/** The NATS side, loaded only by a node given a broker: the client costs ~50 ms and ~13 MB at every start. */
async function loadJetStream() {
  const [source, publisher] = await Promise.all([import('../follower/jetstream-source.ts'), import('../stream/jetstream-publisher.ts')])
  return { ...source, ...publisher }
}
type JetStreamModules = Awaited<ReturnType<typeof loadJetStream>>

export async function createNode(config: NodeConfig): Promise<FlashNode> {
  const jetstream = config.streamBroker === undefined ? undefined : { url: config.streamBroker, ...(await loadJetStream()) }
  const kv = new LmdbStore(config.dataDir)
  const store = new ChainStore(kv, { soleWriter: true })
  let genesis: GethGenesis
  try {
    completeLatestState(kv, store.pointer('head'), config.log)
    genesis = await chainGenesis(kv, store, config)
  } catch (e) {
    await kv.close()
    throw e
  }
  const rules = new ChainRules(genesis)
  const writer = new ChainWriter(kv, store, rules)
  const chain = new ChainReader(store, rules)
  const simulate: SimulateSettings = { ...DEFAULT_SIMULATE_SETTINGS, gasBudget: config.gasCap, timeoutMs: config.evmTimeoutMs, ...config.simulate }
  const settings: NodeSettings = {
    chainId: rules.chainId,
    networkId: rules.chainId,
    clientVersion: CLIENT_VERSION,
    logs: { maxBlockRange: config.maxLogBlockRange, maxResults: config.maxLogResults },
    simulate,
  }
  if (config.follow !== undefined && config.sequencer !== undefined) {
    await kv.close()
    throw new Error('a node either sequences or follows a sequencer, not both')
  }
  // A producer's worker threads: a sequencer's admission and seal, a follower's sender checks and seal; each
  // starts when the load first needs it (the first submission or streamed transaction, the first large block).
  const producing = config.sequencer !== undefined || config.follow !== undefined
  const recovery = producing && (config.recoveryWorkers ?? 0) > 0 ? new SenderRecovery(genesis, config.recoveryWorkers ?? 0) : undefined
  const sealHashing = producing && config.sealHashingWorker === true ? new SealHashing() : undefined
  const metrics = config.metrics === false ? undefined : new NodeMetrics({ head: () => headOf(chain) })
  if (config.group !== undefined) metrics?.watchGroup(config.group)
  const following = config.follow === undefined ? undefined : followerFor(kv, rules, chain, writer, config.follow, replicaWork(recovery, sealHashing), config.log, metrics, jetstream)
  const sequencing =
    config.sequencer === undefined
      ? undefined
      : sequencingFor(kv, store, rules, chain, writer, config.sequencer, recovery, sealHashing === undefined ? {} : { rootsFeed: sealHashing.feed }, metrics, config.log)
  // The stream hears the feed from before the first block opens, so its first message is an opening.
  const stream = sequencing === undefined ? undefined : new FlashblockPublisher(sequencing.feed, kv, { ...DEFAULT_STREAM_SETTINGS, ...config.stream }, ...(config.log !== undefined ? [config.log] : []))
  const broker = stream === undefined || jetstream === undefined ? undefined : new jetstream.JetStreamPublisher({ url: jetstream.url, chainId: rules.chainId, ...(config.log !== undefined ? { log: config.log } : {}) })
  if (broker !== undefined) stream!.onPublished(broker.publish)
  const callSettings = { gasCap: config.gasCap, evmTimeoutMs: config.evmTimeoutMs, simulate }
  const executor: Executor =
    config.executionWorkers > 0
      ? new WorkerExecutor(
          { dataDir: config.dataDir, genesis, settings: callSettings },
          {
            workers: config.executionWorkers,
            timeoutMs: config.evmTimeoutMs,
            simulateTimeoutMs: simulate.timeoutMs,
            graceMs: 1_000,
            maxQueued: 1_000,
            maxInFlight: 4,
            ...extraWorkers(config.extraExecutionWorkers ?? 0, config.log),
          },
          metrics,
        )
      : new InlineExecutor(kv, chain, new CallService(rules, store, callSettings), metrics)
  const results = config.callCacheEntries > 0 ? new ResultCache(config.callCacheEntries) : undefined
  const write = sequencing?.write ?? following?.write
  const shared = { ...(write !== undefined ? { write } : {}), ...(results !== undefined ? { results } : {}) }
  // Two facades over one node: with the feed (pending = the newest flashblock) and without it (sealed state).
  const feed = sequencing?.feed ?? following?.fresh
  const syncing = following === undefined ? undefined : { syncing: () => syncStatusOf(following.follower) }
  const api = new NodeService(kv, chain, rules, settings, executor, { ...shared, ...(feed !== undefined ? { feed } : {}), ...syncing })
  const sealedApi = feed === undefined ? api : new NodeService(kv, chain, rules, settings, executor, { ...shared, ...syncing })
  if (metrics !== undefined && sequencing !== undefined) {
    metrics.listenToFeed(sequencing.feed)
    const pool = sequencing.admission.pool
    metrics.watchPool(() => pool.stats(), { pending: pool.config.globalSlots, queued: pool.config.globalQueue })
    metrics.sequencing(config.sequencer!.mode === 'auto' ? config.sequencer!.flashblockIntervalMs / 1000 : 0)
  }
  if (metrics !== undefined && stream !== undefined) metrics.watchStream(stream)
  if (metrics !== undefined && broker !== undefined) metrics.watchBroker(() => broker.stats())
  if (metrics !== undefined && executor.stats !== undefined) metrics.watchExecution(() => executor.stats!())
  const scheduler = config.sequencer?.scheduler ?? realScheduler
  const readiness =
    sequencing !== undefined && config.sequencer?.mode === 'auto'
      ? new FlashblockReadiness(sequencing.feed, () => scheduler.now(), config.readyMaxAgeMs ?? defaultReadyMaxAgeMs(config.sequencer.flashblockIntervalMs))
      : following !== undefined
        ? new FollowerReadiness(
            following.progress,
            following.fresh.maxAgeMs,
            config.follow?.maxBlocksBehind ?? 2n,
          )
        : undefined
  const openState: ReadinessState = {
    ready: true,
    reason: sequencing === undefined ? 'serving the stored chain (no sequencer)' : 'manual sealing: flashblocks come when asked',
  }
  let started = false
  const ports: NodePorts = {
    txpool: sequencing === undefined ? EMPTY_POOL : poolApi(sequencing.admission.pool),
    info: nodeInfo(config.sequencer?.coinbase, () => {
      const genesisHeader = chain.header(0n)!
      const head = chain.header(chain.head())!
      return ethConfig(rules, { genesisHash: genesisHeader.hash(), genesisTime: genesisHeader.timestamp, headNumber: head.number, headTime: head.timestamp })
    }),
    memory: PROCESS_MEMORY,
  }
  return {
    api,
    sealedApi,
    ports,
    rules,
    chain,
    writer,
    ...(sequencing !== undefined ? { feed: sequencing.feed, sequencer: sequencing.sequencer, pool: sequencing.admission.pool } : {}),
    ...(following !== undefined ? { feed: following.feed, follower: following.follower } : {}),
    ...(stream !== undefined ? { stream } : {}),
    ...(metrics !== undefined ? { metrics } : {}),
    readiness: () => readiness?.state() ?? openState,
    status: (preconfirmations = true) =>
      nodeStatus({
        preconfirmations: preconfirmations && (sequencing !== undefined || following !== undefined),
        chainId: rules.chainId,
        clientVersion: CLIENT_VERSION,
        chain,
        now: () => scheduler.now(),
        ...(sequencing !== undefined
          ? {
              sequencer: config.sequencer!,
              feed: sequencing.feed,
              pool: { stats: () => sequencing.admission.pool.stats(), capacity: { pending: sequencing.admission.pool.config.globalSlots, queued: sequencing.admission.pool.config.globalQueue } },
              live: sequencing.live,
            }
          : following !== undefined
            ? { feed: following.fresh, live: following.live }
            : {}),
        ...(stream !== undefined ? { stream } : {}),
        ...(config.group !== undefined ? { group: config.group } : {}),
      }),
    async start() {
      if (following !== undefined && !started) {
        started = true
        // A sequencer group's standby may start while nobody leads: then there is no one to compare with yet.
        if (config.follow?.sequencer?.url !== undefined) await sameChain(config.follow.sequencer, chain, rules)
        following.stream?.start()
        return
      }
      if (sequencing === undefined || started) return
      started = true
      // The broker's first connection, so the first messages reach it; never longer than a few seconds.
      broker?.start()
      if (broker !== undefined) await Promise.race([broker.whenConnected(), delay(BROKER_CONNECT_WAIT_MS, undefined, { ref: false })])
      await sequencing.sequencer.start()
      sequencing.admission.restorePool()
    },
    async close() {
      await sequencing?.sequencer.stop()
      await following?.stream?.stop()
      stream?.close()
      await broker?.close()
      metrics?.close()
      await recovery?.close()
      await sealHashing?.close()
      await executor.close()
      await kv.close()
    },
  }
}

interface Sequencing {
  readonly feed: PreconfirmedStore
  readonly sequencer: Sequencer
  readonly admission: PoolAdmission
  readonly write: WriteSide
  readonly live: LiveStatus
}

/** The feed, then its producer (the sequencer, on the pool's port) and the admission side, all over one pool. */
function sequencingFor(
  kv: LmdbStore,
  store: ChainStore,
  rules: ChainRules,
  chain: ChainReader,
  writer: ChainWriter,
  config: SequencerConfig,
  recovery: SenderRecovery | undefined,
  openOptions: OpenOptions,
  metrics: NodeMetrics | undefined,
  log: Logger | undefined,
): Sequencing {
  const scheduler = config.scheduler ?? realScheduler
  const pool = new TxPool({ config: config.pool ?? {}, now: () => scheduler.now() })
  const feed = new PreconfirmedStore(kv)
  const activity = log === undefined ? undefined : new ActivityLog(log, feed, pool)
  const live = new LiveStatus(feed, pool, () => scheduler.now())
  const observers = [metrics, activity, live].filter((o): o is NonNullable<typeof o> => o !== undefined)
  const observer = observers.length === 1 ? observers[0]! : allObservers(...observers)
  const admission = new PoolAdmission(kv, rules, pool, feed, recovery, metrics === undefined ? undefined : (result) => metrics.admitted(result))
  const sequencer = new Sequencer(
    rules,
    kv,
    store,
    () => chain.header(chain.head())!,
    (executed, extra) => writer.commit(executed, extra),
    new PoolPort(pool),
    scheduler,
    config,
    {
      open: openOptions,
      feed,
      ...(observer !== undefined ? { observer } : {}),
      ...(rules.op !== undefined ? { opening: new OpOpening(rules, kv, config.opL1) } : {}),
      // Real time only: an injected clock's "idle time" is no one's.
      ...(config.scheduler === undefined ? { idleTime: idleYoungCollection() } : {}),
    },
  )
  return {
    feed,
    sequencer,
    admission,
    live,
    write: {
      admission,
      events: new NodeEvents(feed, chain, pool),
      producer: sequencer,
      syncTimeoutMs: config.syncTimeoutMs,
      blockTimeMs: config.flashblockIntervalMs * config.flashblocksPerBlock,
    },
  }
}

interface Following {
  readonly feed: PreconfirmedStore
  /** What readers see: the feed without a snapshot older than the age limit. */
  readonly fresh: FreshFeed
  readonly follower: Follower
  /** Where its messages come from: the sequencer's WebSocket stream, or JetStream. */
  readonly stream?: { start(): void; stop(): Promise<void> }
  readonly write?: WriteSide
  /** What readiness and the metrics read. */
  readonly progress: FollowerState
  /** The recent flashblocks and seals GET /status and the live view show. */
  readonly live: LiveStatus
}

/** The age limit of a follower's newest flashblock when none is configured (five 200 ms intervals, at least 1 s). */
const FOLLOWER_MAX_AGE_MS = defaultReadyMaxAgeMs(DEFAULT_SEQUENCER.flashblockIntervalMs)

/** A follower's seal roots and sender checks, on the node's worker threads where it has them. */
function replicaWork(recovery: SenderRecovery | undefined, sealHashing: SealHashing | undefined): ReplicaWork {
  return {
    orderedRoots: sealHashing?.roots ?? rootsInTurns,
    ...(recovery !== undefined
      ? { recoverSenders: (raws, header) => Promise.all(raws.map(async (raw) => (await recovery.prepare(raw, header.number, header.timestamp))?.sender)) }
      : {}),
  }
}

/** The feed and its producer on a following node (the follower, committing through the chain writer), its stream and forwarding. */
function followerFor(
  kv: LmdbStore,
  rules: ChainRules,
  chain: ChainReader,
  writer: ChainWriter,
  follow: FollowConfig,
  work: ReplicaWork,
  log: Logger | undefined,
  metrics: NodeMetrics | undefined,
  broker: (JetStreamModules & { readonly url: string }) | undefined,
): Following {
  const feed = new PreconfirmedStore(kv)
  const fresh = new FreshFeed(feed, follow.now ?? (() => Date.now()), follow.maxAgeMs ?? FOLLOWER_MAX_AGE_MS)
  const follower = new Follower({
    rules,
    kv,
    head: () => chain.header(chain.head())!,
    commit: (executed) => writer.commit(executed),
    importBlocks: async (rlps) => {
      await writer.importRlp(concatBytes(...rlps), undefined, counted?.executed)
    },
    writer: feed,
    sealed: follow.sealed,
    work,
    ...(log !== undefined ? { log } : {}),
  })
  const progress = {
    connected: () => stream?.connected ?? true,
    flashblockAge: () => fresh.age(),
    blocksBehind: () => {
      const p = follower.progress()
      return p.sequencerHead - p.head
    },
  }
  const counted = metrics === undefined ? undefined : followerMetrics(metrics.registry, progress)
  if (counted !== undefined) follower.observe(counted.observer)
  const logs = log !== undefined ? { log } : {}
  const stream: (StreamClient | JetStreamSource) | undefined =
    broker !== undefined
      ? new broker.JetStreamSource(
          {
            url: broker.url,
            chainId: rules.chainId,
            head: () => chain.head(),
            fill: follow.streamUrl !== undefined ? broker.sequencerFill(follow.streamUrl) : async () => ({ missing: 'no sequencer stream to read from' }),
            ...broker.DEFAULT_JETSTREAM_SOURCE,
            ...logs,
          },
          follower,
        )
      : follow.streamUrl === undefined
        ? undefined
        : new StreamClient({ url: follow.streamUrl, ...DEFAULT_STREAM_CLIENT, ...logs, ...(counted !== undefined ? { onConnect: () => counted.subscribed() } : {}) }, follower)
  const notHere = async (): Promise<never> => {
    throw new FlashnodeError('methodNotFound', 'a follower does not produce blocks: ask its sequencer')
  }
  const forwarding = follow.sequencer === undefined ? undefined : new ForwardingAdmission(follow.sequencer, rules, feed, () => Date.now(), counted?.forwarded)
  const write: WriteSide | undefined =
    forwarding === undefined
      ? undefined
      : {
          admission: forwarding,
          events: new NodeEvents(fresh, chain),
          // A user deposit goes to the sequencer, which queues it (as a transaction sent here does).
          producer: { seal: notHere, flashblock: notHere, queueDeposit: (request) => forwarding.deposit(request) },
          syncTimeoutMs: DEFAULT_SEQUENCER.syncTimeoutMs,
          blockTimeMs: DEFAULT_SEQUENCER.flashblockIntervalMs * DEFAULT_SEQUENCER.flashblocksPerBlock,
        }
  const live = new LiveStatus(feed, undefined, () => Date.now())
  return { feed, fresh, follower, progress, live, ...(stream !== undefined ? { stream } : {}), ...(write !== undefined ? { write } : {}) }
}

/** eth_syncing on a follower: syncing while its head is behind the sequencer's newest sealed block. */
function syncStatusOf(follower: Follower): SyncStatus {
  const p = follower.progress()
  if (p.startingBlock === undefined || p.head >= p.sequencerHead) return { syncing: false }
  return { syncing: true, startingBlock: p.startingBlock, currentBlock: p.head, highestBlock: p.sequencerHead }
}

/**
 * Refuses to follow a sequencer of another chain (another genesis). Where the two differ in kind, an OP Stack
 * chain (its genesis has an `optimism` section, and with it the L1Block predeploy) against an Ethereum one,
 * the refusal says so and what to start the follower with.
 */
async function sameChain(sequencer: SequencerClient, chain: ChainReader, rules: ChainRules): Promise<void> {
  const theirs = (await sequencer.call('eth_getBlockByNumber', ['0x0', false])) as { hash?: string } | null
  const ours = bytesToHex(chain.header(0n)!.hash())
  if (theirs?.hash === ours) return
  const theirCode = await sequencer.call('eth_getCode', [L1_BLOCK_ADDRESS, '0x0']).catch(() => undefined)
  const theyAreOp = typeof theirCode === 'string' && theirCode !== '0x'
  const weAreOp = rules.op !== undefined
  if (theirCode !== undefined && theyAreOp !== weAreOp) {
    throw new Error(
      theyAreOp
        ? `the sequencer at ${sequencer.url} runs an OP Stack chain (its genesis holds the L1Block predeploy) and this data directory's chain is not one: start the follower with --op-stack (and the sequencer's chain options) on an empty --datadir`
        : `the sequencer at ${sequencer.url} runs an Ethereum chain and this data directory's is an OP Stack chain (its genesis has an optimism section): start the follower without --op-stack on an empty --datadir`,
    )
  }
  throw new Error(`the sequencer at ${sequencer.url} has another genesis (${theirs?.hash ?? 'none'}, this data directory's is ${ours}): start the follower with the sequencer's genesis and an empty --datadir`)
}

function headOf(chain: ChainReader): { number: bigint; timestamp: bigint } {
  const header = chain.header(chain.head())!
  return { number: header.number, timestamp: header.timestamp }
}
