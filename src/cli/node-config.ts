/** Command-line options -> an open node on the data directory's chain (created on first use). */

import type { Logger } from '../primitives/logger.ts'
import { holdsChain } from '../node/data-directory.ts'
import { createNode, DEFAULT_NODE_SETTINGS, DEFAULT_SEQUENCER, type FlashNode, type FollowConfig, type NodeConfig, type SequencerConfig } from '../node/create-node.ts'
import { SequencerClient } from '../follower/sequencer-client.ts'
import { natsServers } from '../stream/nats-url.ts'
import { availableParallelism } from 'node:os'
import { hexToBytes } from '../primitives/hex.ts'
import { chooseGenesis } from './chain-setup.ts'
import { OPTIONS, UsageError, type ParsedOptions } from './options.ts'
import { readOpL1File } from './op-l1-file.ts'
import type { EndpointConfig } from './endpoint-config.ts'
import type { GroupMemberSettings } from './group-member.ts'

function followConfig(options: ParsedOptions): FollowConfig | undefined {
  const url = options.follow
  if (url === undefined) return undefined
  if (options['read-only']) throw new UsageError('--follow and --read-only exclude each other')
  if (options['ready-max-behind'] < 0) throw new UsageError('--ready-max-behind must be 0 or more')
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new UsageError(`--follow must be the sequencer's http:// or https:// URL, got "${url}"`)
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new UsageError(`--follow must be the sequencer's http:// or https:// URL, got "${url}"`)
  const sequencer = new SequencerClient(url)
  const stream = new URL(url)
  stream.protocol = parsed.protocol === 'https:' ? 'wss:' : 'ws:'
  stream.pathname = `${stream.pathname.replace(/\/$/, '')}/flashblocks`
  return {
    sealed: sequencer,
    sequencer,
    streamUrl: stream.toString(),
    ...(options['ready-max-age'] !== undefined ? { maxAgeMs: options['ready-max-age'] } : {}),
    maxBlocksBehind: BigInt(options['ready-max-behind']),
  }
}

/** --stream nats://HOST:PORT[,nats://HOST:PORT…]: the JetStream broker (one server or a cluster's), on a sequencer or a follower. */
function streamBroker(options: ParsedOptions): string | undefined {
  const url = options.stream
  if (url === undefined) return undefined
  if (options['read-only']) throw new UsageError('--stream is for a sequencer or a follower, not with --read-only')
  const server = natsServers(url)
  if (server instanceof Error) throw new UsageError(`--stream: ${server.message}`)
  return url
}

function sequencerConfig(options: ParsedOptions): SequencerConfig | undefined {
  if (options['read-only'] || options.follow !== undefined) return undefined
  if (options.sealing !== 'auto' && options.sealing !== 'manual') throw new UsageError(`--sealing must be auto or manual, got "${options.sealing}"`)
  if (options['flashblock-interval'] < 1) throw new UsageError('--flashblock-interval must be at least 1 ms')
  if (options['flashblocks-per-block'] < 1) throw new UsageError('--flashblocks-per-block must be at least 1')
  if (options['flashblocks-history'] < 0) throw new UsageError('--flashblocks-history must be 0 or more')
  if (options['seal-workers'] < -1 || options['seal-workers'] > 1) throw new UsageError(`--seal-workers must be -1, 0 or 1, got ${options['seal-workers']}`)
  let coinbase: Uint8Array
  try {
    coinbase = hexToBytes(options.coinbase)
  } catch {
    coinbase = new Uint8Array(0)
  }
  if (coinbase.length !== 20) throw new UsageError(`--coinbase must be a 20-byte hex address, got "${options.coinbase}"`)
  if (options['op-stack'] && options.coinbase !== OPTIONS.coinbase.default) throw new UsageError('--op-stack: the coinbase of an OP Stack block is the SequencerFeeVault; --coinbase cannot change it')
  return {
    ...DEFAULT_SEQUENCER,
    mode: options.sealing,
    flashblockIntervalMs: options['flashblock-interval'],
    flashblocksPerBlock: options['flashblocks-per-block'],
    coinbase,
    syncTimeoutMs: options['sync-timeout'],
    ...(options['op-l1'] !== undefined ? { opL1: readOpL1File(options['op-l1']) } : {}),
  }
}

/**
 * The execution pool: N workers when told; by default one per core beyond the first (the main thread keeps
 * a core for HTTP and JSON), and one more for the main thread's core while long executions leave it idle
 * (node/execution/spare-core-gate.ts).
 */
