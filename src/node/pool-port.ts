/**
 * The sequencer's pool port over the node's pool: best candidates, inclusion (the persisted copies of
 * included transactions, and of those evicted, replaced or expired since, are deleted in the flashblock's own
 * journal batch), drops, and the state moving on (which is also when gapped transactions past the queue
 * lifetime expire). Only the sequencer calls it; submissions come in through admission (admission.ts).
 */

import { hexToBytes } from '../primitives/hex.ts'
import type { WriteBatch } from '../storage/db.ts'
import { keys } from '../storage/keys.ts'
import type { StateReader } from '../state/state-reader.ts'
import type { TxPool } from '../txpool/pool.ts'
import type { CandidateIterator, SequencerPool } from '../sequencer/sequencer.ts'
import type { PreconfirmedSnapshot } from '../preconf/snapshot.ts'
import { poolCandidate } from './pool-candidate.ts'

export class PoolPort implements SequencerPool {
  /** Persisted pool entries to delete with the next flashblock batch (evicted, replaced, expired). */
  private readonly staleEntries = new Set<string>()

  constructor(private readonly pool: TxPool) {
    pool.events.on('dropped', (hash, reason) => {
      if (reason !== 'included') this.staleEntries.add(hash)
    })
  }

  candidates(baseFee: bigint): CandidateIterator {
    const best = this.pool.best(baseFee)
    return {
      next: () => {
        const tx = best.next()
        return tx === undefined ? undefined : poolCandidate(tx)
      },
      skipSender: (sender) => best.skipSender(sender),
    }
  }

  included(batch: WriteBatch, hashes: readonly Uint8Array[]): void {
    this.pool.included(hashes)
    for (const h of hashes) batch.del(keys.pool(h))
    for (const h of this.staleEntries) batch.del(keys.pool(hexToBytes(h)))
    this.staleEntries.clear()
  }

  drop(hash: Uint8Array, reason: string): void {
    this.pool.remove(hash, reason)
  }

  stateChanged(state: StateReader, snapshot: PreconfirmedSnapshot): void {
    this.pool.onNewState(state, {
      touched: [...snapshot.diff.accounts.keys()],
      baseFee: snapshot.header.baseFeePerGas ?? 0n,
      blockGasLimit: snapshot.header.gasLimit,
    })
    // Gapped transactions that waited past the queue lifetime leave now (by the pool's clock, the sequencer's).
    this.pool.expire()
  }
}
