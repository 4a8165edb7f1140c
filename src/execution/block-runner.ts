/**
 * Executes a complete block on top of its parent and checks every commitment in its header (state root,
 * receipts root, bloom, gas used, requests hash) with the library's runBlock, over our flat state.
 *
 * The result holds everything to persist: the stored block (bytes, senders, receipt records) and the state
 * changes with their trie nodes. Nothing is written here; the caller commits it in one batch.
 */

import type { Block, BlockHeader } from '@ethereumjs/block'
import { runBlock, createVM } from '@ethereumjs/vm'
import type { KvStore } from '../storage/db.ts'
import type { ChainStore, StoredBlock } from '../chain/chain-store.ts'
import type { ReceiptRecord } from '../chain/receipt-codec.ts'
import { ArchiveReader } from '../state/archive-reader.ts'
import { JournaledState } from '../state/journaled-state.ts'
import { computeStateRoot, type StateRootResult } from '../state/state-root.ts'
import type { StateDiff } from '../state/state-diff.ts'
import type { ChainRules } from './chain-config.ts'
import { InvalidBlockError, validateHeader } from './header-validation.ts'
import { chainBlockHashes } from './block-hashes.ts'
import { receiptRecord } from './receipt-records.ts'

export interface ExecutedBlock {
  readonly stored: StoredBlock
  readonly diff: StateDiff
  readonly root: StateRootResult
}

export async function executeBlock(
  rules: ChainRules,
  kv: KvStore,
  chain: ChainStore,
  block: Block,
  parent: BlockHeader,
): Promise<ExecutedBlock> {
  validateHeader(block.header, parent)
  const base = new ArchiveReader(kv, parent.number)
  let lastRoot: StateRootResult | undefined
  const state = new JournaledState(base, async (diff) => {
    lastRoot = await computeStateRoot(kv, parent.stateRoot, base, diff)
    return lastRoot.root
  })
  const common = rules.mutableCopy()
  common.setHardforkBy({ blockNumber: block.header.number, timestamp: block.header.timestamp })
  const vm = await createVM({ common, stateManager: state, blockchain: chainBlockHashes(chain) })
  let result
  try {
    result = await runBlock(vm, { block, skipHeaderValidation: true, setHardfork: false })
  } catch (e) {
    throw new InvalidBlockError(block.header.number, (e as Error).message)
  }
  if (lastRoot === undefined) throw new InvalidBlockError(block.header.number, 'state root was not computed')

  const baseFee = block.header.baseFeePerGas
  const blobGasPrice = common.isActivatedEIP(4844) ? block.header.getBlobGasPrice() : undefined
  const senders = block.transactions.map((tx) => tx.getSenderAddress().bytes)
  const txHashes = block.transactions.map((tx) => tx.hash())
  let previousCumulative = 0n
  const receipts: ReceiptRecord[] = block.transactions.map((tx, i) => {
    const record = receiptRecord(
      tx,
      txHashes[i]!,
      senders[i]!,
      result.receipts[i],
      result.results[i]!.createdAddress?.bytes,
      previousCumulative,
      baseFee,
      blobGasPrice,
    )
    previousCumulative = record.cumulativeGasUsed
    return record
  })
  const hash = block.hash()
  return {
    stored: {
      number: block.header.number,
      hash,
      headerRlp: block.header.serialize(),
      blockRlp: block.serialize(),
      senders,
      txHashes,
      receipts,
    },
    diff: state.diff(),
    root: lastRoot,
  }
}