function executionWorkers(option: number): { executionWorkers: number; extraExecutionWorkers: number } {
  if (option >= 0) return { executionWorkers: option, extraExecutionWorkers: 0 }
  const base = Math.max(1, availableParallelism() - 1)
  return { executionWorkers: base, extraExecutionWorkers: Math.max(0, availableParallelism() - base) }
}

/** The node's settings from the options, without a role (sequencer, follower) when `roles` is false. */
export function nodeConfigOf(options: ParsedOptions, command: 'start' | 'init' | 'import', log: Logger | undefined, roles = true, existing = holdsChain(options.datadir)): NodeConfig {
  const genesis = !existing || options.genesis !== undefined ? chooseGenesis(options).genesis : undefined
  const serving = command === 'start'
  return {
    ...DEFAULT_NODE_SETTINGS,
    dataDir: options.datadir,
    ...(genesis !== undefined ? { genesis } : {}),
    gasCap: options['rpc-gas-cap'],
    evmTimeoutMs: options['evm-timeout'],
    callCacheEntries: options['call-cache'],
    ...executionWorkers(options['execution-workers']),
    recoveryWorkers: options['recovery-workers'] >= 0 ? options['recovery-workers'] : availableParallelism() > 1 ? (options.follow !== undefined ? 1 : 2) : 0,
    sealHashingWorker: options['seal-workers'] >= 0 ? options['seal-workers'] > 0 : availableParallelism() > 1,
    ...(serving && roles ? { sequencer: sequencerConfig(options) } : {}),
    ...(serving ? { stream: { historyBlocks: options['flashblocks-history'] } } : {}),
    ...(serving && roles && options.follow !== undefined ? { follow: followConfig(options)! } : {}),
    ...(serving && options.stream !== undefined ? { streamBroker: streamBroker(options)! } : {}),
    // Metrics are for a serving node; init and import record none.
    metrics: serving && !options['no-metrics'],
    ...(options['ready-max-age'] !== undefined ? { readyMaxAgeMs: options['ready-max-age'] } : {}),
    ...(log !== undefined ? { log } : {}),
  }
}

/** --sequencer-group and the options that go with it, checked. */
export function groupSettings(options: ParsedOptions, endpoints: readonly EndpointConfig[]): GroupMemberSettings {
  const group = options['sequencer-group']!
  if (!/^[A-Za-z0-9_-]+$/.test(group)) throw new UsageError(`--sequencer-group is letters, digits, '-' and '_', got "${group}"`)
  if (options.stream === undefined) throw new UsageError('--sequencer-group needs --stream: the JetStream cluster\'s servers (nats://HOST:PORT,…) where the group keeps its lease and its stream')
  if (options.follow !== undefined || options['read-only']) throw new UsageError('--sequencer-group excludes --follow and --read-only: a candidate follows its group\'s leader by itself')
  if (options.sealing !== 'auto') throw new UsageError('--sequencer-group needs --sealing auto')
  const replicas = options['group-replicas']
  if (replicas !== 1 && replicas !== 3 && replicas !== 5) throw new UsageError(`--group-replicas must be 1, 3 or 5, got ${replicas}`)
  streamBroker(options)
  const first = endpoints[0]!
  const host = first.host.includes(':') ? `[${first.host}]` : first.host
  const wildcard = first.host === '0.0.0.0' || first.host === '::'
  const advertised = options['advertise-url']
  if (advertised === undefined && wildcard) throw new UsageError(`--sequencer-group on ${first.host}: give --advertise-url, the URL the other members reach this one at`)
  if (advertised === undefined && first.port === 0) throw new UsageError('--sequencer-group needs a fixed --port (or --advertise-url): the other members must find this one')
  if (advertised !== undefined && !/^https?:\/\//.test(advertised)) throw new UsageError(`--advertise-url must be an http:// or https:// URL, got "${advertised}"`)
  return {
    group,
    stream: options.stream,
    id: options['node-id'] ?? `${host}:${first.port}`,
    rpcUrl: advertised ?? `http://${host}:${first.port}`,
    replicas,
    catchUpMs: 1_000,
  }
}

/** The sequencer settings the options give (sealing, intervals, coinbase), for a group member that leads. */
export function sequencerSettingsOf(options: ParsedOptions): SequencerConfig {
  return sequencerConfig({ ...options, follow: undefined, 'read-only': false })!
}

export async function openNode(options: ParsedOptions, command: 'start' | 'init' | 'import', log?: Logger): Promise<{ node: FlashNode; created: boolean }> {
  const existing = holdsChain(options.datadir)
  const node = await createNode(nodeConfigOf(options, command, log, true, existing))
  return { node, created: !existing }
}
