/**
 * The data directory as a node opens it (create-node.ts): whether it holds a chain, the genesis the running
 * node needs (block 0 written from the whole genesis on first use, the genesis without its accounts kept
 * beside it), and the latest-state tables completed before anything reads state. It never starts a role,
 * serves or sequences.
 */

import { LmdbStore } from '../storage/db.ts'
import { ChainStore } from '../chain/chain-store.ts'
import { ChainRules, type GethGenesis } from '../execution/chain-config.ts'
import type { Logger } from '../primitives/logger.ts'
import { buildLatestState, latestStateReaches } from '../state/latest-state.ts'
import { ChainWriter } from './chain-writer.ts'
import type { NodeConfig } from './create-node.ts'

/** Whether the directory holds a chain (its genesis is stored). */
export function holdsChain(dataDir: string): boolean {
  const kv = new LmdbStore(dataDir)
  try {
    const store = new ChainStore(kv)
    return store.getMeta(RUNTIME_GENESIS) !== undefined || store.getMeta('genesis') !== undefined
  } finally {
    void kv.close()
  }
}

/**
 * Before anything reads state: a database whose latest-state tables do not mirror its history through the
 * head (written before they existed, or by an older version since) gets them rebuilt (state/latest-state.ts;
 * logged).
 */
export function completeLatestState(kv: LmdbStore, head: bigint | undefined, log: Logger | undefined): void {
  if (latestStateReaches(kv, head)) return
  log?.info({ head: Number(head) }, 'latest-state tables: building them from the state history (once; the node listens after)')
  const started = performance.now()
  const items = buildLatestState(kv, head)
  log?.info({ items, ms: Math.round(performance.now() - started) }, 'latest-state tables built from the state history')
}

/** The stored genesis without its accounts (chainGenesis). */
const RUNTIME_GENESIS = 'genesis-rules'

/**
 * The genesis the running node needs: its configuration and header fields, with an empty `alloc` (the
 * accounts it funds are block 0's state, in the database). A 100,000-account alloc is ~25 MB of JSON and
 * several times that as objects, which every thread would hold, and a start would parse, otherwise.
 * A directory without a chain gets block 0 from the whole genesis first; one from before this was stored
 * gets it written at its first start. A given genesis must be the stored one.
 */
export async function chainGenesis(kv: LmdbStore, store: ChainStore, config: Pick<NodeConfig, 'dataDir' | 'genesis'>): Promise<GethGenesis> {
  const other = new Error(`${config.dataDir} holds another chain than the genesis given: use another --datadir`)
  // The stored text is the given genesis as written at init (JSON.stringify of it): compared as text. It is
  // read only when a genesis is given or the runtime one is missing: on a large genesis it is tens of MB.
  const given = config.genesis === undefined ? undefined : JSON.stringify(config.genesis)
  const runtime = store.getMeta(RUNTIME_GENESIS)
  if (runtime !== undefined) {
    if (given !== undefined && given !== store.getMeta('genesis')) throw other
    return JSON.parse(runtime) as GethGenesis
  }
  const raw = store.getMeta('genesis')
  if (raw !== undefined && given !== undefined && given !== raw) throw other
  const full = raw !== undefined ? (JSON.parse(raw) as GethGenesis) : config.genesis
  if (full === undefined) throw new Error(`no chain in ${config.dataDir}: give a genesis (flashnode init --genesis FILE)`)
  await new ChainWriter(kv, store, new ChainRules(full)).initGenesis()
  const genesis: GethGenesis = { ...full, alloc: {} }
  const batch = kv.batch()
  store.putMeta(batch, RUNTIME_GENESIS, JSON.stringify(genesis))
  kv.commit(batch)
  return genesis
}
