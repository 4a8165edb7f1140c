/**
 * A Sequencer of its own over a dev node's chain, for the sequencer's unit tests: the node's rules, store
 * and writer, the test's pool and clock, and settings the test may vary from SEQUENCER_TEST_SETTINGS.
 */

import { Sequencer, type SequencerOptions, type SequencerPool, type SequencerSettings } from '../../src/sequencer/sequencer.ts'
import { ManualScheduler } from '../../src/sequencer/scheduler.ts'
import type { FlashNode } from '../../src/node/create-node.ts'
import type { KvStore } from '../../src/storage/db.ts'

export const SEQUENCER_TEST_SETTINGS: SequencerSettings = {
  mode: 'manual',
  flashblockIntervalMs: 200,
  flashblocksPerBlock: 10,
  coinbase: new Uint8Array(20),
  extraData: new Uint8Array(0),
  maxTransactionsPerFlashblock: 1000,
}

/** A pool that never offers anything. */
export const EMPTY_POOL: SequencerPool = {
  candidates: () => ({ next: () => undefined, skipSender: () => undefined }),
  included: () => undefined,
  drop: () => undefined,
  stateChanged: () => undefined,
}

export function sequencerFor(
  node: FlashNode,
  pool: SequencerPool,
  scheduler = new ManualScheduler(),
  settings = SEQUENCER_TEST_SETTINGS,
  options: SequencerOptions = {},
  kv: KvStore = node.chain.store.kv,
): Sequencer {
  return new Sequencer(
    node.rules,
    kv,
    node.chain.store,
    () => node.chain.header(node.chain.head())!,
    (executed, extra) => node.writer.commit(executed, extra),
    pool,
    scheduler,
    settings,
    options,
  )
}
