/**
 * createNode(config): opens the data directory and wires storage, chain, execution and the facade.
 *
 * The chain's genesis is stored with it: a node restarted on the same directory resumes the same chain
 * and ignores genesis options; a different genesis given for a non-empty directory is an error rather than
 * a silent switch.
 */

import { LmdbStore } from '../storage/db.ts'
import { ChainStore } from '../chain/chain-store.ts'
import { ChainRules, type GethGenesis } from '../execution/chain-config.ts'
import { ChainReader } from './chain-reader.ts'
import { ChainWriter } from './chain-writer.ts'
import { NodeService, type NodeSettings } from './node-service.ts'

export interface NodeConfig {
  readonly dataDir: string
  /** Genesis for an empty data directory (ignored when the directory already holds a chain). */
  readonly genesis?: GethGenesis
  readonly gasCap: bigint
  readonly evmTimeoutMs: number
  readonly maxLogBlockRange: number
  readonly maxLogResults: number
}

export const DEFAULT_NODE_SETTINGS = {
  gasCap: 50_000_000n,
  evmTimeoutMs: 5_000,
  maxLogBlockRange: 100_000,
  maxLogResults: 20_000,
} as const

export const CLIENT_VERSION = `Flashnode/v0.1.0/${process.platform}-${process.arch}/node${process.versions.node}`

export interface FlashNode {
  readonly api: NodeService
  readonly rules: ChainRules
  readonly chain: ChainReader
  readonly writer: ChainWriter
  close(): Promise<void>
}

/** The genesis stored in the directory, if it holds a chain. */
export function storedGenesis(dataDir: string): GethGenesis | undefined {
  const kv = new LmdbStore(dataDir)
  try {
    const raw = new ChainStore(kv).getMeta('genesis')
    return raw === undefined ? undefined : (JSON.parse(raw) as GethGenesis)
  } finally {
    void kv.close()
  }
}

export async function createNode(config: NodeConfig): Promise<FlashNode> {
  const kv = new LmdbStore(config.dataDir)
  const store = new ChainStore(kv)
  const raw = store.getMeta('genesis')
  const genesis = raw !== undefined ? (JSON.parse(raw) as GethGenesis) : config.genesis
  if (raw !== undefined && config.genesis !== undefined && JSON.stringify(config.genesis) !== JSON.stringify(genesis)) {
    await kv.close()
    throw new Error(`${config.dataDir} holds another chain than the genesis given: use another --datadir`)
  }
  if (genesis === undefined) {
    await kv.close()
    throw new Error(`no chain in ${config.dataDir}: give a genesis (flashnode init --genesis FILE)`)
  }
  const rules = new ChainRules(genesis)
  const writer = new ChainWriter(kv, store, rules)
  await writer.initGenesis()
  const chain = new ChainReader(store, rules)
  const settings: NodeSettings = {
    chainId: rules.chainId,
    networkId: rules.chainId,
    clientVersion: CLIENT_VERSION,
    gasCap: config.gasCap,
    evmTimeoutMs: config.evmTimeoutMs,
    logs: { maxBlockRange: config.maxLogBlockRange, maxResults: config.maxLogResults },
  }
  const api = new NodeService(kv, chain, rules, settings)
  return { api, rules, chain, writer, close: () => kv.close() }
}
